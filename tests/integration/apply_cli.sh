#!/usr/bin/env bash
# apply_cli.sh BUILD_DIR: `crosscheck apply`, the reference host on one request and response, on rows of
# tests/data/scenarios/composition.json and on bad input (docs/host.md).
source "$(dirname "$0")/lib.sh"
F="$ROOT/tests/data/scenarios/composition.json"
# Each row's request and response as files of their own.
/usr/bin/python3 - "$F" "$OUT" <<'PY'
import json, sys
for row in json.load(open(sys.argv[1]))["scenarios"]:
    for part in ("request", "response"):
        json.dump(row[part], open(f"{sys.argv[2]}/{row['id']}.{part}.json", "w"))
PY
run() {  # run NAME ARGS...: status in $status, stdout in $OUT/NAME.out, stderr in $OUT/NAME.err
  local name=$1; shift
  "$CC" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  status=$?
}
row() { echo --request "$OUT/$1.request.json" --response "$OUT/$2.response.json"; }

run merge apply $(row modify-merge-shallow modify-merge-shallow)
check "an accepted response: exit 0" '[ $status = 0 ]'
check "... prints the derived result with the shallow merge" \
  'grep -qF "{\"accepted\":true,\"actual\":{\"decision\":\"allow\",\"executed\":true,\"input\":{\"task\":1,\"opts\":{\"a\":3},\"note\":null},\"messages\":[]},\"rule\":null,\"message\":null}" "$OUT/merge.out"'
run finish apply $(row finish-continue finish-continue)
check "continue at turn.finish.before: one unit consumed, no input" \
  '[ $status = 0 ] && grep -qF "\"flow\":\"continue\",\"continuationInstructions\":[\"check the tests\"],\"continuationRemaining\":1}" "$OUT/finish.out" && ! grep -q "\"input\"" "$OUT/finish.out"'
run wrongid apply $(row wrong-response-id wrong-response-id)
check "a rejected response: exit 1 naming the rule" \
  '[ $status = 1 ] && grep -qF "{\"accepted\":false,\"actual\":{\"rejected\":true},\"rule\":\"id-correlation\"" "$OUT/wrongid.out"'
run unknown apply $(row unknown-effect-after-valid unknown-effect-after-valid)
check "an unknown effect after valid ones: unknown-effect-type, at its index" \
  '[ $status = 1 ] && grep -qF "\"rule\":\"unknown-effect-type\",\"message\":\"/result/effects/2/type: unknown effect type\"" "$OUT/unknown.out"'
run exhausted apply $(row finish-continue-exhausted finish-continue-exhausted)
check "continue without allowance: continuation-allowance" '[ $status = 1 ] && grep -q "\"rule\":\"continuation-allowance\"" "$OUT/exhausted.out"'
# The same response for another request: the id no longer correlates.
run cross apply $(row allow deny)
check "a response for another request: id-correlation" '[ $status = 1 ] && grep -q "\"rule\":\"id-correlation\"" "$OUT/cross.out"'
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
r = json.load(open(f"{d}/modify-replace.response.json"))
r["result"]["effects"][0]["value"] = {"task": 0}
json.dump(r, open(f"{d}/task-zero.response.json", "w"))
q = json.load(open(f"{d}/finish-continue.request.json"))
del q["params"]["capabilities"]["flow"]["remainingContinuations"]
json.dump(q, open(f"{d}/no-allowance.request.json", "w"))
PY
run host apply --request "$OUT/modify-replace.request.json" --response "$OUT/task-zero.response.json"
check "an input the synthetic host refuses: exit 1, hostAccepted false, nothing executes" \
  '[ $status = 1 ] && grep -qF "\"executed\":false,\"input\":{\"task\":0}" "$OUT/host.out" && grep -qF "\"rule\":\"host-input\"" "$OUT/host.out" && grep -qF "\"hostAccepted\":false" "$OUT/host.out"'

# Bad input: exit 2 naming the file and the field.
printf '{"jsonrpc": "2.0",\n  "id": }' >"$OUT/broken.json"
run notjson apply --request "$OUT/allow.request.json" --response "$OUT/broken.json"
check "a response that is not JSON: exit 2 naming the file and where" \
  '[ $status = 2 ] && grep -q "\-\-response $OUT/broken.json: not JSON: line 2" "$OUT/notjson.err" && [ ! -s "$OUT/notjson.out" ]'
echo '[1]' >"$OUT/array.json"
run array apply --request "$OUT/array.json" --response "$OUT/allow.response.json"
check "a request that is not an object: exit 2 naming the file and field" \
  '[ $status = 2 ] && grep -q "\-\-request $OUT/array.json: field .. (the document): expected a JSON-RPC envelope object" "$OUT/array.err"'
run noncanon apply --request "$OUT/no-allowance.request.json" --response "$OUT/finish-continue.response.json"
check "a request that is not canonical: exit 2 naming the file and the field" \
  '[ $status = 2 ] && grep -q "\-\-request $OUT/no-allowance.request.json: the request is not canonical: /params/capabilities/flow required" "$OUT/noncanon.err"'
run missing apply --request "$OUT/nope.json" --response "$OUT/allow.response.json"
check "a missing file: exit 2 naming it" '[ $status = 2 ] && grep -q "nope.json: cannot read the file" "$OUT/missing.err"'
run usage apply --request "$OUT/allow.request.json"
check "a missing option: exit 2" '[ $status = 2 ] && grep -q "response" "$OUT/usage.err"'
finish
