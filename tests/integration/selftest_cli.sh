#!/usr/bin/env bash
# selftest_cli.sh BUILD_DIR [witnesses|short|false-alarms|bad-input]: end-to-end checks of the seeded
# faults and `crosscheck selftest` with the real binary (docs/selftest.md).
#  witnesses     every fault is real: a layer-1 fault's hand-minimal witness, through one `crosscheck
#                run` of the reference (cpp) against the faulty adapter, diverges in the fault's
#                expected class, and the equivalent adapter gives no divergence on any witness; a
#                layer-2 fault's witness, sent as one validate request of its root's document, is
#                valid for one of the faulty proxy and the reference and invalid for the other, and
#                the equivalent adapter gives the reference's verdict; utf16-length (no AHP document
#                can show it) does the same on a one-document bundle with a maxLength;
#  short         `crosscheck selftest` on five faults (four classes), 30 s each at most: all found in
#                the right class, reduced to at most twice the hand-minimal witness;
#  short-canonical  the same on two layer-2 faults, found as canonical-acceptance at layer 2;
#  false-alarms  `crosscheck selftest --no-false-alarms --time 20s`: no contract finding, at both
#                layers;
#  bad-input     python missing -> exit 3, every fault skipped and none passed; unknown fault and a
#                used --out -> exit 2.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PART=${2:-all}
# The interpreter itself, not a pyenv shim (half a second per start).
PY=$(python3 -c "import sys; print(sys.executable)")
want() { [ "$PART" = all ] || [ "$PART" = "$1" ]; }

if want witnesses; then
  # name root expected-class payload, one layer-1 fault per line, from the shipped table.
  python3 - "$ROOT/selftest/faults.json" "$OUT/w" >"$OUT/faults.txt" <<'PY'
import json, os, sys
os.makedirs(sys.argv[2])
for f in json.load(open(sys.argv[1]))["faults"]:
    if f.get("layer", "structural") != "structural":
        continue
    w = f["witness"]
    path = os.path.join(sys.argv[2], f["name"] + "." + w["root"] + ".json")
    open(path, "wb").write(w["payload"].encode())
    print(f["name"], w["root"], f["expectedClass"], path)
PY
  check "the faults table has at least 12 faults" "[ \$(wc -l <'$OUT/faults.txt') -ge 12 ]"
  while read -r name root cls file; do
    "$CC" run --deadline 2 --root "$root" --adapters cpp --out "$OUT/run-$name" \
      --adapter "faulty=$PY $ROOT/selftest/faulty_adapter.py --fault $name -- $CC serve-adapter" \
      "$file" >"$OUT/run-$name.log" 2>&1
    rc=$?
    check "witness of $name diverges in $cls (exit $rc)" "[ $rc = 1 ] && python3 - '$OUT/run-$name' '$cls' <<'PY'
import glob, json, sys
hits = [d for f in glob.glob(sys.argv[1] + '/*.json') for d in json.load(open(f))['divergences']
        if d['class'] == sys.argv[2] and 'faulty' in d['implementations'] and not d['implementationDefined']]
sys.exit(0 if hits else 1)
PY"
  done <"$OUT/faults.txt"
  "$CC" run --deadline 2 --adapters cpp --out "$OUT/run-equivalent" \
    --adapter "equivalent=$PY $ROOT/selftest/equivalent_adapter.py -- $CC serve-adapter" \
    "$OUT/w" >"$OUT/run-equivalent.log" 2>&1
  rc=$?
  check "the equivalent adapter agrees with the reference on every witness (exit $rc)" "[ $rc = 0 ]"
  # Layer 2: one validate request per witness to the reference, the faulty proxy and the equivalent
  # adapter (each a real process), verdicts compared, on the root's schema document.
  python3 - "$ROOT/selftest/faults.json" "$PY" "$ROOT/selftest" "$CC" "$ROOT/tests/data/selftest/short-text.schemas.json" \
    >"$OUT/canonical-witnesses.log" 2>&1 <<'PY'
import base64, json, subprocess, sys
table, py, selftest, cc, tiny = sys.argv[1:]

def verdict(argv, document, payload):
    lines = [{"op": "hello", "protocol": 1},
             {"op": "validate", "id": 7, "document": document, "input": base64.b64encode(payload.encode()).decode()}]
    out = subprocess.run(argv, input="".join(json.dumps(x) + "\n" for x in lines), capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    answer = json.loads(out[-1])
    assert answer["id"] == 7, answer
    return answer["outcome"]

# root -> its schema document, from the roots table `crosscheck schema` prints (root, type, file, ...).
documents = {}
for line in subprocess.run([cc, "schema"], capture_output=True, text=True, check=True).stdout.splitlines():
    words = line.split()
    if len(words) >= 3 and words[2].endswith(".schema.json"):
        documents[words[0]] = words[2].rsplit("/", 1)[-1][: -len(".schema.json")]
# A fault with a schema of its own (utf16-length) runs on it: its one document is short-text.
cases = [(f["name"], "short-text" if f.get("schema") else documents[f["witness"]["root"]],
          f["witness"]["payload"], ["--schema", tiny] if f.get("schema") else [])
         for f in json.load(open(table))["faults"] if f.get("layer") == "canonical"]
assert len(cases) >= 5 and any(name == "utf16-length" for name, *_ in cases), cases
assert all(f["schema"].endswith("short-text.schemas.json") for f in json.load(open(table))["faults"] if f.get("schema"))
bad = 0
for name, document, payload, schema in cases:
    ref = verdict([cc, "serve-adapter"] + schema, document, payload)
    faulty = verdict([py, selftest + "/faulty_adapter.py", "--canonical-fault", name, "--", cc, "serve-adapter"] + schema,
                     document, payload)
    equivalent = verdict([py, selftest + "/equivalent_adapter.py", "--", cc, "serve-adapter"] + schema, document, payload)
    ok = {ref, faulty} == {"valid", "invalid"} and equivalent == ref
    bad += not ok
    print("PASS" if ok else "FAIL", name, document, payload, "reference", ref, "faulty", faulty, "equivalent", equivalent)
sys.exit(1 if bad else 0)
PY
  rc=$?
  cat "$OUT/canonical-witnesses.log"
  check "every layer-2 witness: faulty and reference disagree, equivalent agrees (exit $rc)" "[ $rc = 0 ]"
fi

if want short; then
  FAULTS=unknown-enum-error,crash-on-empty-array,drop-unknown-members,drop-warnings,opaque-number-double
  "$CC" selftest --faults $FAULTS --time-per-fault 30s --out "$OUT/short" --json "$OUT/short.json" \
    >"$OUT/short.log" 2>&1
  rc=$?
  cat "$OUT/short.log"
  check "short selftest exits 0" "[ $rc = 0 ]"
  check "each fault found within 30 s, first in its expected class, witness real, reduced to <= 2x" "python3 - '$OUT/short.json' <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = r['faults']
ok = len(rows) == 5 and all(
    x['status'] == 'PASS' and x['witnessDetected'] and x['expectedSeconds'] is not None
    and x['expectedSeconds'] <= 30 and x['goalClass'] and x['expectedClass'] in x['firstClasses']
    and x['reducedBytes'] is not None and x['reducedBytes'] <= 2 * x['witnessBytes'] for x in rows)
sys.exit(0 if ok else 1)
PY"
  check "the report is also in the run folder" "[ -s '$OUT/short/selftest.json' ] && [ -s '$OUT/short/unknown-enum-error/events.jsonl' ]"
  check "the report fits schemas/selftest-report.schema.json" "python3 - '$ROOT' '$OUT/short.json' '$OUT/short/selftest.json' <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1] + '/schemas/selftest-report.schema.json')))
for f in sys.argv[2:]:
    v.validate(json.load(open(f)))
PY"
fi

if want short-canonical; then
  "$CC" selftest --faults closed-objects-open,format-ignored,utf16-length --time-per-fault 30s --out "$OUT/short2" \
    --json "$OUT/short2.json" >"$OUT/short2.log" 2>&1
  rc=$?
  cat "$OUT/short2.log"
  check "short layer-2 selftest exits 0" "[ $rc = 0 ]"
  check "each layer-2 fault found within 30 s as canonical-acceptance at layer 2, its witness real" "python3 - '$OUT/short2.json' '$OUT/short2' <<'PY'
import glob, json, sys
rows = json.load(open(sys.argv[1]))['faults']
ok = len(rows) == 3 and all(
    x['status'] == 'PASS' and x['layer'] == 'canonical' and x['witnessDetected']
    and x['expectedSeconds'] is not None and x['expectedSeconds'] <= 30
    and x['firstClasses'] == ['canonical-acceptance'] for x in rows)
for x in rows:
    d = json.load(open(x['findingFile']))
    hit = [v for v in d['divergences'] if v['class'] == 'canonical-acceptance' and v['layer'] == 'canonical'
           and 'faulty' in v['implementations'] and not v['implementationDefined']]
    ok = ok and bool(hit) and d['document']
sys.exit(0 if ok else 1)
PY"
fi

if want false-alarms; then
  "$CC" selftest --no-false-alarms --time 20s --out "$OUT/fa" --json "$OUT/fa.json" >"$OUT/fa.log" 2>&1
  rc=$?
  cat "$OUT/fa.log"
  check "no false alarms in 20 s (exit 0)" "[ $rc = 0 ]"
  check "the equivalent adapter got inputs and gave no contract finding" "python3 - '$OUT/fa.json' <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['falseAlarms']
sys.exit(0 if a['status'] == 'PASS' and a['contractFindings'] == 0 and a['sent'] > 100 else 1)
PY"
  check "the false-alarm campaign ran both layers" "python3 - '$OUT/fa/equivalent/summary.json' <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if 'canonical' in s['byLayer'] and 'structural' in s['byLayer'] and not s.get('canonicalLeftOut') else 1)
PY"
  check "the false-alarm report fits schemas/selftest-report.schema.json" "python3 - '$ROOT' '$OUT/fa.json' <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1] + '/schemas/selftest-report.schema.json')))
for f in sys.argv[2:]:
    v.validate(json.load(open(f)))
PY"
fi

if want bad-input; then
  "$CC" selftest --faults unknown-enum-error,drop-warnings --python /nonexistent/python3 --out "$OUT/nopy" \
    --json "$OUT/nopy.json" >"$OUT/nopy.log" 2>&1
  rc=$?
  check "python missing: exit 3, says what is missing and what was skipped" \
    "[ $rc = 3 ] && grep -q '/nonexistent/python3 not found' '$OUT/nopy.log' && grep -q 'skipped faults: unknown-enum-error, drop-warnings' '$OUT/nopy.log'"
  check "python missing: no fault is reported as passed" \
    "! grep -q 'PASS' '$OUT/nopy.log' && python3 -c \"import json,sys; r=json.load(open('$OUT/nopy.json')); sys.exit(0 if all(f['status']=='SKIP' for f in r['faults']) else 1)\""
  check "the report of skipped faults fits schemas/selftest-report.schema.json" "python3 - '$ROOT' '$OUT/nopy.json' <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1] + '/schemas/selftest-report.schema.json')))
PY"
  "$CC" selftest --faults no-such-fault --out "$OUT/bad" >"$OUT/bad.log" 2>&1
  rc=$?
  check "an unknown fault exits 2 naming the known ones" "[ $rc = 2 ] && grep -q 'known: drop-unknown-members' '$OUT/bad.log'"
  mkdir -p "$OUT/used" && echo keep >"$OUT/used/file"
  "$CC" selftest --faults drop-warnings --out "$OUT/used" >"$OUT/used.log" 2>&1
  rc=$?
  check "a used --out exits 2 and keeps what is there" "[ $rc = 2 ] && [ \"\$(cat '$OUT/used/file')\" = keep ]"
fi

finish && [ $pass -gt 0 ]
