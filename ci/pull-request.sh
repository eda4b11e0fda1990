#!/usr/bin/env bash
# ci/pull-request.sh: the pull-request job. A short differential fuzz run on the default adapters with
# a fixed seed (the same inputs on every pull request), judged against the known-divergence baseline:
# it fails only on divergences the baseline does not list. Writes the reports either way.
#
# Usage: ci/pull-request.sh [options] [-- ADAPTER OPTIONS]
#   --time D         fuzz time (default $CROSSCHECK_PR_TIME or 3m)
#   --runs N         a number of inputs instead of a time (reproducible to the input)
#   --short          10 s (what tests/integration/ci_scripts.sh runs)
#   --out DIR        output folder (default $CROSSCHECK_CI_OUT or crosscheck-ci/pull-request)
#   --baseline FILE  known divergences (default $CROSSCHECK_BASELINE or the shipped baseline)
#   --no-baseline    judge every divergence as new
#   --seed N         run seed (default $CROSSCHECK_SEED or 1)
#   --fuzz-arg ARG   one more argument for crosscheck fuzz (repeatable; also $CROSSCHECK_FUZZ_ARGS)
#   -- ...           adapter options for every command: --adapters, --adapter NAME=CMD, --jobs, --schema
# The binary is $CROSSCHECK (default build/crosscheck). On GitHub the Markdown summary goes to
# $GITHUB_STEP_SUMMARY. The shipped baseline is tests/data/baseline/known.json when it exists.
#
# Writes OUT/run/ (the fuzz folder: findings, corpus, coverage, events), OUT/summary.md (the verdict
# and the report summary, also the step summary), OUT/baseline.txt and
# OUT/baseline.json (new, known and stale buckets), OUT/reports/ (report.html, junit.xml, summary.md,
# buckets.jsonl). Exit status: 0 no new divergence, 1 new divergences,
# 2 usage, input or configuration error, 3 an adapter could not be started.
set -uo pipefail
# shellcheck source=ci/common.sh
. "$(dirname "$0")/common.sh"

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }

time=${CROSSCHECK_PR_TIME:-3m}
runs=""
out=${CROSSCHECK_CI_OUT:-crosscheck-ci/pull-request}
shipped_baseline=$CI_ROOT/tests/data/baseline/known.json
baseline=${CROSSCHECK_BASELINE-}
[ -z "${CROSSCHECK_BASELINE+set}" ] && [ -f "$shipped_baseline" ] && baseline=$shipped_baseline
seed=${CROSSCHECK_SEED:-1}
read -ra fuzz_args <<<"${CROSSCHECK_FUZZ_ARGS:-}"
adapter_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) time=${2:?--time needs a duration}; shift ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --short) time=10s ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    --baseline) baseline=${2:?--baseline needs a file}; shift ;;
    --no-baseline) baseline="" ;;
    --seed) seed=${2:?--seed needs a number}; shift ;;
    --fuzz-arg) fuzz_args+=("${2:?--fuzz-arg needs an argument}"); shift ;;
    --) shift; adapter_args=("$@"); break ;;
    -h | --help) usage; exit 0 ;;
    *) ci_fail "ci/pull-request.sh: unknown option '$1' (see --help)" ;;
  esac
  shift
done
ci_need_binary
ci_check_duration --time "$time"
if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then ci_fail "--baseline $baseline: no such file"; fi
mkdir -p "$out" || ci_fail "cannot create $out"
rm -f "$out/baseline.txt" "$out/baseline.json" "$out/summary.md"  # from an earlier run in the same folder

budget=(--time "$time")
known=()  # the report marks the baseline's buckets as known
[ -n "$baseline" ] && known=(--baseline "$baseline")
[ -n "$runs" ] && budget=(--runs "$runs")

ci_step adapters "$CROSSCHECK" adapters "${adapter_args[@]}"
# 0: no contract divergence; 1: divergences; anything else is an error that ends the job.
ci_step fuzz "$CROSSCHECK" fuzz "${budget[@]}" --seed "$seed" --out "$out/run" "${fuzz_args[@]}" \
  "${adapter_args[@]}"
verdict=$CI_STEP_RC
[ "$verdict" -le 1 ] || ci_fail "crosscheck fuzz failed (exit $verdict): see its message above" "$verdict"
if [ -n "$baseline" ]; then
  # With a baseline, the verdict is its check: 1 only for buckets it does not list.
  ci_step baseline "$CROSSCHECK" baseline check --baseline "$baseline" --json "$out/baseline.json" "$out/run" \
    >"$out/baseline.txt"
  cat "$out/baseline.txt"
  [ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck baseline check failed (exit $CI_STEP_RC)" "$CI_STEP_RC"
  verdict=$CI_STEP_RC
else
  ci_log "no baseline: every contract divergence counts as new"
fi
ci_step report "$CROSSCHECK" report "${known[@]}" "$out/run" --out "$out/reports" ||
  ci_fail "crosscheck report failed (exit $CI_STEP_RC)"
ci_summary "$out/summary.md" "crosscheck pull request" "$verdict" "$out/baseline.txt" "$out/reports/summary.md"

if [ "$verdict" = 0 ]; then
  ci_log "no new divergence (reports in $out/reports)"
else
  ci_log "NEW DIVERGENCES: see $out/reports/summary.md and $out/reports/report.html; each finding has its replay command"
fi
exit "$verdict"
