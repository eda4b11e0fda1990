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
# Writes OUT/run/ (the fuzz folder: findings, corpus, coverage, events; with a baseline, the check in
# run/baseline-check.json, so that `crosscheck report OUT/run` sorts the buckets as the job did),
# OUT/summary.md (the verdict and the report summary, also the step summary), OUT/baseline.txt and
# OUT/baseline.json (new, known and stale buckets), OUT/reports/ (report.html, junit.xml, summary.md,
# buckets.jsonl; the same as run/report/). Exit status: 0 no new divergence, 1 new divergences,
# 2 usage, input or configuration error, 3 an adapter could not be started.
set -uo pipefail
# shellcheck source=ci/common.sh
. "$(dirname "$0")/common.sh"

ci_defaults
time=${CROSSCHECK_PR_TIME:-3m}
out=${CROSSCHECK_CI_OUT:-crosscheck-ci/pull-request}
seed=${CROSSCHECK_SEED:-1}
while [ $# -gt 0 ]; do
  ci_option "$@"
  if [ "$CI_SHIFT" -gt 0 ]; then shift "$CI_SHIFT"; continue; fi
  case $1 in
    --short) time=10s ;;
    *) ci_fail "ci/pull-request.sh: unknown option '$1' (see --help)" ;;
  esac
  shift
done
ci_prepare

ci_step adapters "$CROSSCHECK" adapters "${adapter_args[@]}"
# 0: no contract divergence; 1: divergences; anything else is an error that ends the job.
ci_step fuzz "$CROSSCHECK" fuzz "${budget[@]}" --seed "$seed" --out "$out/run" "${fuzz_args[@]}" \
  "${adapter_args[@]}"
[ "$CI_STEP_RC" -le 1 ] || ci_fail "crosscheck fuzz failed (exit $CI_STEP_RC): see its message above" "$CI_STEP_RC"
ci_judge "$out/run"
ci_reports "$out/run"
ci_summary "$out/summary.md" "crosscheck pull request" "$verdict" "$out/baseline.txt" "$out/reports/summary.md"

if [ "$verdict" = 0 ]; then
  ci_log "no new divergence (reports in $out/reports)"
else
  ci_log "NEW DIVERGENCES: see $out/reports/summary.md and $out/reports/report.html; each finding has its replay command"
fi
exit "$verdict"
