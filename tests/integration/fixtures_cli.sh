#!/usr/bin/env bash
# fixtures_cli.sh BUILD_DIR: `crosscheck fixtures run` end to end with the real binary, the C++
# reference and the Python SDK (0.10.1, .venv) on tests/data/fixtures/upstream-layout (the upstream
# repository's layout: fixtures/draft/manifest.json, paths from the repository root):
#  1. the printed table and --json: every case as expected on cpp; on python one real SDK fault
#     (Validator.validate raises AttributeError on a line that is a bare JSON string) and nothing else;
#  2. --baseline: that cell known (exit 0); an entry for a passing case is stale (exit 1);
#  3. a wrong expectation fails in the right check (exit 1);
#  3b. the layer invariant: a planted structural fault (an integral decimal rejected in an integer
#     slot) behind the reference's canonical answer fails the layers check of that implementation only;
#     an adapter without the canonical layer is left out with a line saying so;
#  4. skew: a checkout whose schema folder differs from the bundle in one document; the cases reaching
#     it are skew, the others compared (the folder is made from the installed bundle in a temporary
#     folder, never committed);
#  5. bad input, exit 2 naming the file, case and pointer: no manifest, malformed manifest, a missing
#     file, a sha256 mismatch; nothing is run. An adapter that cannot start: exit 3.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
SRC="$ROOT/tests/data/fixtures/upstream-layout"
DIR="$SRC/fixtures/draft"
PY="$ROOT/.venv/bin/python"
BUNDLE=$("$PY" -c 'import agenthooksprotocol, os; print(os.path.join(os.path.dirname(agenthooksprotocol.__file__), "schemas.json"))')

# 1. cpp and python.
"$CC" fixtures run --adapters cpp,python --json "$OUT/r1.json" "$DIR" >"$OUT/r1.log" 2>&1
rc=$?
check "the Python SDK's fault fails the run (exit 1)" "[ $rc = 1 ]"
check "the table has a row per case and a column per implementation" \
  "grep -Eq '^stdio.intercept-requests.valid +pass +pass +ok' '$OUT/r1.log' && [ \$(grep -Ec '^(stdio|http|registration)\.' '$OUT/r1.log') = 9 ]"
check "the failing cell names the line and the SDK's error" \
  "grep -Eq '^stdio.intercept-request-pretty.invalid +pass +FAIL +FAIL' '$OUT/r1.log' && grep -q \"intercept-request-pretty.invalid \[python\]: schema (intercept-request): line [0-9]*: error: AttributeError: 'str' object has no attribute 'get'\" '$OUT/r1.log'"
check "the counts" "grep -q '^cpp: 9 passed, 0 failed$' '$OUT/r1.log' && grep -q '^python: 8 passed, 1 failed$' '$OUT/r1.log'"
check "the schema snapshot is said (no schema folder beside the fixtures: the default schema)" \
  "grep -q '^schema snapshot: .*(default schema: .*schema/draft/ has no manifest.json)' '$OUT/r1.log'"
check "--json fits its schema and holds every check" "'$PY' - '$OUT/r1.json' '$ROOT/schemas/fixtures-result.schema.json' <<'PY'
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(doc)
cells = {(c['id'], x['implementation']): x for c in doc['cases'] for x in c['cells']}
assert doc['exitCode'] == 1 and doc['implementations'] == ['cpp', 'python'], doc['implementations']
assert all(x['cell'] == 'pass' for (i, impl), x in cells.items() if impl == 'cpp')
bad = [k for k, x in cells.items() if x['cell'] != 'pass']
assert bad == [('stdio.intercept-request-pretty.invalid', 'python')], bad
multi = {c['id']: c for c in doc['cases']}['stdio.intercept-requests.valid']
assert multi['messages'] == 3, multi
checks = {x['check']: x for x in cells[('stdio.intercept-requests.valid', 'cpp')]['checks']}
assert checks['schema'] == {'check': 'schema', 'state': 'pass', 'document': 'intercept-request', 'expectedValid': True, 'valid': True}, checks
assert checks['aggregate']['document'] == 'schema' and checks['layers']['state'] == 'pass'
ev = {x['check']: x for x in cells[('http.observe-tool-after-time.invalid', 'cpp')]['checks']}
assert ev['event']['document'] == 'tool-after' and ev['event']['valid'] is False, ev
# Python 0.10.1 validates neither tool-after nor schema.json: those checks are unsupported, said so.
ev = {x['check']: x for x in cells[('http.observe-tool-after-time.invalid', 'python')]['checks']}
assert ev['event']['state'] == 'unsupported' and 'tool-after' in ev['event']['detail'], ev
assert ev['schema']['state'] == 'pass', ev
# The closed object: canonically invalid, still structurally accepted (no layer check on invalid input).
closed = {x['check']: x for x in cells[('http.intercept-request-unknown-member.invalid', 'cpp')]['checks']}
assert closed['schema']['valid'] is False and 'layers' not in closed, closed
assert doc['totals']['python'] == {'pass': 8, 'FAIL': 1, 'known': 0, 'STALE': 0, 'skew': 0, 'unsup': 0}
PY"

# 2. --baseline.
cat >"$OUT/known.json" <<'JSON'
{"format": "crosscheck-baseline/1", "entries": [
  {"id": "py-validator-non-object", "implementations": ["python"], "cases": ["stdio.intercept-request-pretty.invalid"],
   "reason": "Validator.validate raises AttributeError on a JSON value that is not an object", "link": "docs/fixtures.md"}]}
JSON
"$CC" fixtures run --adapters cpp,python --baseline "$OUT/known.json" "$DIR" >"$OUT/r2.log" 2>&1
check "a known failure is known (exit 0)" "[ $? = 0 ] && grep -q '^python: 8 passed, 0 failed, 1 known$' '$OUT/r2.log'"
"$PY" - "$OUT/known.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['entries'].append(dict(d['entries'][0], id='py-stale', cases=['registration.http-backend.valid']))
json.dump(d, open(sys.argv[1], 'w'))
PY
"$CC" fixtures run --adapters cpp,python --baseline "$OUT/known.json" "$DIR" >"$OUT/r3.log" 2>&1
check "an entry for a passing case is stale (exit 1)" \
  "[ $? = 1 ] && grep -q 'registration.http-backend.valid \[python\]: passes, but the known-failure list says it fails (py-stale)' '$OUT/r3.log'"

# 3. A wrong expectation, on a copy of the folder.
cp -r "$SRC" "$OUT/wrong"
"$PY" - "$OUT/wrong/fixtures/draft/manifest.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d['cases']:
    if c['id'] == 'registration.empty-hooks.invalid':
        c['expectedValid'] = True
json.dump(d, open(sys.argv[1], 'w'), indent=2)
PY
"$CC" fixtures run --adapters cpp "$OUT/wrong/fixtures/draft" >"$OUT/r4.log" 2>&1
check "an expectation no implementation meets fails in its check (exit 1)" \
  "[ $? = 1 ] && grep -q \"registration.empty-hooks.invalid \[cpp\]: schema (registration): invalid at '/hooks'.*, expected valid\" '$OUT/r4.log'"

# 3b. The layer invariant, on a copy with one more case: timeoutMs spelled 1500.0 (an integer in JSON
# Schema 2020-12, canonically valid), which the seeded fault integral-decimal-rejected refuses
# structurally while forwarding validate to the reference.
cp -r "$SRC" "$OUT/layers"
"$PY" - "$OUT/layers/fixtures/draft" <<'PY'
import hashlib, json, os, sys
d = sys.argv[1]
text = open(os.path.join(d, 'registration/http-backend.valid.json')).read().replace('"timeoutMs": 1500', '"timeoutMs": 1500.0')
assert '1500.0' in text
open(os.path.join(d, 'registration/timeout-decimal.valid.json'), 'w').write(text)
m = json.load(open(os.path.join(d, 'manifest.json')))
m['cases'].append({'id': 'registration.timeout-decimal.valid', 'path': 'fixtures/draft/registration/timeout-decimal.valid.json',
                   'binding': 'registration-json', 'schema': 'schema/draft/registration.schema.json', 'expectedValid': True,
                   'requirements': [], 'sha256': hashlib.sha256(text.encode()).hexdigest()})
json.dump(m, open(os.path.join(d, 'manifest.json'), 'w'), indent=2)
PY
FAULTY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault integral-decimal-rejected -- $CC serve-adapter"
"$CC" fixtures run --adapters cpp --adapter "faulty=$FAULTY" --adapter "plain=python3 $ROOT/tests/fake_adapters/fake_adapter.py" \
  "$OUT/layers/fixtures/draft" >"$OUT/r6.log" 2>&1
rc=$?
check "canonically valid but structurally rejected: the layers check of that implementation fails (exit 1)" \
  "[ $rc = 1 ] && grep -Eq '^registration.timeout-decimal.valid +pass +FAIL +unsup +FAIL' '$OUT/r6.log' && grep -q \"registration.timeout-decimal.valid \[faulty\]: layers: registration: canonically valid, but the structural decode as registration says rejected (invalid_type at '/hooks/0/subscriptions/0/timeoutMs')\" '$OUT/r6.log' && grep -q '^faulty: 9 passed, 1 failed$' '$OUT/r6.log'"
check "an adapter without the canonical layer is said and its cells are unsup" \
  "grep -q '^plain: no canonical layer: left out of the canonical checks' '$OUT/r6.log' && grep -q '^plain: 0 passed, 0 failed, 10 unsupported$' '$OUT/r6.log'"

# 4. Skew: a checkout beside the fixtures whose tool-after document differs from the bundle's.
cp -r "$SRC" "$OUT/repo"
"$PY" - "$BUNDLE" "$OUT/repo/schema/draft" <<'PY'
import hashlib, json, os, sys
docs = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out)
entries = []
for d in docs:
    name = d['$id'].rsplit('/', 1)[1]
    if name == 'tool-after.schema.json':
        d['description'] = d.get('description', '') + ' (changed for a skew test)'
    text = json.dumps(d, indent=2) + '\n'
    open(os.path.join(out, name), 'w').write(text)
    entries.append({'path': 'schema/draft/' + name, 'sha256': hashlib.sha256(text.encode()).hexdigest()})
json.dump({'snapshotVersion': 'draft', 'protocolVersion': 'draft',
           'dialect': 'https://json-schema.org/draft/2020-12/schema', 'documents': entries},
          open(os.path.join(out, 'manifest.json'), 'w'), indent=2)
PY
"$CC" fixtures run --adapters cpp,python --json "$OUT/r5.json" "$OUT/repo/fixtures/draft" >"$OUT/r5.log" 2>&1
rc=$?
check "the checkout's schema folder is the snapshot" "grep -q \"^schema snapshot: $OUT/repo/schema/draft.* (checkout)\" '$OUT/r5.log'"
check "skew is reported, with both closure hashes" "grep -Eq '^skew: python: not compared in [0-9]+ checks \(tool_after_event is [0-9a-f]{12} in the fixtures. snapshot, [0-9a-f]{12} in the implementation.s bundle\)' '$OUT/r5.log'"
check "cases that reach the changed document are skew, the others compared (exit 0)" "[ $rc = 0 ] && '$PY' - '$OUT/r5.json' <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cells = {(c['id'], x['implementation']): x for c in doc['cases'] for x in c['cells']}
for impl in ('cpp', 'python'):
    checks = {x['check']: x['state'] for x in cells[('http.observe-tool-after-time.invalid', impl)]['checks']}
    # observe-notification and schema.json reach tool-after too: all three checks are skew.
    assert checks == {'schema': 'skew', 'event': 'skew', 'aggregate': 'skew'}, (impl, checks)
    assert cells[('http.observe-tool-after-time.invalid', impl)]['cell'] == 'skew'
    # intercept-request's event union reaches tool-after as well; registration does not.
    assert cells[('stdio.intercept-request-pretty.invalid', impl)]['cell'] == 'skew'
    for case in ('registration.http-backend.valid', 'registration.empty-hooks.invalid'):
        reg = {x['check']: x['state'] for x in cells[(case, impl)]['checks']}
        assert reg['schema'] == 'pass' and cells[(case, impl)]['cell'] == 'pass', (case, reg)
# Valid and skew: the layer invariant is still checked inside each implementation.
valid = {x['check']: x['state'] for x in cells[('http.observe-tool-after.valid', 'python')]['checks']}
assert valid['layers'] == 'pass' and valid['schema'] == 'skew', valid
PY"

# 5. Bad input: exit 2, nothing run.
mkdir -p "$OUT/empty"
"$CC" fixtures run --adapters cpp "$OUT/empty" >"$OUT/b1.log" 2>&1
check "no manifest: exit 2 naming the file" "[ $? = 2 ] && grep -q \"ERROR: $OUT/empty/manifest.json: no such file\" '$OUT/b1.log'"
cp -r "$SRC" "$OUT/bad"
M="$OUT/bad/fixtures/draft/manifest.json"
cp "$M" "$OUT/manifest.orig"
printf '{"cases": [{"id": "x", "path": "a.json"' >"$M"
"$CC" fixtures run --adapters cpp "$OUT/bad/fixtures/draft" >"$OUT/b2.log" 2>&1
check "a manifest that is not JSON: exit 2 with the position" "[ $? = 2 ] && grep -q 'manifest.json: not JSON: line 1, column' '$OUT/b2.log'"
"$PY" - "$OUT/manifest.orig" "$M" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['cases'][2]['expectedValid'] = 'yes'
json.dump(d, open(sys.argv[2], 'w'), indent=2)
PY
"$CC" fixtures run --adapters cpp "$OUT/bad/fixtures/draft" >"$OUT/b3.log" 2>&1
check "a malformed case: exit 2 naming the case and pointer" \
  "[ $? = 2 ] && grep -q \"cases\[2\] (id \\\"stdio.intercept-request-second-line-bad.invalid\\\"): field 'expectedValid' (/cases/2/expectedValid): expected a boolean\" '$OUT/b3.log'"
cp "$OUT/manifest.orig" "$M"
rm "$OUT/bad/fixtures/draft/registration/empty-hooks.invalid.json"
printf '\n' >>"$OUT/bad/fixtures/draft/http/observe-tool-after.valid.json"
"$CC" fixtures run --adapters cpp "$OUT/bad/fixtures/draft" >"$OUT/b4.log" 2>&1
check "a missing file and a changed file: exit 2, both named with what was expected" \
  "[ $? = 2 ] && grep -q 'cases\[8\] (id \"registration.empty-hooks.invalid\"): /cases/8/path: fixtures/draft/registration/empty-hooks.invalid.json: no such file (expected it at ' '$OUT/b4.log' && grep -q 'cases\[4\] (id \"http.observe-tool-after.valid\"): /cases/4/sha256: fixtures/draft/http/observe-tool-after.valid.json has sha256 [0-9a-f]*, the manifest expects [0-9a-f]*' '$OUT/b4.log' && grep -q 'nothing was run' '$OUT/b4.log' && ! grep -q '^cpp:' '$OUT/b4.log'"
"$CC" fixtures run --adapters cpp --adapter "dead=false" "$DIR" >"$OUT/b5.log" 2>&1
check "an adapter named on the command line that cannot start: exit 3" "[ $? = 3 ] && grep -q 'adapter dead could not be started' '$OUT/b5.log'"
finish
