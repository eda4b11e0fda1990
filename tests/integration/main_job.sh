#!/usr/bin/env bash
# main_job.sh BUILD_DIR: the README's main job as a newcomer meets it, on the fresh build: the fuzz
# command of `./setup main` (`./setup main-job`, the same function without install and build), 10 s on
# the default adapters that are available.
#  1. against the shipped baseline: exit 0; the whole output (crosscheck adapters, then fuzz) fits one
#     screen (40 lines); it ends with the story: the verdict first (passed, 0 new failing), a line per
#     layer, then the reports and the run folder; the known and implementation-defined buckets are
#     counted, never listed, and nothing that does not fail is called new; the run folder's own
#     reports say passed and list every bucket;
#  2. the same folder resumed with --verbose lists every implementation-defined and known bucket, and
#     crosscheck adapters --verbose has the full closure table; an unknown flag is exit 2 as before;
#  3. --no-baseline keeps the strict verdict: no check recorded, every contract bucket fails, and the
#     exit status says so;
#  4. an unknown option exits 2.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export CROSSCHECK="$CC" CROSSCHECK_MAIN_TIME=${CROSSCHECK_MAIN_TIME:-10s}
KNOWN=tests/data/baseline/known.json

# 1. With the shipped baseline (the default).
CROSSCHECK_MAIN_OUT="$OUT/main" "$ROOT/setup" main-job >"$OUT/main.log" 2>&1
rc=$?
check "main job: exit 0 (no new divergence)" "[ $rc = 0 ] || { tail -40 '$OUT/main.log'; false; }"
check "main job: python and rust took part (the SDKs the shipped baseline is about)" \
  "grep -Eq '^fuzzing .* on cpp,python,rust' '$OUT/main.log'"
lines=$(wc -l <"$OUT/main.log")
check "main job: at most 40 lines, crosscheck adapters included (got $lines)" \
  "[ $lines -le 40 ] || cat '$OUT/main.log'"
check "main job: the story comes last, the verdict first: passed, then a line per layer, the reports, the run folder" \
  "python3 - '$OUT/main.log' '$OUT/main' '$KNOWN' <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
folder, known = sys.argv[2], sys.argv[3]
first = [i for i, l in enumerate(lines) if re.match(r'^(passed|FAILED)', l)]
assert len(first) == 1, first
v = first[0]
assert lines[v].startswith('passed: no new failing bucket against ' + known), lines[v]
layers = lines[v + 1:v + 4]
assert re.match(r'^  structural: [0-9]+ inputs, [0-9]+ buckets?: 0 new failing, [0-9]+ known, [0-9]+ implementation-defined \(not failing\)', layers[0]), layers
assert re.match(r'^  canonical: [0-9]+ inputs, ', layers[1]), layers
assert re.match(r'^  contextual: [0-9]+ scenario rows, ', layers[2]), layers
assert lines[-2].startswith('reports: ' + folder + '/report/report.html'), lines[-2:]
assert lines[-1].startswith('run folder: ' + folder), lines[-1]
PY"
check "main job: the known and implementation-defined buckets are counted, not listed; 'new' only for what fails" \
  "python3 - '$OUT/main.log' '$OUT/main' <<'PY'
import json, os, sys
log = open(sys.argv[1]).read()
buckets = [json.loads(l) for l in open(os.path.join(sys.argv[2], 'report', 'buckets.jsonl'))]
quiet = [b['bucket'] for b in buckets if not b['fails']]
assert quiet, 'a 10 s run meets known SDK divergences'
assert not [b for b in quiet if b in log], [b for b in quiet if b in log]
assert 'new impl' not in log and 'new implementation-defined' not in log
PY"
check "main job: the known SDK divergences are known to the check" "python3 - '$OUT/main/baseline-check.json' <<'PY'
import json, sys
check = json.load(open(sys.argv[1]))
assert check['counts']['new'] == 0 and check['exitCode'] == 0, check['counts']
assert check['known'] and any(b['entries'] for b in check['known']), check['counts']
PY"
check "main job: nothing is called NEW or FAILED" "! grep -Eq '^NEW |FAILED' '$OUT/main.log'"
check "main job: the run folder's reports pass and show the known buckets as known" \
  "grep -q 'passed: no new contract divergence' '$OUT/main/report/summary.md' &&
   grep -q '\"known\":true' '$OUT/main/report/buckets.jsonl' && ! grep -q '\"fails\":true' '$OUT/main/report/buckets.jsonl'"

# 2. --verbose on the same inputs: the same folder resumed (no new input at layers 1 and 2, one batch at
# layer 3) lists every bucket the quiet story only counted.
(cd "$ROOT" && "$CC" fuzz --runs 1 --scenario-batches 1 --seeds corpus/examples --baseline "$KNOWN" --reduce-budget 0 \
  --verbose --out "$OUT/main") >"$OUT/verbose.log" 2>&1
rc=$?
check "fuzz --verbose: the resumed folder passes again (exit $rc)" "[ $rc = 0 ] && grep -q '^passed: ' '$OUT/verbose.log'"
check "fuzz --verbose: every implementation-defined and known bucket is listed, with the tables" \
  "grep -q 'divergences per root' '$OUT/verbose.log' && python3 - '$OUT/verbose.log' '$OUT/main' <<'PY'
import json, os, sys
log = open(sys.argv[1]).read()
buckets = [json.loads(l) for l in open(os.path.join(sys.argv[2], 'report', 'buckets.jsonl'))]
quiet = [b['bucket'] for b in buckets if not b['fails']]
assert quiet and all(b in log for b in quiet), [b for b in quiet if b not in log]
PY"
(cd "$ROOT" && "$CC" adapters --verbose) >"$OUT/adapters.log" 2>&1
rc=$?
check "adapters --verbose: the closure table of every root (exit $rc)" \
  "[ $rc = 0 ] && grep -q '^schema closure per root (same hash' '$OUT/adapters.log' && grep -q '^effect ' '$OUT/adapters.log'"
"$CC" fuzz --verbos --runs 1 --adapters cpp --out "$OUT/typo" >"$OUT/typo.log" 2>&1
rc=$?
check "fuzz with an unknown flag: exit 2, nothing run (got $rc)" "[ $rc = 2 ] && [ ! -e '$OUT/typo' ]"

# 3. --no-baseline: today's strict verdict.
CROSSCHECK_MAIN_OUT="$OUT/strict" "$ROOT/setup" main-job --no-baseline >"$OUT/strict.log" 2>&1
rc=$?
check "main job --no-baseline: no baseline check, nothing known" \
  "[ ! -e '$OUT/strict/baseline-check.json' ] && ! grep -Eq '[0-9]+ known' '$OUT/strict.log' && ! grep -q '\"known\":true' '$OUT/strict/report/buckets.jsonl'"
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
check "main job --no-baseline: the failing buckets are listed one line each with their replay" "python3 - '$OUT/strict' '$OUT/strict.log' <<'PY'
import json, os, re, sys
buckets = [json.loads(l) for l in open(os.path.join(sys.argv[1], 'report', 'buckets.jsonl'))]
failing = {b['bucket'] for b in buckets if b['fails']}
log = open(sys.argv[2]).read()
listed = re.findall(r'^  \S+ \[([0-9a-f]+)\] .*: crosscheck replay ', log, re.M)
assert set(listed) <= failing and len(listed) == len(set(listed)) == min(20, len(failing)), (listed, failing)
assert (len(failing) > 20) == ('... and %d more' % (len(failing) - 20) in log)
PY"

# 4. Usage.
"$ROOT/setup" main-job --bogus >"$OUT/usage.log" 2>&1
rc=$?
check "main job: an unknown option exits 2 naming it" "[ $rc = 2 ] && grep -q \"unknown option '--bogus'\" '$OUT/usage.log'"
finish
