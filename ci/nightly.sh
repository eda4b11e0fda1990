#!/usr/bin/env bash
# ci/nightly.sh: the nightly job. A long differential fuzz run (several processes per adapter), the
# findings minimized, sorted against the known-divergence baseline (new, known, stale), every report,
# and matrix case candidates from the minimized findings. On one machine, or fanned out:
#
#   ci/nightly.sh [run] [options] [-- ADAPTER OPTIONS]       everything on this machine
#   ci/nightly.sh shard --shard I/N [options] [-- ...]       one shard of the night: the fuzz run
#   ci/nightly.sh finish [options] DIR... [-- ...]           merge the shards' folders, then the rest
#
# Options (environment defaults in brackets):
#   --time D          fuzz time [CROSSCHECK_NIGHTLY_TIME, 1h]
#   --runs N          a number of inputs instead of a time
#   --short           10 s and a small reduction budget (what tests/integration/ci_scripts.sh runs)
#   --jobs N          processes per adapter [CROSSCHECK_JOBS, the number of cores]
#   --seed N          run seed [CROSSCHECK_SEED, today's date as YYYYMMDD: every shard of a night
#                     must get the same one, so a fanned-out workflow computes it once]
#   --shard I/N       this machine's shard [CROSSCHECK_SHARD]
#   --out DIR         output folder [CROSSCHECK_CI_OUT, crosscheck-ci/nightly]
#   --baseline FILE   known divergences [CROSSCHECK_BASELINE, the shipped baseline]; --no-baseline
#   --reduce-budget N adapter calls for the whole reduction [CROSSCHECK_REDUCE_BUDGET, 20000]
#   --fuzz-arg ARG    one more argument for crosscheck fuzz (repeatable; also $CROSSCHECK_FUZZ_ARGS)
#   -- ...            adapter options for every command: --adapters, --adapter NAME=CMD, --schema
#
# Writes into OUT: run/ (the fuzz folder; in `finish`, the merge of the shards), shard-I/ (in `shard`),
# reports/ (report.html, junit.xml, summary.md, buckets.jsonl), baseline.txt and baseline.json (new,
# known and stale buckets; with a baseline),
# matrix-candidates.json and matrix-candidates.review.json (structural-acceptance cases from the
# minimized findings, and the ones where an SDK disagrees with the C++ decoder, for a person to review;
# `crosscheck matrix seed --merge` adds them to a matrix without duplicates). On GitHub the Markdown
# summary goes to $GITHUB_STEP_SUMMARY. Exit status: 0 no new divergence, 1 new divergences,
# 2 usage, input or configuration error, 3 an adapter could not be started.
set -uo pipefail
# shellcheck source=ci/common.sh
. "$(dirname "$0")/common.sh"

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }

mode=run
case ${1:-} in run | shard | finish) mode=$1; shift ;; esac
time=${CROSSCHECK_NIGHTLY_TIME:-1h}
runs=""
jobs=${CROSSCHECK_JOBS:-$(nproc)}
seed=${CROSSCHECK_SEED:-$(date -u +%Y%m%d)}
shard=${CROSSCHECK_SHARD:-}
out=${CROSSCHECK_CI_OUT:-crosscheck-ci/nightly}
shipped_baseline=$CI_ROOT/tests/data/baseline/known.json
baseline=${CROSSCHECK_BASELINE-}
[ -z "${CROSSCHECK_BASELINE+set}" ] && [ -f "$shipped_baseline" ] && baseline=$shipped_baseline
reduce_budget=${CROSSCHECK_REDUCE_BUDGET:-20000}
read -ra fuzz_args <<<"${CROSSCHECK_FUZZ_ARGS:-}"
adapter_args=()
dirs=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) time=${2:?--time needs a duration}; shift ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --short) time=10s; reduce_budget=1000 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift ;;
    --shard) shard=${2:?--shard needs I/N}; shift ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    --baseline) baseline=${2:?--baseline needs a file}; shift ;;
    --no-baseline) baseline="" ;;
    --reduce-budget) reduce_budget=${2:?--reduce-budget needs a number}; shift ;;
    --fuzz-arg) fuzz_args+=("${2:?--fuzz-arg needs an argument}"); shift ;;
    --) shift; adapter_args=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    -*) ci_fail "ci/nightly.sh: unknown option '$1' (see --help)" ;;
    *) [ "$mode" = finish ] || ci_fail "ci/nightly.sh $mode: unexpected argument '$1' (folders go with finish)"
       dirs+=("$1") ;;
  esac
  shift
done
ci_need_binary
ci_check_duration --time "$time"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || ci_fail "--jobs '$jobs': expected a positive number"
if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then ci_fail "--baseline $baseline: no such file"; fi
case $mode in
  shard) [ -n "$shard" ] || ci_fail "ci/nightly.sh shard: say which shard with --shard I/N (or CROSSCHECK_SHARD)" ;;
  finish) [ ${#dirs[@]} -gt 0 ] || ci_fail "ci/nightly.sh finish: name the shards' folders" ;;
esac
mkdir -p "$out" || ci_fail "cannot create $out"
rm -f "$out/baseline.txt" "$out/baseline.json" "$out/summary.md"  # from an earlier run in the same folder

budget=(--time "$time")
known=()  # the report marks the baseline's buckets as known
[ -n "$baseline" ] && known=(--baseline "$baseline")
[ -n "$runs" ] && budget=(--runs "$runs")

# Fuzz into $1 (a shard when --shard is given); 0 and 1 are verdicts, anything else ends the job.
fuzz_into() {
  local sharding=()
  [ -n "$shard" ] && sharding=(--shard "$shard")
  ci_step fuzz "$CROSSCHECK" fuzz "${budget[@]}" --jobs "$jobs" --seed "$seed" "${sharding[@]}" --out "$1" \
    "${fuzz_args[@]}" "${adapter_args[@]}"
  [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck fuzz failed (exit $CI_STEP_RC): see its message above" "$CI_STEP_RC"
}

# Minimize one finding per bucket that has none minimized yet (crosscheck reduce RUN_DIR; the original
# stays beside its .min.json). `crosscheck fuzz` already reduces at the end of a run on one machine
# with a small budget of its own; this finishes the job, and does it all for a merged night (a shard
# does not reduce: the same bucket would be minimized on every machine).
reduce_findings() {
  ci_step reduce "$CROSSCHECK" reduce "$1" --budget "$reduce_budget" --jobs "$jobs" "${adapter_args[@]}"
  [ "$CI_STEP_RC" = 0 ] || ci_fail "crosscheck reduce $1 failed (exit $CI_STEP_RC)" "$CI_STEP_RC"
}

# Baseline sorting, reports, matrix candidates, step summary; sets verdict (0 or 1).
finish_run() {
  local run=$1
  verdict=0
  if [ -n "$baseline" ]; then
    ci_step baseline "$CROSSCHECK" baseline check --baseline "$baseline" --json "$out/baseline.json" "$run" \
      >"$out/baseline.txt"
    cat "$out/baseline.txt"
    [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck baseline check failed (exit $CI_STEP_RC)" "$CI_STEP_RC"
    verdict=$CI_STEP_RC
  else
    # Without a baseline every contract divergence is new: the run's own verdict.
    verdict=$(python3 -c 'import json,sys; print(1 if json.load(open(sys.argv[1])).get("exitCode", 0) else 0)' \
      "$run/summary.json") || ci_fail "$run/summary.json cannot be read"
  fi
  ci_step report "$CROSSCHECK" report "${known[@]}" "$run" --out "$out/reports" ||
    ci_fail "crosscheck report failed (exit $CI_STEP_RC)"
  ci_step matrix-seed "$CROSSCHECK" matrix seed --findings "$run/findings" --out "$out/matrix-candidates.json"
  [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck matrix seed failed (exit $CI_STEP_RC)"
  ci_summary "$out/summary.md" "crosscheck nightly" "$verdict" "$out/baseline.txt" "$out/reports/summary.md"
}

case $mode in
  run)
    fuzz_into "$out/run"
    reduce_findings "$out/run"
    finish_run "$out/run"
    ;;
  shard)
    folder="$out/shard-${shard%%/*}"
    fuzz_into "$folder"
    ci_log "shard $shard done: $folder (join the shards with: ci/nightly.sh finish DIR...)"
    exit 0
    ;;
  finish)
    ci_step merge "$CROSSCHECK" merge "$out/run" "${dirs[@]}" || ci_fail "crosscheck merge failed (exit $CI_STEP_RC)"
    reduce_findings "$out/run"
    finish_run "$out/run"
    ;;
esac
if [ "$verdict" = 0 ]; then
  ci_log "no new divergence (reports in $out/reports)"
else
  ci_log "NEW DIVERGENCES: see $out/reports/summary.md and $out/reports/report.html"
fi
exit "$verdict"
