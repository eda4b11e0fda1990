#!/usr/bin/env bash
# main_job.sh BUILD_DIR: the README's main job as a newcomer meets it, on the fresh build: the fuzz
# command of `./setup main` (`./setup main-job`, the same function without install and build), 10 s on
# the default adapters that are available.
#  1. against the shipped baseline: exit 0, the verdict line says 0 new, the SDK divergences it found are
#     listed as known (never NEW or FAILED), and the run folder's own reports say passed;
#  2. --no-baseline keeps the strict verdict: no check recorded, every contract bucket fails, and the
#     exit status says so;
#  3. an unknown option exits 2.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export CROSSCHECK="$CC" CROSSCHECK_MAIN_TIME=${CROSSCHECK_MAIN_TIME:-10s}

# 1. With the shipped baseline (the default).
CROSSCHECK_MAIN_OUT="$OUT/main" "$ROOT/setup" main-job >"$OUT/main.log" 2>&1
rc=$?
check "main job: exit 0 (no new divergence)" "[ $rc = 0 ] || { tail -40 '$OUT/main.log'; false; }"
check "main job: python and rust took part (the SDKs the shipped baseline is about)" \
  "grep -Eq '^fuzzing .* on cpp,python,rust' '$OUT/main.log'"
check "main job: the verdict line says 0 new" \
  "grep -Eq '^baseline tests/data/baseline/known.json: [0-9]+ buckets: 0 new, ' '$OUT/main.log'"
check "main job: the known SDK divergences are listed as known" \
  "grep -Eq '^known: entry sdk-0\.10\.1-[a-z0-9-]+ \(' '$OUT/main.log' && python3 - '$OUT/main/baseline-check.json' <<'PY'
import json, sys
check = json.load(open(sys.argv[1]))
assert check['counts']['new'] == 0 and check['exitCode'] == 0, check['counts']
assert check['known'] and any(b['entries'] for b in check['known']), check['counts']
PY"
check "main job: nothing is called NEW or FAILED" "! grep -Eq '^NEW |FAILED' '$OUT/main.log'"
check "main job: the run folder's reports pass and show the known buckets as known" \
  "grep -q 'passed: no new contract divergence' '$OUT/main/report/summary.md' &&
   grep -q '\"known\":true' '$OUT/main/report/buckets.jsonl' && ! grep -q '\"fails\":true' '$OUT/main/report/buckets.jsonl'"

# 2. --no-baseline: today's strict verdict.
CROSSCHECK_MAIN_OUT="$OUT/strict" "$ROOT/setup" main-job --no-baseline >"$OUT/strict.log" 2>&1
rc=$?
check "main job --no-baseline: no baseline check, nothing known" \
  "[ ! -e '$OUT/strict/baseline-check.json' ] && ! grep -q '^known: entry' '$OUT/strict.log' && ! grep -q '\"known\":true' '$OUT/strict/report/buckets.jsonl'"
check "main job --no-baseline: exit 1 exactly when a contract bucket was found, and the reports fail it" "python3 - '$OUT/strict' $rc <<'PY'
import json, os, sys
folder, rc = sys.argv[1], int(sys.argv[2])
buckets = [json.loads(l) for l in open(os.path.join(folder, 'report', 'buckets.jsonl'))]
contract = [b for b in buckets if not b['implementationDefined']]
assert rc == (1 if contract else 0), (rc, len(contract))
assert all(b['fails'] for b in contract), contract[:1]
summary = open(os.path.join(folder, 'report', 'summary.md')).read()
assert ('FAILED' in summary) == bool(contract), summary[:300]
PY"

# 3. Usage.
"$ROOT/setup" main-job --bogus >"$OUT/usage.log" 2>&1
rc=$?
check "main job: an unknown option exits 2 naming it" "[ $rc = 2 ] && grep -q \"unknown option '--bogus'\" '$OUT/usage.log'"
finish
