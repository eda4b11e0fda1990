#!/usr/bin/env bash
# scenarios_generate_cli.sh BUILD_DIR: `crosscheck scenarios generate` (docs/scenario-generator.md): the
# same seed gives the same file, the file and the rule coverage fit their formats, bad input is exit 2.
source "$(dirname "$0")/lib.sh"
run() {  # run NAME ARGS...: status in $status, stdout in $OUT/NAME.out, stderr in $OUT/NAME.err
  local name=$1; shift
  "$CC" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  status=$?
}
run a scenarios generate --seed 5 --count 120 --out "$OUT/a.json" --coverage "$OUT/cov.json"
check "generate: exit 0, the rows written and the coverage printed" \
  '[ $status = 0 ] && grep -q "wrote 120 rows (seed 5, 29 families)" "$OUT/a.out" && grep -q "possible ways reached" "$OUT/a.out"'
run b scenarios generate --seed 5 --count 120 --out "$OUT/b.json"
check "... the same seed writes the same bytes" 'cmp -s "$OUT/a.json" "$OUT/b.json"'
run c scenarios generate --seed 6 --count 120 --out "$OUT/c.json"
check "... another seed other bytes" '! cmp -s "$OUT/a.json" "$OUT/c.json"'
check "... every row has an id, its family tag, and expected or expectError" \
  '/usr/bin/python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"version\"]==1 and len(d[\"scenarios\"])==120
for r in d[\"scenarios\"]:
    assert r[\"id\"]==r[\"request\"][\"id\"]==r[\"request\"][\"params\"][\"event\"][\"id\"]
    assert any(t.startswith(\"family:\") for t in r[\"tags\"])
    assert (\"expected\" in r) != (\"expectError\" in r)
" "$OUT/a.json"'
check "... the coverage file names every rule and the impossible ways" \
  '/usr/bin/python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"format\"]==\"crosscheck-rule-coverage/1\" and d[\"rows\"]==120 and len(d[\"rules\"])==31
assert {w[\"rule\"] for w in d[\"impossible\"]}=={\"request-canonical\",\"modify-value\",\"return-value\"}
" "$OUT/cov.json"'
run fam scenarios generate --families merge-values,nope --out "$OUT/x.json"
check "an unknown family: exit 2 naming it and the known ones" \
  '[ $status = 2 ] && grep -q "no family named .nope.; known: valid-mix" "$OUT/fam.err" && [ ! -e "$OUT/x.json" ]'
run zero scenarios generate --count 0 --out "$OUT/x.json"
check "--count 0: exit 2" '[ $status = 2 ] && grep -q "count" "$OUT/zero.err"'
run noout scenarios generate --seed 1
check "no --out: exit 2" '[ $status = 2 ] && grep -q "out" "$OUT/noout.err"'
run dir scenarios generate --count 3 --out "$OUT/missing/dir/x.json"
check "an unwritable --out: exit 2 naming it" '[ $status = 2 ] && grep -q "missing/dir" "$OUT/dir.err"'
finish
