#!/usr/bin/env bash
# scenarios_seed_cli.sh BUILD_DIR: `crosscheck scenarios seed` (docs/scenarios.md, "Seeding rows from
# findings") on the findings `scenarios run` writes for tests/data/scenarios/seed.json with the client
# stand-ins of tests/fake_clients/: rows with content-derived ids, the reference host's expectations, the
# review list, stable bytes, --merge (duplicates left out, conflicts refused), minimized findings and
# bad input.
source "$(dirname "$0")/lib.sh"
FAKES="--client-config $ROOT/tests/fake_clients/clients.json --clients fake-a,fake-b"
SEED="$ROOT/tests/data/scenarios/seed.json"
PY=/usr/bin/python3
run() {  # run NAME ARGS...: status in $status, stdout in $OUT/NAME.out, stderr in $OUT/NAME.err
  local name=$1; shift
  "$CC" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  status=$?
}
valid() {  # valid SCHEMA FILE: Python's jsonschema (the .venv set-up installs) accepts FILE
  "$ROOT/.venv/bin/python" -c "
import json,sys,jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))" "$1" "$2"
}
row_of() {  # row_of FILE ORIGIN-ROW: the seeded row whose comment names that row of seed.json, as JSON
  $PY -c "
import json,sys
for r in json.load(open(sys.argv[1]))['scenarios']:
    if '(seed.json row '+sys.argv[2]+')' in r['comment']: print(json.dumps(r))
" "$1" "$2"
}

run r1 scenarios run $FAKES --out "$OUT/r1" "$SEED"
check "scenarios run on seed.json: findings for 5 of its 6 rows" \
  '[ $status = 1 ] && [ "$(ls "$OUT"/r1/findings | grep -c "^diverge-")" = 5 ]'
run s1 scenarios seed --findings "$OUT/r1" --out "$OUT/s1.json"
check "seed: exit 0, 4 rows added, the repeated row left out" \
  '[ $status = 0 ] && grep -q "s1.json: 4 rows added, 1 duplicate rows left out, 0 findings not seeded" "$OUT/s1.out"'
check "... the output is a scenario file: it validates against schemas/scenario-file.schema.json" \
  'valid "$ROOT/schemas/scenario-file.schema.json" "$OUT/s1.json"'
check "... and the review list against schemas/scenario-review.schema.json" \
  'valid "$ROOT/schemas/scenario-review.schema.json" "$OUT/s1.review.json"'
check "... ids are seed-<16 hex>, in request.id and params.event.id; the response id follows where it was the row id" \
  '$PY -c "
import json,re,sys
rows=json.load(open(sys.argv[1]))[\"scenarios\"]
assert len(rows)==4 and [r[\"id\"] for r in rows]==sorted(r[\"id\"] for r in rows)
for r in rows:
    assert re.fullmatch(\"seed-[0-9a-f]{16}\",r[\"id\"]), r[\"id\"]
    assert r[\"request\"][\"id\"]==r[\"request\"][\"params\"][\"event\"][\"id\"]==r[\"id\"]
    assert r[\"response\"][\"id\"]==(\"other\" if \"wrong-id\" in r[\"comment\"] else r[\"id\"]), r
    assert \"seeded\" in r[\"tags\"] and \"boundary:tool.before\" in r[\"tags\"]
" "$OUT/s1.json"'
check "... a row where fake-b was wrong gets the reference's expected (allow), not fake-b's deny; its own tags kept" \
  'row_of "$OUT/s1.json" differ-again | $PY -c "
import json,sys
r=json.load(sys.stdin)
assert r[\"expected\"][\"decision\"]==\"allow\" and r[\"tags\"][:2]==[\"fake:differ\",\"seeded\"], r"'
check "... a row whose own expectation was wrong (deny) gets the reference's (allow), its tags the rules of the accepted path" \
  'row_of "$OUT/s1.json" wrong-expected | $PY -c "
import json,sys
r=json.load(sys.stdin)
assert r[\"expected\"]=={\"decision\":\"allow\",\"executed\":True,\"input\":{\"task\":1},\"messages\":[]}, r
assert \"rule:accepted\" in r[\"tags\"] and \"rule:omitted-effects-neutral\" in r[\"tags\"], r[\"tags\"]"'
check "... a response answering another id: expectError, tagged with the rule the reference names" \
  'row_of "$OUT/s1.json" wrong-id | $PY -c "
import json,sys
r=json.load(sys.stdin)
assert r[\"expectError\"] is True and \"expected\" not in r and \"rule:id-correlation\" in r[\"tags\"], r"'
check "... a number spelled 1.0 in the response is kept as written" \
  'row_of "$OUT/s1.json" reject | grep -q "\"org.example.n\": 1.0"'
check "... the two rows fake-b got wrong are listed for review, printed and in s1.review.json" \
  '[ "$(grep -c "^review seed-.*: the reference host says accepted; fake-b" "$OUT/s1.out")" = 2 ] &&
   $PY -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"format\"]==\"crosscheck-scenario-review/1\" and len(d[\"rows\"])==2, d
assert {r[\"origin\"] for r in d[\"rows\"]}=={\"seed.json row differ-again\",\"seed.json row reject\"}, d
assert all([x[\"implementation\"] for x in r[\"disagreements\"]]==[\"fake-b\"] for r in d[\"rows\"])
" "$OUT/s1.review.json"'

run s2 scenarios seed --findings "$OUT/r1/findings" --out "$OUT/s2.json"
check "the same findings (given as the findings folder) give the same bytes" 'cmp -s "$OUT/s1.json" "$OUT/s2.json"'
run r2 scenarios run $FAKES --out "$OUT/r2" "$SEED"
run s3 scenarios seed --findings "$OUT/r2" --out "$OUT/s3.json"
check "another run of the same rows gives the same file: ids are stable across runs" 'cmp -s "$OUT/s1.json" "$OUT/s3.json"'
run s4 scenarios run $FAKES --out "$OUT/r4" "$OUT/s1.json"
check "the seeded file runs: the reference meets every row, fake-b still differs where it did" \
  '[ $status = 1 ] && [ "$(grep -c "^seed-[0-9a-f]* *passed *passed" "$OUT/s4.out")" = 4 ] &&
   [ "$(grep -c "^seed-[0-9a-f]* *passed *passed *failed" "$OUT/s4.out")" = 2 ]'

cp "$OUT/s1.json" "$OUT/m.json"
run merge scenarios seed --findings "$OUT/r1" --out "$OUT/m.json" --merge "$OUT/m.json"
check "--merge with its own rows: nothing added, every row a duplicate, the file unchanged" \
  '[ $status = 0 ] && grep -q "0 rows added to the 4 of .*m.json, 5 duplicate rows left out" "$OUT/merge.out" && cmp -s "$OUT/s1.json" "$OUT/m.json"'
check "... the rows still disagreed on stay listed for review" \
  '$PY -c "import json,sys; assert len(json.load(open(sys.argv[1]))[\"rows\"])==2" "$OUT/m.review.json"'

# A hand-written row with the request and response of the wrong-expected row under its own id,
# expecting deny where the reference allows.
row_of "$OUT/s1.json" wrong-expected | $PY -c "
import json,sys
r=json.load(sys.stdin); old=r['id']
r['id']=r['request']['id']=r['request']['params']['event']['id']=r['response']['id']='hand-written'
r['expected']={'decision':'deny'}; r['tags']=[]
print(json.dumps({'version':1,'scenarios':[r]}))" >"$OUT/hand.json"
cp "$OUT/hand.json" "$OUT/hand.before"
run conflict scenarios seed --findings "$OUT/r1" --out "$OUT/hand.json" --merge "$OUT/hand.json"
check "a merge row with the same request and response and another expectation: exit 2 naming both ids" \
  '[ $status = 2 ] && grep -q "hand.json: row hand-written expected {\"decision\":\"deny\"}, but the reference host says accepted.*(seeded id seed-[0-9a-f]\{16\} from " "$OUT/conflict.err"'
check "... nothing overwritten, no review list" 'cmp -s "$OUT/hand.json" "$OUT/hand.before" && [ ! -e "$OUT/hand.review.json" ]'
run conflict2 scenarios seed --findings "$OUT/r1" --out "$OUT/other.json" --merge "$OUT/hand.json"
check "... also into another --out, which is not written" '[ $status = 2 ] && [ ! -e "$OUT/other.json" ]'

# A minimized sibling: the reducer's better witness of the differ-again finding, with a neutral response.
mkdir -p "$OUT/rmin/findings"
cp "$OUT"/r1/findings/*.json "$OUT/rmin/findings/"
f=$(grep -l '"id": "differ-again"' "$OUT"/rmin/findings/*.json | head -1)
$PY -c "
import base64,json,sys
f=json.load(open(sys.argv[1])); row=json.loads(f['input']['text'])
row['response']['result']['effects']=[]
text=json.dumps(row)
f['reduction']={'from':sys.argv[1].split('/')[-1],'calls':3,'bytesBefore':f['input']['bytes'],'bytesAfter':len(text)}
f['input']={'base64':base64.b64encode(text.encode()).decode(),'text':text,'bytes':len(text)}
json.dump(f,open(sys.argv[1][:-5]+'.min.json','w'))" "$f"
run min scenarios seed --findings "$OUT/rmin" --out "$OUT/min.json"
check "a finding's .min.json is seeded in its place (its row no longer repeats the differ row)" \
  '[ $status = 0 ] && grep -q "5 rows added, 0 duplicate" "$OUT/min.out" && grep -q "\.min\.json (seed.json row differ-again)" "$OUT/min.json" && grep -q "\"effects\":\[\]}},\"expected\":{\"decision\":\"allow\"" "$OUT/min.json"'

# Bad input.
mkdir -p "$OUT/mixed/findings"
cp "$OUT"/r1/findings/*.json "$OUT/mixed/findings/"
$PY -c "
import json,sys
f=json.load(open(sys.argv[1])); f.pop('scenario')
for d in f['divergences']: d['layer']='structural'; d['class']='acceptance'
json.dump(f,open(sys.argv[2],'w'))" "$f" "$OUT/mixed/findings/diverge-0000000000000000000000000000000000000000.json"
run mixed scenarios seed --findings "$OUT/mixed" --out "$OUT/mixed.json"
check "a finding that is not layer 3: skipped and counted, not an error" \
  '[ $status = 0 ] && grep -q "1 findings not seeded (not a layer-3 finding: 1)" "$OUT/mixed.out"'
run missing scenarios seed --findings "$OUT/no-such" --out "$OUT/x.json"
check "a missing findings folder: exit 2 naming it" '[ $status = 2 ] && grep -q "no-such: no such folder" "$OUT/missing.err" && [ ! -e "$OUT/x.json" ]'
mkdir -p "$OUT/bad1/findings" "$OUT/bad2/findings"
$PY -c "
import json,sys
f=json.load(open(sys.argv[1])); f['root']=5
json.dump(f,open(sys.argv[2]+'/diverge-1111111111111111111111111111111111111111.json','w'))
f=json.load(open(sys.argv[1])); f['input']={'base64':'WzEsIDJd','text':'[1, 2]','bytes':6}
json.dump(f,open(sys.argv[3]+'/diverge-2222222222222222222222222222222222222222.json','w'))" "$f" "$OUT/bad1/findings" "$OUT/bad2/findings"
run bad1 scenarios seed --findings "$OUT/bad1" --out "$OUT/x.json"
check "a finding file that breaks its format: exit 2 naming the file and field" \
  '[ $status = 2 ] && grep -q "diverge-1111111111111111111111111111111111111111.json.*root" "$OUT/bad1.err" && [ ! -e "$OUT/x.json" ]'
run bad2 scenarios seed --findings "$OUT/bad2" --out "$OUT/x.json"
check "a layer-3 finding whose input is not a row: exit 2 naming the file and field input" \
  '[ $status = 2 ] && grep -q "diverge-2222222222222222222222222222222222222222.json: field .input.: not a JSON object" "$OUT/bad2.err"'
run badmerge scenarios seed --findings "$OUT/r1" --out "$OUT/x.json" --merge "$ROOT/tests/data/scenarios/bad/request-id.json"
check "a malformed --merge file: exit 2 naming the file, row and field" \
  '[ $status = 2 ] && grep -q "bad/request-id.json: .*field .request.id.: expected the row id" "$OUT/badmerge.err" && [ ! -e "$OUT/x.json" ]'
run notjson scenarios seed --findings "$OUT/r1" --out "$OUT/x.json" --merge "$ROOT/tests/data/scenarios/bad/not-json.json"
check "a --merge file that is not JSON: exit 2 naming it" '[ $status = 2 ] && grep -q "bad/not-json.json.*not JSON" "$OUT/notjson.err"'
cp "$SEED" "$OUT/mine.json"
run clobber scenarios seed --findings "$OUT/r1" --out "$OUT/mine.json"
check "an --out that is not an earlier seed output is not replaced: exit 2" \
  '[ $status = 2 ] && grep -q "not an earlier scenarios seed output" "$OUT/clobber.err" && cmp -s "$SEED" "$OUT/mine.json"'
run again scenarios seed --findings "$OUT/r1" --out "$OUT/s1.json"
check "... an earlier seed output is" '[ $status = 0 ] && cmp -s "$OUT/s1.json" "$OUT/s2.json"'
finish
