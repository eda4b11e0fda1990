#!/usr/bin/env bash
# baseline_cli.sh BUILD_DIR: end-to-end checks of the known-divergence baseline and matrix seeding
# with the real binary, on real finding files (a short fuzz run against a seeded-fault proxy).
#  1. baseline check: new / known / stale, --json, exit codes; update appends and keeps every byte;
#  2. --replay tells a stale entry whose witness still diverges from one that no longer does;
#  3. --baseline on fuzz and run: only new divergences fail;
#  4. bad baseline files: exit 2 naming the file, entry and field, nothing overwritten; the shipped
#     schema (checked by Python's jsonschema) agrees with the code on them;
#  5. matrix seed: valid matrix, byte-identical on re-runs, cpp passes every seeded case, review list,
#     merge keeps the file, a conflicting merge exits 2 and writes nothing.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PROXY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter"
FAULTY=(--adapters cpp --adapter "faulty=$PROXY")
EMPTY="$OUT/empty.json"
printf '{"format": "crosscheck-baseline/1", "entries": []}\n' >"$EMPTY"

# Real findings: the proxy turns unknown_enum warnings into errors (an acceptance divergence).
"$CC" fuzz --runs 1500 --seed 3 --reduce-budget 300 "${FAULTY[@]}" --out "$OUT/run" >"$OUT/fuzz.log" 2>&1
check "the fuzz run finds the seeded fault (exit 1)" "[ $? = 1 ] && ls '$OUT/run/findings' | grep -q '^diverge-'"
check "the reducer wrote minimized siblings" "ls '$OUT/run/findings' | grep -q '\.min\.json$'"

# 1. check and update.
"$CC" baseline check --baseline "$EMPTY" --json "$OUT/c1.json" "$OUT/run" >"$OUT/c1.log" 2>&1
check "an empty baseline: every contract bucket is new (exit 1)" "[ $? = 1 ] && grep -q '^NEW acceptance' '$OUT/c1.log'"
check "the new bucket's witness is a minimized finding" "grep -q 'witness: .*\.min\.json' '$OUT/c1.log'"
check "--json holds the new buckets and the exit code" "python3 - '$OUT/c1.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d['format'] == 'crosscheck-baseline-check/1' and d['new'] and d['exitCode'] == 1
         and all(b['class'] for b in d['new']) else 1)
PY"
B="$OUT/b.json"
"$CC" baseline update --baseline "$B" "$OUT/run" >"$OUT/u1.log" 2>&1
check "update creates the baseline with TODO entries" "[ $? = 0 ] && grep -q 'TODO: triage' '$B' && grep -q '\"witness\"' '$B'"
"$CC" baseline check --baseline "$B" "$OUT/run" >"$OUT/c2.log" 2>&1
check "after update every bucket is known (exit 0)" "[ $? = 0 ] && grep -q '^known: entry ' '$OUT/c2.log' && ! grep -q '^NEW' '$OUT/c2.log'"
check "check warns about entries still waiting for triage" "grep -q 'wait for triage' '$OUT/c2.log'"
# A person's entry in their own layout, first in the file; a second update must not touch a byte.
python3 - "$B" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read()
i = t.index('[') + 1
mine = '\n    { "id":"faulty-timeouts" , "implementations":["faulty"],\n      "bucket":"timeout|*", "reason":"hand written", "link":"https://example.org/1" },'
open(p, 'w').write(t[:i] + mine + t[i:])
PY
cp "$B" "$OUT/b.before"
"$CC" baseline update --baseline "$B" "$OUT/run" >"$OUT/u2.log" 2>&1
check "update with nothing new leaves the file byte for byte" "[ $? = 0 ] && cmp -s '$B' '$OUT/b.before' && grep -q '0 entries added' '$OUT/u2.log'"
"$CC" baseline check --baseline "$B" "$OUT/run" >"$OUT/c3.log" 2>&1
check "an entry that matched nothing is stale, not a failure" "[ $? = 0 ] && grep -q 'stale: entry faulty-timeouts (faulty): not seen in this run' '$OUT/c3.log'"
"$CC" baseline check --fail-stale --baseline "$B" "$OUT/run" >/dev/null 2>&1
check "--fail-stale makes a stale entry fail" "[ $? = 1 ]"

# 2. --replay on an empty run folder of the same implementations: every entry is stale there.
mkdir -p "$OUT/quiet/findings"
printf '{"format":"crosscheck-fuzz/1","seed":0,"roots":[],"implementations":"cpp,faulty","schema":"x"}\n' >"$OUT/quiet/run.json"
"$CC" baseline check --replay --fail-stale --baseline "$B" "${FAULTY[@]}" "$OUT/quiet" >"$OUT/r1.log" 2>&1
check "--replay: witnesses of the still-present fault diverge again" "grep -q 'still diverges in a matching bucket' '$OUT/r1.log' && grep -q 'faulty-timeouts: no witness stored' '$OUT/r1.log'"
"$CC" baseline check --replay --baseline "$B" --adapters cpp --adapter "faulty=$CC serve-adapter" "$OUT/quiet" >"$OUT/r2.log" 2>&1
check "--replay: with the fault fixed the entries are reported as gone" "grep -q 'no longer diverges that way' '$OUT/r2.log' && ! grep -q 'still diverges' '$OUT/r2.log'"

# 3. --baseline on fuzz and run.
"$CC" fuzz --runs 1500 --seed 3 --reduce-budget 0 --baseline "$B" "${FAULTY[@]}" --out "$OUT/run2" >"$OUT/f2.log" 2>&1
check "fuzz --baseline: only known divergences, exit 0" "[ $? = 0 ] && grep -q '^passed: no new failing bucket against $B ([0-9]* known to the baseline' '$OUT/f2.log' && [ -f '$OUT/run2/baseline-check.json' ]"
"$CC" fuzz --runs 300 --seed 3 --reduce-budget 0 --baseline "$EMPTY" "${FAULTY[@]}" --out "$OUT/run3" >"$OUT/f3.log" 2>&1
check "fuzz --baseline: new divergences fail (exit 1) and name the update command" "[ $? = 1 ] && grep -q 'crosscheck baseline update' '$OUT/f3.log'"
"$CC" fuzz --runs 300 --baseline "$ROOT/tests/data/baseline/bad/unknown-field.json" "${FAULTY[@]}" --out "$OUT/run4" >"$OUT/f4.log" 2>&1
check "fuzz with a bad baseline exits 2 before fuzzing" "[ $? = 2 ] && [ ! -d '$OUT/run4' ] && grep -q \"field 'reasn'\" '$OUT/f4.log'"
mkdir -p "$OUT/payloads"
python3 - "$OUT/run/findings" "$OUT/payloads" <<'PY'
import glob, json, sys
for i, f in enumerate(sorted(glob.glob(sys.argv[1] + '/diverge-*.min.json'))[:3]):
    d = json.load(open(f))
    open('%s/%s.p%d.json' % (sys.argv[2], d['root'], i), 'w').write(d['input']['text'])
PY
"$CC" run --baseline "$B" "${FAULTY[@]}" --out "$OUT/runout" "$OUT/payloads" >"$OUT/run.log" 2>&1
check "run --baseline: known divergences are listed as known, exit 0" "[ $? = 0 ] && grep -q '^KNOWN acceptance' '$OUT/run.log'"
"$CC" run --baseline "$EMPTY" "${FAULTY[@]}" --out "$OUT/runout2" "$OUT/payloads" >"$OUT/run2.log" 2>&1
check "run --baseline: new divergences fail (exit 1)" "[ $? = 1 ] && grep -q '^DIVERGENCE acceptance' '$OUT/run2.log'"
"$CC" baseline check --baseline "$B" "$OUT/runout" >"$OUT/c4.log" 2>&1
check "baseline check reads a run --out folder too" "[ $? = 0 ] && grep -q '^known: entry ' '$OUT/c4.log'"

# 4. Bad baseline files.
BAD="$ROOT/tests/data/baseline/bad"
for f in not-json unknown-field wrong-type duplicate-id no-pattern wrong-format bad-class; do
  "$CC" baseline check --baseline "$BAD/$f.json" "$OUT/run" >"$OUT/bad.log" 2>&1
  rc=$?
  check "bad baseline $f.json: exit 2 naming the file" "[ $rc = 2 ] && grep -q \"^ERROR: $BAD/$f.json: \" '$OUT/bad.log'"
done
cp "$BAD/unknown-field.json" "$OUT/bad-copy.json"
"$CC" baseline update --baseline "$OUT/bad-copy.json" "$OUT/run" >/dev/null 2>&1
check "update of a bad baseline exits 2 and leaves it as it was" "[ $? = 2 ] && cmp -s '$OUT/bad-copy.json' '$BAD/unknown-field.json'"
check "Python's jsonschema agrees with the shipped schema" "python3 - '$ROOT' '$B' <<'PY'
import json, sys, jsonschema
root = sys.argv[1]
v = jsonschema.Draft202012Validator(json.load(open(root + '/schemas/baseline.schema.json')))
for good in (root + '/tests/data/baseline/known.json', sys.argv[2]):
    v.validate(json.load(open(good)))
for bad in ('unknown-field', 'wrong-type', 'no-pattern', 'wrong-format', 'bad-class'):
    if v.is_valid(json.load(open(root + '/tests/data/baseline/bad/' + bad + '.json'))):
        sys.exit('jsonschema accepts ' + bad)
PY"

# 5. matrix seed.
"$CC" matrix seed --findings "$OUT/run/findings" --out "$OUT/s1.json" >"$OUT/s1.log" 2>&1
check "matrix seed writes cases" "[ $? = 0 ] && grep -q 'cases added' '$OUT/s1.log' && grep -q '/seed-' '$OUT/s1.json'"
cp "$OUT/s1.json" "$OUT/s1.first"
cp "$OUT/s1.review.json" "$OUT/s1.review.first"
"$CC" matrix seed --findings "$OUT/run" --out "$OUT/s1.json" >/dev/null 2>&1
check "seeding again replaces its own output byte for byte (matrix and review)" "[ $? = 0 ] && cmp -s '$OUT/s1.json' '$OUT/s1.first' && cmp -s '$OUT/s1.review.json' '$OUT/s1.review.first'"
check "the seeded matrix validates against schemas/matrix.schema.json" "python3 - '$ROOT' '$OUT/s1.json' <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1] + '/schemas/matrix.schema.json')))
PY"
check "the review list names the faulty implementation" "grep -q '\"implementation\": \"faulty\"' '$OUT/s1.review.json' && grep -q '^review .*faulty rejected' '$OUT/s1.log'"
"$CC" matrix run --adapters cpp "$OUT/s1.json" >"$OUT/m1.log" 2>&1
check "the C++ decoder passes every seeded case" "[ $? = 0 ] && grep -q ' 0 failed' '$OUT/m1.log'"
"$CC" matrix run "${FAULTY[@]}" "$OUT/s1.json" >"$OUT/m2.log" 2>&1
check "the faulty implementation fails seeded cases" "[ $? = 1 ]"
cp "$OUT/s1.json" "$OUT/s1.before"
"$CC" matrix seed --findings "$OUT/run" --out "$OUT/s1.json" --merge "$OUT/s1.json" >"$OUT/s3.log" 2>&1
check "merging the same findings again adds nothing and keeps every byte" "[ $? = 0 ] && cmp -s '$OUT/s1.json' '$OUT/s1.before' && grep -q ': 0 cases added' '$OUT/s3.log'"
python3 - "$OUT/s1.json" "$OUT/conflict.json" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
for i, l in enumerate(lines):
    if '"accepted": true' in l:
        lines[i] = l.replace('"accepted": true', '"accepted": false').replace('"warning": true', '"warning": false')
        break
open(sys.argv[2], 'w').write('\n'.join(lines))
PY
cp "$OUT/conflict.json" "$OUT/conflict.before"
"$CC" matrix seed --findings "$OUT/run" --out "$OUT/conflict.json" --merge "$OUT/conflict.json" >"$OUT/s4.log" 2>&1
check "a conflicting merge exits 2 naming the matrix, the finding and the case" "[ $? = 2 ] && grep -q \"$OUT/conflict.json case [a-z_]*/seed-[0-9a-f]* expects rejected, but the C++ decoder says accepted\" '$OUT/s4.log' && grep -q 'findings/diverge-' '$OUT/s4.log'"
check "... and writes nothing" "cmp -s '$OUT/conflict.json' '$OUT/conflict.before'"
cp "$ROOT/tests/data/matrix/draft-structural.json" "$OUT/hand.json"
"$CC" matrix seed --findings "$OUT/run" --out "$OUT/hand.json" >"$OUT/s5.log" 2>&1
check "seed refuses to replace a hand-written matrix without --merge" "[ $? = 2 ] && cmp -s '$OUT/hand.json' '$ROOT/tests/data/matrix/draft-structural.json'"

finish
