#!/usr/bin/env bash
# scenarios_cli.sh BUILD_DIR PART: crosscheck scenarios run and serve-scenarios end to end, against
# the client stand-ins of tests/fake_clients/ (not SDKs). PART: bad-input | skew | byte-exact | robustness | servers.
source "$(dirname "$0")/lib.sh"
part=${2:?usage: scenarios_cli.sh BUILD_DIR PART}
D="$ROOT/tests/data/scenarios"
FAKES="--client-config $ROOT/tests/fake_clients/clients.json"

run() {  # run NAME ARGS...: crosscheck's status in $status, stdout+stderr in $OUT/NAME.txt
  local name=$1; shift
  "$CC" "$@" >"$OUT/$name.txt" 2>&1
  status=$?
}

case $part in
bad-input)
  for f in duplicate-ids both-expectations request-id event-id not-json; do
    run "$f" scenarios run $FAKES --out "$OUT/o" "$D/bad/$f.json"
    check "$f exits 2" '[ $status = 2 ]'
    check "$f names the file" 'grep -q "bad/$f.json" "$OUT/$f.txt"'
  done
  check "duplicate ids name row and field" 'grep -q "scenarios\[1\] (id \"same\"): field .id.: duplicate id" "$OUT/duplicate-ids.txt"'
  check "both expectations name the field" 'grep -q "field .expectError.: expected either" "$OUT/both-expectations.txt"'
  check "request id names the field" 'grep -q "field .request.id.: expected the row id \"row-id\", got \"other\"" "$OUT/request-id.txt"'
  check "event id names the field" 'grep -q "field .request.params.event.id.: expected the row id" "$OUT/event-id.txt"'
  check "not JSON says where" 'grep -q "not JSON: line 2" "$OUT/not-json.txt"'
  run missing scenarios run $FAKES --clients fake-missing --out "$OUT/o" "$D/robust-differ.json"
  check "a client that does not exist exits 3" '[ $status = 3 ]'
  check "... naming it" 'grep -q "client .fake-missing. is unavailable: program not found" "$OUT/missing.txt"'
  run dead scenarios run $FAKES --clients fake-dead --out "$OUT/o" "$D/robust-differ.json"
  check "a client that exits at once exits 3" '[ $status = 3 ]'
  check "... naming it and its stderr" 'grep -q "client .fake-dead. exited at once.*told to exit at once" "$OUT/dead.txt"'
  run unknown scenarios run $FAKES --clients nope --out "$OUT/o" "$D/robust-differ.json"
  check "an unknown client name exits 2 listing the known ones" '[ $status = 2 ] && grep -q "known: fake-a, fake-b" "$OUT/unknown.txt"'
  ;;
skew)
  run old scenarios run $FAKES --clients fake-a --out "$OUT/o1" "$D/old-snapshot.json"
  check "rows lacking harness are skew, not run" 'grep -q "old-1.*skew: missing /params/event/harness" "$OUT/old.txt"'
  check "skew is reported in the summary" 'grep -q "2 skew (not run)" "$OUT/old.txt"'
  check "no batch ran" '[ ! -d "$OUT/o1/clients/fake-a" ]'
  run done scenarios run $FAKES --clients fake-a --complete-harness crosscheck/0.1.0 --out "$OUT/o2" "$D/old-snapshot.json"
  check "--complete-harness runs them" '[ $status = 0 ] && grep -q "0 skew" "$OUT/done.txt"'
  check "... and says so" 'grep -q "completed params.event.harness as crosscheck/0.1.0 in 2 rows" "$OUT/done.txt"'
  check "the batch file carries the completed request" 'grep -q "\"harness\":{\"name\":\"crosscheck\",\"version\":\"0.1.0\"}" "$OUT/o2/clients/fake-a/batch-1/scenarios.json"'
  run badh scenarios run $FAKES --complete-harness nope --out "$OUT/o3" "$D/old-snapshot.json"
  check "a bad --complete-harness exits 2" '[ $status = 2 ] && grep -q "expected NAME/VERSION" "$OUT/badh.txt"'
  ;;
byte-exact)
  export FAKE_RECORD="$OUT/received.txt"
  run exact scenarios run $FAKES --clients fake-a --out "$OUT/o" "$D/composition.json"
  unset FAKE_RECORD
  # Every reply line after discovery is the row's response exactly as the file spells it.
  /usr/bin/python3 - "$D/composition.json" "$OUT/received.txt" >"$OUT/exact-check.txt" 2>&1 <<'PY'
import json, sys
text = open(sys.argv[1], "rb").read()
lines = open(sys.argv[2], "rb").read().split(b"\n")[1:-1]
rows = json.loads(text)["scenarios"]
assert len(lines) == len(rows), (len(lines), len(rows))
for row, line in zip(rows, lines):
    spelled = json.dumps(row["response"], separators=(", ", ": ")).encode()
    assert line == spelled, (row["id"], line[:200], spelled[:200])
    assert spelled in text, row["id"]
print("all", len(rows), "responses byte-exact")
PY
  check "every scripted response arrives byte for byte" 'grep -q "all 32 responses byte-exact" "$OUT/exact-check.txt"'
  check "the invalid null-effects response arrives unrepaired" 'grep -q "\"id\": \"null-effects\", \"result\": {\"protocolVersion\": \"draft\", \"effects\": null}" "$OUT/received.txt"'
  check "receipts record each request once, none differing" '[ "$(grep -c "\"reply\":\"scripted\",\"problems\":\[\]" "$OUT/o/clients/fake-a/batch-1/receipts.jsonl")" = 32 ]'
  ;;
robustness)
  for kind in hang crash malformed no-report; do
    run "$kind" scenarios run $FAKES --clients fake-a --batch-deadline 15s --out "$OUT/$kind" "$D/robust-$kind.json"
    check "$kind: exits 1" '[ $status = 1 ]'
    for r in r1 r2 r3; do
      check "$kind: $r still passes" 'grep -qE "^ *$r +passed" "$OUT/$kind.txt"'
    done
  done
  check "hang: the row is a timeout" 'grep -qE "bad-hang +passed +timeout" "$OUT/hang.txt"'
  check "crash: the row is a crash" 'grep -qE "bad-crash +passed +crash" "$OUT/crash.txt"'
  check "malformed report: the row is a protocol result" 'grep -qE "bad-malformed +passed +protocol" "$OUT/malformed.txt"'
  check "no report: the row is a protocol result" 'grep -qE "bad-no-report +passed +protocol" "$OUT/no-report.txt"'
  check "the batch was split to find it" 'grep -q "split to find the row" "$OUT/crash.txt"'
  run flood scenarios run $FAKES --clients fake-a --out "$OUT/flood" "$D/robust-flood.json"
  check "stderr flood (64 MiB): every row still passes, exit 0" \
    '[ $status = 0 ] && [ "$(grep -cE "^ *(r1|r2|r3|bad-flood) +passed" "$OUT/flood.txt")" = 4 ]'
  check "stderr flood: only a bounded tail is kept" '[ "$(stat -c %s "$OUT"/flood/clients/fake-a/batch-1/stderr.txt)" -le 65536 ]'
  run partial scenarios run $FAKES --clients fake-a --out "$OUT/partial" "$D/robust-partial.json"
  check "partial report: the missing row is a protocol result" 'grep -qE "bad-partial +passed +protocol" "$OUT/partial.txt"'
  check "partial report: the others pass" 'grep -qE "^ *r3 +passed" "$OUT/partial.txt"'
  run extra scenarios run $FAKES --clients fake-a --out "$OUT/extra" "$D/robust-extra.json"
  check "results for ids not given are notes, not results" '[ $status = 0 ] && grep -q "a result for \"not-given\", a row it was not given" "$OUT/extra.txt"'
  run differ scenarios run $FAKES --clients fake-a,fake-b --out "$OUT/differ" "$D/robust-differ.json"
  check "two clients that differ: exit 1" '[ $status = 1 ]'
  f=$(ls "$OUT"/differ/findings/contextual-result-*.json 2>/dev/null | grep -v scenario.json | head -1)
  check "a contextual-result finding naming the keys" '[ -n "$f" ] && grep -q "\"bucket\": \"contextual-result/tool.before/decision,executed\"" "$f"'
  replay=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["replay"])' "$f" 2>/dev/null)
  # The replay command as written, with the stand-ins' configuration and a fresh output folder.
  eval "\"$CC\" ${replay#crosscheck } $FAKES --out \"$OUT/replay\"" >"$OUT/replay.txt" 2>&1
  replay_status=$?
  check "the finding's replay command reproduces it" '[ $replay_status = 1 ] && grep -q "contextual-result: fake-b differs from the reference on decision, executed" "$OUT/replay.txt"'
  check "the reference (cpp) runs first and the blame goes to the client that differs from it" \
    'grep -qE "^bad-differ +passed +passed +failed\(decision,executed\) +contextual-result: fake-b differs from the reference" "$OUT/differ.txt"'
  ;;
servers)
  # Request admission (--servers) against the server stand-in of tests/fake_clients/fake_server.py.
  run srv scenarios run --servers $FAKES --clients fake-a,fake-b --request-deadline 3s --out "$OUT/srv" "$D/robust-servers.json"
  check "servers: a refusal that differs, and broken answers: exit 1" '[ $status = 1 ]'
  for r in a1 a2 a3 flood; do
    check "servers: $r is admitted everywhere (a hang, a crash or an 8 MiB stderr flood before it loses nothing)" \
      'grep -qE "^$r +admitted +admitted +admitted +ok" "$OUT/srv.txt"'
  done
  check "servers: a hang is a timeout, and the server is started again" 'grep -qE "^hang +admitted +timeout +timeout" "$OUT/srv.txt"'
  check "servers: a death is a crash, with its stderr" 'grep -q "row crash: crash: exited with status 3; stderr: fake server: told to crash" "$OUT/srv.txt"'
  check "servers: a line that is not JSON is a protocol result" 'grep -qE "^garbage +admitted +protocol +protocol" "$OUT/srv.txt"'
  check "servers: a result for another id is a protocol result" 'grep -q "a result for id \"another-id\", the request.s is \"wrong-id\"" "$OUT/srv.txt"'
  check "servers: the refusal is request-admission, blamed on the server that differs from the reference" \
    'grep -qE "^refuse +admitted +admitted +refused +request-admission: .*deviating from the reference: fake-b" "$OUT/srv.txt"'
  check "servers: a refusal that only follows earlier rows is asked again alone" \
    'grep -q "row stateful: refused in a session after earlier rows .*admitted alone" "$OUT/srv.txt" && grep -qE "^stateful +admitted +admitted +admitted" "$OUT/srv.txt"'
  f=$(ls "$OUT"/srv/findings/request-admission-*.json 2>/dev/null | grep -v scenario.json | head -1)
  check "servers: one finding file, valid, with the bucket" \
    '[ "$(ls "$OUT"/srv/findings/*.json | grep -vc scenario.json)" = 1 ] && grep -q "\"bucket\": \"request-admission/tool.before/cpp=admitted,fake-a=admitted,fake-b=refused\"" "$f"'
  replay=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["replay"])' "$f" 2>/dev/null)
  eval "\"$CC\" ${replay#crosscheck } $FAKES --out \"$OUT/srv-replay\"" >"$OUT/srv-replay.txt" 2>&1
  replay_status=$?
  check "servers: the replay command reproduces it" '[ $replay_status = 1 ] && grep -qE "^refuse +admitted +admitted +refused +request-admission" "$OUT/srv-replay.txt"'
  run srv-dead scenarios run --servers $FAKES --clients fake-server-dead --out "$OUT/o" "$D/robust-servers.json"
  check "servers: a server that exits before answering: exit 3 naming it and its stderr" \
    '[ $status = 3 ] && grep -q "server of .fake-server-dead. exited before answering its first request.*gone at once" "$OUT/srv-dead.txt"'
  run srv-missing scenarios run --servers $FAKES --clients fake-server-missing --out "$OUT/o" "$D/robust-servers.json"
  check "servers: a server program that does not exist: exit 3 naming it" \
    '[ $status = 3 ] && grep -q "fake-server-missing" "$OUT/srv-missing.txt"'
  ;;
*) echo "unknown part $part"; exit 2 ;;
esac
finish
