#!/usr/bin/env bash
# selftest_cli.sh BUILD_DIR [witnesses|short|false-alarms|bad-input]: end-to-end checks of the seeded
# faults and `crosscheck selftest` with the real binary (docs/selftest.md).
#  witnesses     every fault is real: its hand-minimal witness, through one `crosscheck run` of the
#                reference (cpp) against the faulty adapter, diverges in the fault's expected class;
#                and the equivalent adapter gives no divergence on any witness;
#  short         `crosscheck selftest` on five faults (four classes), 30 s each at most: all found in
#                the right class, reduced to at most twice the hand-minimal witness;
#  false-alarms  `crosscheck selftest --no-false-alarms --time 20s`: no contract finding;
#  bad-input     python missing -> exit 3, every fault skipped and none passed; unknown fault and a
#                used --out -> exit 2.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PART=${2:-all}
# The interpreter itself, not a pyenv shim (half a second per start).
PY=$(python3 -c "import sys; print(sys.executable)")
want() { [ "$PART" = all ] || [ "$PART" = "$1" ]; }

if want witnesses; then
  # name root expected-class payload, one fault per line, from the shipped table.
  python3 - "$ROOT/selftest/faults.json" "$OUT/w" >"$OUT/faults.txt" <<'PY'
import json, os, sys
os.makedirs(sys.argv[2])
for f in json.load(open(sys.argv[1]))["faults"]:
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
fi

if want bad-input; then
  "$CC" selftest --faults unknown-enum-error,drop-warnings --python /nonexistent/python3 --out "$OUT/nopy" \
    --json "$OUT/nopy.json" >"$OUT/nopy.log" 2>&1
  rc=$?
  check "python missing: exit 3, says what is missing and what was skipped" \
    "[ $rc = 3 ] && grep -q '/nonexistent/python3 not found' '$OUT/nopy.log' && grep -q 'skipped faults: unknown-enum-error, drop-warnings' '$OUT/nopy.log'"
  check "python missing: no fault is reported as passed" \
    "! grep -q 'PASS' '$OUT/nopy.log' && python3 -c \"import json,sys; r=json.load(open('$OUT/nopy.json')); sys.exit(0 if all(f['status']=='SKIP' for f in r['faults']) else 1)\""
  "$CC" selftest --faults no-such-fault --out "$OUT/bad" >"$OUT/bad.log" 2>&1
  rc=$?
  check "an unknown fault exits 2 naming the known ones" "[ $rc = 2 ] && grep -q 'known: drop-unknown-members' '$OUT/bad.log'"
  mkdir -p "$OUT/used" && echo keep >"$OUT/used/file"
  "$CC" selftest --faults drop-warnings --out "$OUT/used" >"$OUT/used.log" 2>&1
  rc=$?
  check "a used --out exits 2 and keeps what is there" "[ $rc = 2 ] && [ \"\$(cat '$OUT/used/file')\" = keep ]"
fi

finish && [ $pass -gt 0 ]
