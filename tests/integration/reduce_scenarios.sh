#!/usr/bin/env bash
# reduce_scenarios.sh BUILD_DIR: `crosscheck reduce` on layer-3 findings (one scenario row), end to end,
# with faults planted by the stand-in clients of tests/fake_clients/ (FAKE_COMPOSE modes) on the long rows
# of tests/data/scenarios/reduce/planted.json:
#  1. ignore-message and null-deletes (batched under renamed ids): the .min.json keeps the bucket, keeps
#     the row id, stays canonical, comes within 1.5x of the hand-minimal row written below (sizes are
#     compact JSON bytes), replays as REPRODUCES, and the original finding is untouched;
#  2. request admission (--servers, the server stand-in refusing a tool name): the same checks;
#     a fault planted only on the row's id (as the Rust client picks its code path by id): the probe sees
#     a renamed copy lose the bucket, every candidate runs alone under the real id, the id is kept;
#  3. `reduce RUN_DIR` on a scenarios run folder;
#  4. bad input: a malformed row (exit 2 naming the file and the field, nothing written), and a layer-1
#     finding still goes the layer-1 way.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
FAKES=(--client-config "$ROOT/tests/fake_clients/clients.json")
PLANTED="$ROOT/tests/data/scenarios/reduce/planted.json"

# The hand-minimal rows: the smallest rows a person writes that still show each fault (every member the
# snapshot requires, capabilities for the one effect, the shortest strings the formats allow).
python3 - "$OUT" <<'PY'
import json, sys
def row(id, caps, effect):
    return {"id": id, "request": {"jsonrpc": "2.0", "id": id, "method": "hooks/intercept", "params": {
        "protocolVersion": "draft", "event": {"id": id, "source": "u:", "type": "tool.before",
        "time": "2026-12-01T00:00:00Z", "harness": {"name": "a", "version": "1"}, "call": {"id": "c"},
        "path": "n", "tool": {"name": "t", "input": {"task": 1}, "origin": "native"}}, "capabilities": caps}},
        "response": {"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "draft", "effects": [effect]}},
        "expected": {}}
rows = {"message": row("planted-message-long-row", {"effects": ["message"]}, {"type": "message", "text": ""}),
        "refused": row("planted-refused-long-row", {"effects": []}, None),
        "null": row("planted-null-merge-long-row",
                    {"effects": ["modify"], "modify": {"input": {"replace": True, "merge": True}}},
                    {"type": "modify", "target": "input", "operation": "merge", "value": {"": None}})}
# request admission: the server stand-in fake-b refuses a tool named fake:refuse; the response is not sent.
refused = rows["refused"]
refused["request"]["params"]["event"]["tool"].update(name="fake:refuse", input={})
refused["response"] = {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "draft"}}
for k, r in rows.items():
    json.dump({"version": 1, "scenarios": [r]}, open(sys.argv[1] + "/hand-" + k + ".json", "w"))
PY

# finding_of DIR ROW_ID: the finding file of that row in a scenarios run folder.
finding_of() { grep -l "\"id\": \"$2\"" "$1"/findings/diverge-*.json 2>/dev/null | grep -v '\.min\.json$' | head -1; }

# check_min NAME CLIENT ROW_ID HAND MIN ORIGINAL [--servers]: the minimized finding against the original
# and the hand row.
check_min() {
  local name=$1 client=$2 id=$3 hand=$4 min=$5 orig=$6 mode=${7:-}
  check "$name: the hand-minimal row shows the same bucket" "{
    rm -rf '$OUT/hand-run'; '$CC' scenarios run $mode ${FAKES[*]} --clients $client --out '$OUT/hand-run' '$hand' >/dev/null 2>&1
    python3 - '$OUT/hand-run' '$orig' <<'PY'
import glob, json, sys
want = {d['bucket'] for d in json.load(open(sys.argv[2]))['divergences']}
got = {d['bucket'] for f in glob.glob(sys.argv[1] + '/findings/diverge-*.json') for d in json.load(open(f))['divergences']}
sys.exit(0 if want & got else 1)
PY
  }"
  python3 - "$min" "$orig" "$hand" "$id" >"$OUT/check.txt" <<'PY'
import json, os, sys
m, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
hand = json.load(open(sys.argv[3]))['scenarios'][0]
row = json.loads(m['input']['text'])
size = lambda r: len(json.dumps(r, separators=(',', ':'), ensure_ascii=False).encode())
target = next(d['bucket'] for d in o['divergences'] if d['class'] in ('contextual-result', 'request-admission'))
print('bucket', int(target in {d['bucket'] for d in m['divergences']}))
ids = {row['id'], row['request']['id'], row['request']['params']['event']['id'], m['scenario']['id']}
print('id', int(ids == {sys.argv[4]}))
print('from', int(m['format'] == 'crosscheck-finding/1' and m['reduction']['from'] == os.path.basename(sys.argv[2])))
print('ratio %.2f' % (size(row) / size(hand)), size(row), size(hand), size(json.loads(o['input']['text'])))
json.dump(row['request'], open(sys.argv[1] + '.request', 'w'))
json.dump(row['response'], open(sys.argv[1] + '.response', 'w'))
PY
  cat "$OUT/check.txt"
  check "$name: the minimized row keeps the bucket" "grep -qx 'bucket 1' '$OUT/check.txt'"
  check "$name: the row id is kept (row, request, event, scenario.id)" "grep -qx 'id 1' '$OUT/check.txt'"
  check "$name: crosscheck-finding/1 with its reduction" "grep -qx 'from 1' '$OUT/check.txt'"
  check "$name: within 1.5x of the hand-minimal row" \
    "awk '/^ratio/ { exit !(\$2 <= 1.5) }' '$OUT/check.txt'"
  check "$name: the minimized request and response stay canonical" \
    "'$CC' validate --document intercept-request '$min.request' >/dev/null && '$CC' validate --document intercept-response '$min.response' >/dev/null"
  "$CC" replay "${FAKES[@]}" "$min" >"$OUT/replay.log" 2>&1
  check "$name: replay of the .min.json reproduces (exit 1)" "[ $? = 1 ] && grep -q '^REPRODUCES' '$OUT/replay.log'"
}

# 1. Two planted faults, batched.
for pair in message:fake-ignore-message:planted-message-long-row null:fake-null-deletes:planted-null-merge-long-row; do
  IFS=: read -r kind client id <<<"$pair"
  "$CC" scenarios run "${FAKES[@]}" --clients "$client" --out "$OUT/run-$kind" "$PLANTED" >/dev/null 2>&1
  F=$(finding_of "$OUT/run-$kind" "$id")
  check "$kind: scenarios run wrote the row's finding" "[ -n '$F' ]"
  before=$(sha256sum "$F" | cut -d' ' -f1)
  "$CC" reduce "${FAKES[@]}" "$F" >"$OUT/reduce-$kind.log" 2>&1
  rc=$?
  cat "$OUT/reduce-$kind.log"
  check "$kind: reduce exits 0 and writes the .min.json" "[ $rc = 0 ] && [ -f '${F%.json}.min.json' ]"
  check "$kind: candidates went out in batches under renamed ids" "grep -q 'batched under renamed ids' '$OUT/reduce-$kind.log'"
  check "$kind: the original finding is untouched" "[ \"\$(sha256sum '$F' | cut -d' ' -f1)\" = '$before' ]"
  check_min "$kind" "$client" "$id" "$OUT/hand-$kind.json" "${F%.json}.min.json" "$F"
done

# 2. The fault only on the row's own id: one candidate per client run, the id kept.
"$CC" scenarios run "${FAKES[@]}" --clients fake-ignore-message-by-id --out "$OUT/run-byid" "$PLANTED" >/dev/null 2>&1
F=$(finding_of "$OUT/run-byid" planted-message-long-row)
"$CC" reduce "${FAKES[@]}" --budget 120 "$F" >"$OUT/reduce-byid.log" 2>&1
rc=$?
cat "$OUT/reduce-byid.log"
check "by-id: reduce exits 0, one row per client run" "[ $rc = 0 ] && grep -q 'one row per run (the bucket needs the real id)' '$OUT/reduce-byid.log'"
check_min by-id fake-ignore-message-by-id planted-message-long-row "$OUT/hand-message.json" "${F%.json}.min.json" "$F"

# 2b. Request admission (--servers): the server stand-in fake-b refuses a tool named fake:refuse.
"$CC" scenarios run --servers "${FAKES[@]}" --clients fake-b --out "$OUT/run-srv" "$ROOT/tests/data/scenarios/reduce/planted-servers.json" >/dev/null 2>&1
F=$(finding_of "$OUT/run-srv" planted-refused-long-row)
"$CC" reduce "${FAKES[@]}" "$F" >"$OUT/reduce-srv.log" 2>&1
rc=$?
cat "$OUT/reduce-srv.log"
check "servers: reduce exits 0, batched on the server" "[ $rc = 0 ] && grep -q 'run of 1 server(s)' '$OUT/reduce-srv.log' && grep -q 'batched under renamed ids' '$OUT/reduce-srv.log'"
check_min servers fake-b planted-refused-long-row "$OUT/hand-refused.json" "${F%.json}.min.json" "$F" --servers

# 3. A scenarios run folder: the row's .min.json (for its contextual-result bucket; its
#    contextual-expectation bucket is the same row's, named in a note), then nothing left to do.
"$CC" scenarios run "${FAKES[@]}" --clients fake-null-deletes --out "$OUT/run-folder" "$PLANTED" >/dev/null 2>&1
"$CC" reduce "${FAKES[@]}" "$OUT/run-folder" >"$OUT/reduce-folder.log" 2>&1
rc=$?
cat "$OUT/reduce-folder.log"
check "folder: reduce RUN_DIR exits 0 and writes the row's .min.json (its other bucket rides along)" \
  "[ $rc = 0 ] && [ \$(ls '$OUT'/run-folder/findings/*.min.json | wc -l) = 1 ] && grep -q '^1 finding(s) minimized' '$OUT/reduce-folder.log'"
"$CC" reduce "${FAKES[@]}" "$OUT/run-folder" >"$OUT/reduce-folder2.log" 2>&1
check "folder: a second reduce finds every bucket covered" "grep -q '^0 finding(s) minimized in 0 of' '$OUT/reduce-folder2.log'"

# 4. Bad input. A row that does not read as a scenario row, or whose id is not the finding's.
F=$(finding_of "$OUT/run-message" planted-message-long-row)
bad() {  # bad NAME PYTHON_EDIT: a copy of the finding with its input edited
  python3 - "$F" "$OUT/bad/findings/diverge-$1.json" "$2" <<'PY'
import base64, json, os, sys
f = json.load(open(sys.argv[1]))
row = json.loads(f['input']['text'])
exec(sys.argv[3])
text = row if isinstance(row, str) else json.dumps(row)
f['input'] = {'base64': base64.b64encode(text.encode()).decode(), 'text': text, 'bytes': len(text.encode())}
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
json.dump(f, open(sys.argv[2], 'w'))
PY
  "$CC" reduce "${FAKES[@]}" "$OUT/bad/findings/diverge-$1.json" >"$OUT/bad-$1.log" 2>&1
  echo $? >"$OUT/bad-$1.rc"
}
bad request-id "row['request']['id'] = 'other'"
check "bad: a row whose request.id is not its id: exit 2 naming the file and the field" \
  "[ \$(cat '$OUT/bad-request-id.rc') = 2 ] && grep -q 'diverge-request-id.json: field .input.: .*request.id' '$OUT/bad-request-id.log'"
bad not-json "row = '{\"id\": '"
check "bad: a row that is not JSON: exit 2 naming the file and the field" \
  "[ \$(cat '$OUT/bad-not-json.rc') = 2 ] && grep -q 'diverge-not-json.json: field .input.' '$OUT/bad-not-json.log'"
bad no-response "del row['response']"
check "bad: a row without its response: exit 2 naming the file and the field" \
  "[ \$(cat '$OUT/bad-no-response.rc') = 2 ] && grep -q 'diverge-no-response.json: field .input.: .*response' '$OUT/bad-no-response.log'"
bad other-id "row['id'] = row['request']['id'] = row['request']['params']['event']['id'] = row['response']['id'] = 'renamed'"
check "bad: a row whose id is not the finding's scenario.id: exit 2 naming the field" \
  "[ \$(cat '$OUT/bad-other-id.rc') = 2 ] && grep -q \"field 'scenario.id'\" '$OUT/bad-other-id.log'"
check "bad: nothing was written" "[ -z \"\$(ls '$OUT'/bad/findings/*.min.json 2>/dev/null)\" ]"

# A layer-1 finding (no "scenario") goes the layer-1 way, as before.
SCHEMA="$BUILD/test-data/schemas/mini"
printf '%s' '{"jsonrpc":"2.0","id":"e","method":"mini/request","params":{"event":{"type":"ping","count":1,"x-vendor":{"needle":1}}}}' \
  >"$OUT/mini_request.json"
"$CC" run --schema "$SCHEMA" --adapters cpp --adapter "planted=python3 $ROOT/tests/fake_adapters/needle_adapter.py" \
  --out "$OUT/l1" "$OUT/mini_request.json" >/dev/null 2>&1
L1=$(ls "$OUT"/l1/diverge-*.json 2>/dev/null | head -1)
"$CC" reduce --schema "$SCHEMA" --adapters cpp --adapter "planted=python3 $ROOT/tests/fake_adapters/needle_adapter.py" \
  --budget 200 "$L1" >"$OUT/l1.log" 2>&1
check "a layer-1 finding is reduced the layer-1 way" "[ -n '$L1' ] && grep -q '^bytes: .*(json reduction)' '$OUT/l1.log'"

finish
