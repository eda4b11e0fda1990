#!/usr/bin/env bash
# selftest_contextual.sh BUILD_DIR: the layer-3 seeded faults in short form (docs/selftest.md,
# "Layer 3"). `crosscheck selftest --layers contextual --no-false-alarms` runs every layer-3 stand-in
# (selftest/client_standin.py in front of the real Python interop client) on generated rows, and the
# rewording stand-in for 10 s: each fault is found in its expected class (the first rewritten row
# that differs has a difference of that class), the rewording one gives no difference on the rows it
# rewrote, and the report fits its schema. Exit 3 (the Python client not installed) is reported as
# such. The time of each detection is reported, never asserted.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PY=$(python3 -c "import sys; print(sys.executable)")

"$CC" selftest --layers contextual --faults all --no-false-alarms --time-per-fault 120s --time 10s \
  --python "$PY" --out "$OUT/l3" --json "$OUT/l3.json" >"$OUT/l3.log" 2>&1
rc=$?
cat "$OUT/l3.log"
check "the layer-3 self-test could start the real Python client (exit $rc, not 3)" "[ $rc != 3 ] && [ $rc != 2 ]"
check "every layer-3 fault found in its expected class, the first detection in a right class" "python3 - '$OUT/l3.json' <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = r['faults']
names = {x['name'] for x in rows}
want = {'deep-merge', 'null-as-deletion', 'ask-beats-deny', 'return-anywhere', 'unknown-effect-ignored',
        'continuation-per-effect', 'candidate-kept', 'messages-from-rejected'}
ok = want <= names and all(x['layer'] == 'contextual' for x in rows)
for x in rows:
    good = (x['expectedSeconds'] is not None and x['goalClass']
            and x['contextual']['alteredRows'] > 0 and x['contextual']['row'] is not None
            and x['contextual']['bucket'].startswith(x['expectedClass'] + '/'))
    print(x['name'], 'found' if good else 'NOT FOUND', x['expectedSeconds'], x['firstClasses'], x['note'])
    ok = ok and good
sys.exit(0 if ok else 1)
PY"
check "the rewording stand-in reworded errors and gave no difference" "python3 - '$OUT/l3.json' <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['contextualFalseAlarms']
print(a)
sys.exit(0 if a and a['status'] == 'PASS' and a['alteredRows'] > 0 and a['differences'] == 0 else 1)
PY"
check "no layer-1/2 check ran (--layers contextual)" "python3 -c \"import json,sys; sys.exit(0 if json.load(open('$OUT/l3.json'))['falseAlarms'] is None else 1)\""
check "the report fits schemas/selftest-report.schema.json" "python3 - '$ROOT' '$OUT/l3.json' '$OUT/l3/selftest.json' <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1] + '/schemas/selftest-report.schema.json')))
for f in sys.argv[2:]:
    v.validate(json.load(open(f)))
PY"
"$CC" selftest --layers semantic --out "$OUT/bad" >"$OUT/bad.log" 2>&1
rc=$?
check "an unknown layer is exit 2 naming it" "[ $rc = 2 ] && grep -q \"'semantic' is not a layer\" '$OUT/bad.log'"
finish
