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
# Writes into OUT: run/ (the fuzz folder; in `finish`, the merge of the shards; with a baseline, the
# check in run/baseline-check.json, so that `crosscheck report OUT/run` sorts the buckets as the job
# did), shard-I/ (in `shard`), reports/ (report.html, junit.xml, summary.md, buckets.jsonl; the same
# as run/report/), baseline.txt and baseline.json (new, known and stale buckets; with a baseline),
# matrix-candidates.json and matrix-candidates.review.json (structural-acceptance cases from the
# minimized findings, and the ones where an SDK disagrees with the C++ decoder, for a person to review;
# `crosscheck matrix seed --merge` adds them to a matrix without duplicates). On GitHub the Markdown
# summary goes to $GITHUB_STEP_SUMMARY. Exit status: 0 no new divergence, 1 new divergences,
# 2 usage, input or configuration error, 3 an adapter could not be started.
set -uo pipefail
# shellcheck source=ci/common.sh
. "$(dirname "$0")/common.sh"

mode=run
case ${1:-} in run | shard | finish) mode=$1; shift ;; esac
ci_defaults
time=${CROSSCHECK_NIGHTLY_TIME:-1h}
jobs=${CROSSCHECK_JOBS:-$(nproc)}
seed=${CROSSCHECK_SEED:-$(date -u +%Y%m%d)}
shard=${CROSSCHECK_SHARD:-}
out=${CROSSCHECK_CI_OUT:-crosscheck-ci/nightly}
reduce_budget=${CROSSCHECK_REDUCE_BUDGET:-20000}
dirs=()
while [ $# -gt 0 ]; do
  ci_option "$@"
  if [ "$CI_SHIFT" -gt 0 ]; then shift "$CI_SHIFT"; continue; fi
  case $1 in
    --short) time=10s; reduce_budget=1000 ;;
    --jobs) ci_need_value "$@"; jobs=$2; shift ;;
    --shard) ci_need_value "$@"; shard=$2; shift ;;
    --reduce-budget) ci_need_value "$@"; reduce_budget=$2; shift ;;
    -*) ci_fail "ci/nightly.sh: unknown option '$1' (see --help)" ;;
    *) [ "$mode" = finish ] || ci_fail "ci/nightly.sh $mode: unexpected argument '$1' (folders go with finish)"
       dirs+=("$1") ;;
  esac
  shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || ci_fail "--jobs '$jobs': expected a positive number"
[[ $reduce_budget =~ ^[0-9]+$ ]] || ci_fail "--reduce-budget '$reduce_budget': expected a number of adapter calls"
case $mode in
  shard) [ -n "$shard" ] || ci_fail "ci/nightly.sh shard: say which shard with --shard I/N (or CROSSCHECK_SHARD)" ;;
  finish) [ ${#dirs[@]} -gt 0 ] || ci_fail "ci/nightly.sh finish: name the shards' folders" ;;
esac
ci_prepare

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

# Baseline sorting (recorded in the run folder), reports, matrix candidates, step summary; sets
# verdict (0 or 1).
finish_run() {
  local run=$1
  ci_judge "$run"
  ci_reports "$run"
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
