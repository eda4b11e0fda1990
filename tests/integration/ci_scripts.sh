#!/usr/bin/env bash
# ci_scripts.sh BUILD_DIR: ci/pull-request.sh and ci/nightly.sh end to end in their short mode, on the
# in-process cpp adapter against a faulty proxy of it (it drops warnings), so there are divergences
# to judge. Every step must leave its output: a script that skips one fails here.
#  1. pull request without a baseline: exit 1, the four reports, the summary (also the step summary);
#  2. pull request with a baseline that lists those buckets: exit 0, "0 new", and every report of the
#     run (its own, OUT/reports, a later `crosscheck report`) gives that verdict;
#  3. nightly on one machine: exit 1, every bucket minimized, reports, matrix candidates;
#  4. nightly fanned out: two shards, then finish (merge, reduction, reports, candidates);
#  5. usage errors exit 2.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export CROSSCHECK="$CC"
PROXY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault drop-warnings -- $CROSSCHECK serve-adapter"
ADAPTERS=(--adapters cpp --adapter "faulty=$PROXY")
# Deterministic runs of a fixed number of inputs: the second pull request sees a subset of the first's.
FIXED=(--runs 500 --seed 3 --fuzz-arg --deterministic)
unset CROSSCHECK_BASELINE CROSSCHECK_SEED CROSSCHECK_SHARD CROSSCHECK_FUZZ_ARGS

reports_ok() {  # the four reports of a folder, with real content
  [ -s "$1/report.html" ] && grep -q '<testcase' "$1/junit.xml" && [ -s "$1/summary.md" ] &&
    [ "$(wc -l <"$1/buckets.jsonl")" -ge 1 ]
}

# 1. Pull request, no baseline.
export GITHUB_STEP_SUMMARY="$OUT/step-summary.md"
"$ROOT/ci/pull-request.sh" --short --no-baseline "${FIXED[@]}" --out "$OUT/pr1" -- "${ADAPTERS[@]}" >"$OUT/pr1.log" 2>&1
check "pull request without a baseline: exit 1 on the seeded fault" "[ $? = 1 ]"
check "pull request: the fuzz folder has findings" "ls '$OUT'/pr1/run/findings/diverge-*.json >/dev/null 2>&1"
check "pull request: report.html, junit.xml, summary.md, buckets.jsonl" "reports_ok '$OUT/pr1/reports'"
check "pull request: the summary says NEW DIVERGENCES and is the step summary" \
  "grep -q '^## crosscheck pull request: NEW DIVERGENCES' '$OUT/pr1/summary.md' && cmp -s '$OUT/pr1/summary.md' '$GITHUB_STEP_SUMMARY'"

# 2. The same pull request with a baseline listing those buckets passes.
"$CROSSCHECK" baseline update --baseline "$OUT/known.json" "$OUT/pr1/run" >"$OUT/update.log" 2>&1
check "baseline update lists the run's buckets" "[ $? = 0 ] && grep -q '\"entries\"' '$OUT/known.json'"
"$ROOT/ci/pull-request.sh" --short --baseline "$OUT/known.json" "${FIXED[@]}" --out "$OUT/pr2" -- "${ADAPTERS[@]}" \
  >"$OUT/pr2.log" 2>&1
check "pull request with the baseline: exit 0 (known divergences only)" "[ $? = 0 ]"
check "pull request with the baseline: the check says 0 new failing" "grep -q ' 0 new failing,' '$OUT/pr2/baseline.txt' && [ -s '$OUT/pr2/baseline.json' ]"
check "pull request with the baseline: the summary says no new divergence" \
  "grep -q '^## crosscheck pull request: no new divergence' '$OUT/pr2/summary.md'"
# Every report of the run gives the job's verdict: the run folder records the check, so its own reports
# and a later `crosscheck report` of it sort the buckets as the job did.
check "pull request with the baseline: the run folder's reports pass too, and equal OUT/reports" \
  "[ -s '$OUT/pr2/run/baseline-check.json' ] && grep -q 'passed: no new contract divergence' '$OUT/pr2/run/report/summary.md' && diff -r '$OUT/pr2/run/report' '$OUT/pr2/reports' >/dev/null"
"$CROSSCHECK" report "$OUT/pr2/run" --out "$OUT/pr2-again" >"$OUT/pr2-again.log" 2>&1
check "pull request with the baseline: a later crosscheck report of the run passes (the known buckets stay known)" \
  "grep -q 'passed: no new contract divergence' '$OUT/pr2-again.log' && grep -q 'failures=\"0\"' '$OUT/pr2-again/junit.xml'"
check "pull request without a baseline: the run folder's reports fail, as the job did" \
  "[ ! -e '$OUT/pr1/run/baseline-check.json' ] && grep -q 'FAILED' '$OUT/pr1/run/report/summary.md'"

# 3. Nightly on one machine.
unset GITHUB_STEP_SUMMARY
"$ROOT/ci/nightly.sh" run --short --no-baseline --jobs 1 "${FIXED[@]}" --out "$OUT/n1" -- "${ADAPTERS[@]}" >"$OUT/n1.log" 2>&1
check "nightly: exit 1 (new divergences)" "[ $? = 1 ]"
every_bucket_minimized() {  # each bucket of the run's findings has a finding with a .min.json beside it
  python3 - "$1/findings" <<'PY'
import glob, json, os, sys
buckets, minimized = set(), set()
for f in glob.glob(sys.argv[1] + '/*.json'):
    if f.endswith('.min.json'):
        continue
    b = {d['bucket'] for d in json.load(open(f))['divergences']}
    buckets |= b
    if os.path.exists(f[:-5] + '.min.json'):
        minimized |= b
sys.exit(0 if buckets and buckets <= minimized else 1)
PY
}
check "nightly: every bucket has a minimized finding" "every_bucket_minimized '$OUT/n1/run'"
check "nightly: the four reports" "reports_ok '$OUT/n1/reports'"
check "nightly: matrix candidates written" "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$OUT/n1/matrix-candidates.json'"
check "nightly: summary" "grep -q '^## crosscheck nightly: NEW DIVERGENCES' '$OUT/n1/summary.md'"

# 4. Nightly fanned out over two shards of one seed, then finished on a third "machine".
for i in 0 1; do
  CROSSCHECK_SHARD=$i/2 "$ROOT/ci/nightly.sh" shard --short --no-baseline --jobs 1 "${FIXED[@]}" --out "$OUT/night" \
    -- "${ADAPTERS[@]}" >"$OUT/shard$i.log" 2>&1
  check "nightly shard $i/2: exit 0, its folder records the shard" "[ $? = 0 ] && grep -q '\"shard\":\"$i/2\"' '$OUT/night/shard-$i/run.json'"
done
"$ROOT/ci/nightly.sh" finish --no-baseline --out "$OUT/night" "$OUT/night/shard-0" "$OUT/night/shard-1" \
  -- "${ADAPTERS[@]}" >"$OUT/finish.log" 2>&1
check "nightly finish: exit 1 (new divergences)" "[ $? = 1 ]"
check "nightly finish: the merged run holds both shards" "grep -q '\"runs\": 2' '$OUT/night/run/summary.json'"
check "nightly shards are not reduced (the merged night is)" "! ls '$OUT'/night/shard-*/findings/*.min.json >/dev/null 2>&1"
check "nightly finish: every bucket of the merged night has a minimized finding" "every_bucket_minimized '$OUT/night/run'"
check "nightly finish: the four reports and matrix candidates" \
  "reports_ok '$OUT/night/reports' && [ -s '$OUT/night/matrix-candidates.json' ]"

# 5. Usage errors.
"$ROOT/ci/pull-request.sh" --time 5parsecs >"$OUT/u1.log" 2>&1
check "pull request --time 5parsecs: exit 2" "[ $? = 2 ] && grep -q 'expected a duration' '$OUT/u1.log'"
"$ROOT/ci/pull-request.sh" --baseline "$OUT/missing.json" >"$OUT/u2.log" 2>&1
check "pull request with a missing baseline file: exit 2" "[ $? = 2 ] && grep -q 'missing.json: no such file' '$OUT/u2.log'"
"$ROOT/ci/nightly.sh" shard --out "$OUT/u3" >"$OUT/u3.log" 2>&1
check "nightly shard without --shard: exit 2" "[ $? = 2 ] && grep -q 'say which shard' '$OUT/u3.log'"
"$ROOT/ci/nightly.sh" finish --out "$OUT/u4" >"$OUT/u4.log" 2>&1
check "nightly finish without folders: exit 2" "[ $? = 2 ]"
"$ROOT/ci/nightly.sh" --frobnicate >"$OUT/u5.log" 2>&1
check "nightly unknown option: exit 2" "[ $? = 2 ] && grep -q \"unknown option '--frobnicate'\" '$OUT/u5.log'"
"$ROOT/ci/pull-request.sh" --out >"$OUT/u6.log" 2>&1
check "pull request --out without a folder: exit 2" "[ $? = 2 ] && grep -q -- '--out needs a value' '$OUT/u6.log'"
"$ROOT/ci/nightly.sh" shard --shard >"$OUT/u7.log" 2>&1
check "nightly --shard without I/N: exit 2" "[ $? = 2 ] && grep -q -- '--shard needs a value' '$OUT/u7.log'"

finish
