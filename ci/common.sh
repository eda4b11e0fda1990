# ci/common.sh: what ci/pull-request.sh and ci/nightly.sh share (sourced, not run): the binary,
# logging, the options both take, running a step with its exit status kept, the verdict against the
# baseline, the reports and the step summary.
# shellcheck shell=bash

CI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CROSSCHECK=${CROSSCHECK:-$CI_ROOT/build/crosscheck}

ci_log() { printf '==> %s\n' "$*" >&2; }
ci_fail() { printf 'ERROR: %s\n' "$*" >&2; exit "${2:-2}"; }

# The calling script's header comment, from its second line to `set -uo`.
ci_usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }

ci_need_binary() {
  [ -x "$CROSSCHECK" ] || ci_fail "$CROSSCHECK is not there: build first (./setup build) or set CROSSCHECK"
}

# A duration of crosscheck fuzz --time: 30, 30s, 5m, 1h, 1h30m (fuzz itself gives the full message).
ci_check_duration() {
  [[ $2 =~ ^([0-9]+h)?([0-9]+m)?([0-9]+(\.[0-9]+)?s?)?$ && -n $2 ]] ||
    ci_fail "$1 '$2': expected a duration such as 30s, 5m, 1h or 1h30m"
}

# ci_defaults: the settings both jobs take from the environment before their options are read. The
# shipped baseline is the default when CROSSCHECK_BASELINE is not set at all (set and empty: none).
ci_defaults() {
  local shipped=$CI_ROOT/tests/data/baseline/known.json
  baseline=${CROSSCHECK_BASELINE-}
  if [ -z "${CROSSCHECK_BASELINE+set}" ] && [ -f "$shipped" ]; then baseline=$shipped; fi
  runs=""
  read -ra fuzz_args <<<"${CROSSCHECK_FUZZ_ARGS:-}"
  adapter_args=()
}

# ci_need_value "$@": an option that takes a value has one.
ci_need_value() { [ $# -ge 2 ] && [ -n "$2" ] || ci_fail "$1 needs a value (see --help)"; }

# ci_option "$@": one of the options both jobs take (--time, --runs, --out, --baseline, --no-baseline,
# --seed, --fuzz-arg, -- and what follows it, --help); sets CI_SHIFT to the number of words it used,
# 0 when "$1" is none of them.
ci_option() {
  local value=${2-}
  case $1 in
    --time | --runs | --out | --baseline | --seed | --fuzz-arg) ci_need_value "$@" ;;
  esac
  CI_SHIFT=2
  case $1 in
    --time) time=$value ;;
    --runs) runs=$value ;;
    --out) out=$value ;;
    --baseline) baseline=$value ;;
    --seed) seed=$value ;;
    --fuzz-arg) fuzz_args+=("$value") ;;
    --no-baseline) baseline=""; CI_SHIFT=1 ;;
    --) adapter_args=("${@:2}"); CI_SHIFT=$# ;;
    -h | --help) ci_usage; exit 0 ;;
    *) CI_SHIFT=0 ;;
  esac
}

# ci_prepare: once the options are read: the checks both jobs make, OUT without an earlier run's
# verdict, and the fuzz budget in `budget`.
ci_prepare() {
  ci_need_binary
  ci_check_duration --time "$time"
  if [ -n "$runs" ] && ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then ci_fail "--runs '$runs': expected a positive number"; fi
  if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then ci_fail "--baseline $baseline: no such file"; fi
  mkdir -p "$out" || ci_fail "cannot create $out"
  rm -f "$out/baseline.txt" "$out/baseline.json" "$out/summary.md"  # from an earlier run in the same folder
  budget=(--time "$time")
  [ -n "$runs" ] && budget=(--runs "$runs")
  return 0
}

# ci_step NAME COMMAND...: runs the command, its output to the log, and remembers its exit status
# in CI_STEP_RC (also the function's status) for the caller to judge.
CI_STEPS=()
ci_step() {
  local name=$1
  shift
  ci_log "$name: $*"
  "$@"
  CI_STEP_RC=$?
  CI_STEPS+=("$name=$CI_STEP_RC")
  return "$CI_STEP_RC"
}

# ci_judge RUN: the job's verdict (0 or 1) in `verdict`, as crosscheck decided it (the scripts never
# decide it themselves). With a baseline it is `crosscheck baseline check`'s (only buckets the
# baseline does not list fail): the check goes to OUT/baseline.txt, to OUT/baseline.json, and into
# RUN/baseline-check.json and RUN/verdict.json, where every later `crosscheck report RUN` finds it, so
# that every report of the run gives the job's verdict. Without a baseline every contract divergence
# is new: the verdict fuzz or merge recorded in RUN/verdict.json (`crosscheck verdict RUN`); an
# earlier check recorded in RUN is removed, since it would mark buckets known.
ci_judge() {
  local run=$1
  if [ -n "$baseline" ]; then
    ci_step baseline "$CROSSCHECK" baseline check --baseline "$baseline" --json "$run/baseline-check.json" "$run" \
      >"$out/baseline.txt"
    cat "$out/baseline.txt"
    [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck baseline check failed (exit $CI_STEP_RC)" "$CI_STEP_RC"
    cp "$run/baseline-check.json" "$out/baseline.json" || ci_fail "cannot copy $run/baseline-check.json"
    verdict=$CI_STEP_RC
  else
    ci_log "no baseline: every contract divergence counts as new"
    rm -f "$run/baseline-check.json"
    ci_step verdict "$CROSSCHECK" verdict "$run"
    [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck verdict $run failed (exit $CI_STEP_RC)" "$CI_STEP_RC"
    verdict=$CI_STEP_RC
  fi
}

# ci_reports RUN: every report of RUN, sorted as ci_judge decided, into RUN/report/ (replacing the ones
# `crosscheck fuzz` wrote before the check) and a copy in OUT/reports/.
ci_reports() {
  local run=$1
  ci_step report "$CROSSCHECK" report "$run" || ci_fail "crosscheck report failed (exit $CI_STEP_RC)"
  mkdir -p "$out/reports" && cp "$run/report/"* "$out/reports/" || ci_fail "cannot copy the reports to $out/reports"
}

# ci_summary OUT_FILE TITLE VERDICT BASELINE_TXT REPORT_MD: the job's Markdown summary, the verdict
# and the baseline check first, then the report's summary (which marks the known buckets); appended to
# GitHub's step summary when the job runs there.
ci_summary() {
  local file=$1 title=$2 verdict=$3 baseline_txt=$4 report_md=$5
  {
    echo "## $title: $([ "$verdict" = 0 ] && echo "no new divergence" || echo "NEW DIVERGENCES")"
    echo
    if [ -f "$baseline_txt" ]; then
      echo "Baseline check (only new divergences fail the job):"
      echo
      echo '```'
      cat "$baseline_txt"
      echo '```'
    else
      echo "No baseline: every contract divergence counts as new."
    fi
    echo
    [ -f "$report_md" ] && cat "$report_md"
  } >"$file"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$file" >>"$GITHUB_STEP_SUMMARY"
  fi
}
