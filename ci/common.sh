# ci/common.sh: what ci/pull-request.sh and ci/nightly.sh share (sourced, not run): the binary,
# logging, running a step with its exit status kept, and the step summary.
# shellcheck shell=bash

CI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CROSSCHECK=${CROSSCHECK:-$CI_ROOT/build/crosscheck}

ci_log() { printf '==> %s\n' "$*" >&2; }
ci_fail() { printf 'ERROR: %s\n' "$*" >&2; exit "${2:-2}"; }

ci_need_binary() {
  [ -x "$CROSSCHECK" ] || ci_fail "$CROSSCHECK is not there: build first (./setup build) or set CROSSCHECK"
}

# A duration of crosscheck fuzz --time: 30, 30s, 5m, 1h, 1h30m (fuzz itself gives the full message).
ci_check_duration() {
  [[ $2 =~ ^([0-9]+h)?([0-9]+m)?([0-9]+(\.[0-9]+)?s?)?$ && -n $2 ]] ||
    ci_fail "$1 '$2': expected a duration such as 30s, 5m, 1h or 1h30m"
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
