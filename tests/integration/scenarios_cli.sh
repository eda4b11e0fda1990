#!/usr/bin/env bash
# scenarios_cli.sh BUILD_DIR PART: crosscheck scenarios run and serve-scenarios end to end, against
# the client stand-ins of tests/fake_clients/ (not SDKs). PART: bad-input | skew | byte-exact | robustness |
# servers | baseline | report | replay (the last three: the run folder, through src/run, src/verdict,
# src/baseline and src/report, on tests/data/scenarios/run-folder*.json).
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
  f=$(ls "$OUT"/differ/findings/diverge-*.json 2>/dev/null | head -1)
  check "one finding for the row, a contextual-result naming the keys" \
    '[ "$(ls "$OUT"/differ/findings | wc -l)" = 1 ] && grep -q "\"signature\": \"contextual-result/tool.before/decision,executed\"" "$f" && grep -q "\"layer\": \"contextual\"" "$f"'
  replay=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["replay"])' "$f" 2>/dev/null)
  # The replay command as written (the finding records the stand-ins' configuration).
  eval "\"$CC\" ${replay#crosscheck }" >"$OUT/replay.txt" 2>&1
  replay_status=$?
  check "the finding's replay command reproduces it" '[ $replay_status = 1 ] && grep -q "REPRODUCES: all" "$OUT/replay.txt" && grep -q "contextual-result: fake-b differs from the reference on decision, executed" "$OUT/replay.txt"'
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
  f=$(grep -l "request-admission/" "$OUT"/srv/findings/*.json 2>/dev/null | head -1)
  check "servers: the refusal's finding, with the bucket" \
    '[ -n "$f" ] && grep -q "\"signature\": \"request-admission/tool.before/cpp=admitted,fake-a=admitted,fake-b=refused\"" "$f"'
  check "servers: the broken answers are crash / timeout / protocol findings" \
    'ls "$OUT"/srv/findings | grep -q "^crash-fake-a-" && ls "$OUT"/srv/findings | grep -q "^timeout-fake-a-"'
  replay=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["replay"])' "$f" 2>/dev/null)
  eval "\"$CC\" ${replay#crosscheck }" >"$OUT/srv-replay.txt" 2>&1
  replay_status=$?
  check "servers: the replay command reproduces it" '[ $replay_status = 1 ] && grep -qE "^refuse +admitted +admitted +refused" "$OUT/srv-replay.txt" && grep -q "REPRODUCES" "$OUT/srv-replay.txt"'
  run srv-dead scenarios run --servers $FAKES --clients fake-server-dead --out "$OUT/o" "$D/robust-servers.json"
  check "servers: a server that exits before answering: exit 3 naming it and its stderr" \
    '[ $status = 3 ] && grep -q "server of .fake-server-dead. exited before answering its first request.*gone at once" "$OUT/srv-dead.txt"'
  run srv-missing scenarios run --servers $FAKES --clients fake-server-missing --out "$OUT/o" "$D/robust-servers.json"
  check "servers: a server program that does not exist: exit 3 naming it" \
    '[ $status = 3 ] && grep -q "fake-server-missing" "$OUT/srv-missing.txt"'
  ;;
baseline)
  # fake-b's deny on known-differ is listed (by globs over the signatures); its rejection on
  # unlisted-reject is not.
  cat >"$OUT/known.json" <<'JSON'
{"format": "crosscheck-baseline/1", "entries": [
  {"id": "fake-b-denies", "implementations": ["fake-b"], "bucket": "contextual-result/tool.before/decision,executed",
   "class": "contextual-result", "reason": "the stand-in denies rows tagged fake:differ", "link": "tests/fake_clients/fake_client.py"},
  {"id": "fake-b-denies-expectation", "implementations": ["fake-b"], "bucket": "contextual-expectation/fake-b/*/keys:decision,executed",
   "reason": "the same, against the row", "link": "tests/fake_clients/fake_client.py"},
  {"id": "fake-a-never", "implementations": ["fake-a"], "bucket": "*fake-a=rejected*", "reason": "never seen", "link": "x"}
]}
JSON
  run known scenarios run $FAKES --clients fake-a,fake-b --baseline "$OUT/known.json" --out "$OUT/k" "$D/run-folder.json"
  check "a finding the baseline lists: exit 0" '[ $status = 0 ]'
  check "... listed as known, by entry" 'grep -q "known: entry fake-b-denies (fake-b): 1 bucket, 1 occurrence" "$OUT/known.txt" && grep -q "known: entry fake-b-denies-expectation" "$OUT/known.txt"'
  check "... the entry that matched nothing is stale" 'grep -q "stale: entry fake-a-never (fake-a): not seen in this run" "$OUT/known.txt"'
  check "... the row still shows its difference" 'grep -qE "^known-differ +passed +passed +failed\(decision,executed\) +contextual-result: fake-b differs from the reference" "$OUT/known.txt"'
  check "... the run folder has run.json, summary.json, one finding" \
    '[ -f "$OUT/k/run.json" ] && [ -f "$OUT/k/summary.json" ] && [ "$(ls "$OUT"/k/findings | grep -c "^diverge-.*\.json$")" = 1 ]'
  check "... baseline-check.json through its writer, every bucket known" \
    '/usr/bin/python3 -c "import json,sys; c=json.load(open(sys.argv[1])); assert c[\"format\"]==\"crosscheck-baseline-check/1\" and not c[\"new\"] and len(c[\"known\"])==2, c" "$OUT/k/baseline-check.json"'
  run kv verdict "$OUT/k"
  check "... verdict.json says passed (crosscheck verdict: exit 0)" '[ $status = 0 ]'
  run new scenarios run $FAKES --clients fake-a,fake-b --baseline "$OUT/known.json" --out "$OUT/n" "$D/run-folder.json" "$D/run-folder-new.json"
  check "an unlisted finding: exit 1" '[ $status = 1 ]'
  check "... NEW, with its signature, deviating client and replay command" \
    'grep -q "^NEW contextual-acceptance" "$OUT/new.txt" && grep -q "signature: contextual-acceptance/tool.before/cpp=derived,fake-a=derived,fake-b=rejected" "$OUT/new.txt" && grep -q "deviating: fake-b (differs from the reference cpp)" "$OUT/new.txt" && grep -q "replay:    crosscheck replay .*/n/findings/diverge-" "$OUT/new.txt"'
  check "... the listed one stays known" 'grep -q "known: entry fake-b-denies (fake-b)" "$OUT/new.txt"'
  run nv verdict "$OUT/n"
  check "... crosscheck verdict on the folder: exit 1" '[ $status = 1 ]'
  run nobase scenarios run $FAKES --clients fake-a,fake-b --out "$OUT/k" "$D/run-folder.json"
  check "without --baseline the same folder fails (every bucket new) and the old check is gone" \
    '[ $status = 1 ] && [ ! -f "$OUT/k/baseline-check.json" ] && grep -q "FAILED" "$OUT/nobase.txt"'
  run nbv verdict "$OUT/k"
  check "... its verdict.json, decided by scenarios run: exit 1" '[ $status = 1 ] && grep -q "\"decidedBy\": \"scenarios run\"" "$OUT/k/verdict.json"'
  printf '{"format": "crosscheck-baseline/1", "entries": [{"id": "x", "implementations": ["fake-b"], "bucket": "*", "reasn": "typo", "link": "l"}]}' >"$OUT/bad.json"
  run bad scenarios run $FAKES --clients fake-a,fake-b --baseline "$OUT/bad.json" --out "$OUT/b" "$D/run-folder.json"
  check "a bad baseline: exit 2 naming the file, entry and field, nothing run" \
    '[ $status = 2 ] && grep -q "bad.json: entries\[0\] (id \"x\"): field .reasn." "$OUT/bad.txt" && [ ! -e "$OUT/b/run.json" ]'
  run clash scenarios run $FAKES --clients fake-a --out "$OUT/fz" "$D/run-folder.json"
  printf '{"format": "crosscheck-fuzz/1", "seed": 1, "roots": [], "implementations": "cpp", "schema": "x"}' >"$OUT/fz/run.json"
  run clash scenarios run $FAKES --clients fake-a --out "$OUT/fz" "$D/run-folder.json"
  check "an --out folder of another command is refused (exit 2)" '[ $status = 2 ] && grep -q "holds a run of another command" "$OUT/clash.txt"'
  ;;
report)
  run rf scenarios run $FAKES --clients fake-a,fake-b --out "$OUT/r" "$D/run-folder.json" "$D/run-folder-new.json"
  run rep report "$OUT/r"
  check "report on a scenario run folder: exit 0, FAILED, every format" \
    '[ $status = 0 ] && grep -q "^FAILED" "$OUT/rep.txt" && for f in report.html junit.xml summary.md buckets.jsonl; do [ -s "$OUT/r/report/$f" ] || exit 1; done'
  check "terminal: the note that it is a scenarios run" 'grep -q "note: a crosscheck scenarios run (layer 3)" "$OUT/rep.txt"'
  check "JSON lines: every bucket's layer is contextual, classes as found" \
    '/usr/bin/python3 -c "
import json,sys
b=[json.loads(l) for l in open(sys.argv[1])]
assert {x[\"layer\"] for x in b}=={\"contextual\"}, b
assert {x[\"class\"] for x in b}=={\"contextual-result\",\"contextual-acceptance\",\"contextual-expectation\"}, b
assert all(x[\"fails\"] for x in b), b
" "$OUT/r/report/buckets.jsonl"'
  check "HTML: the layer column says contextual" 'grep -q "<td class=\"layer\">contextual</td>" "$OUT/r/report/report.html"'
  check "HTML: the <script> of the row is escaped, never raw" \
    '! grep -q "<script>alert" "$OUT/r/report/report.html" && grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$OUT/r/report/report.html"'
  check "HTML: the derived results are shown" 'grep -q "&quot;decision&quot;:&quot;deny&quot;" "$OUT/r/report/report.html"'
  check "JUnit: one failing test case per bucket" \
    '[ "$(grep -c "<testcase " "$OUT/r/report/junit.xml")" = 4 ] && [ "$(grep -c "<failure " "$OUT/r/report/junit.xml")" = 4 ] && ! grep -q "<script>" "$OUT/r/report/junit.xml"'
  check "Markdown: the buckets with their layer" 'grep -q "contextual-result" "$OUT/r/report/summary.md" && grep -q "(contextual)" "$OUT/r/report/summary.md"'
  cat >"$OUT/known.json" <<'JSON'
{"format": "crosscheck-baseline/1", "entries": [
  {"id": "fake-b", "implementations": ["fake-b"], "bucket": "*", "reason": "every stand-in fault", "link": "tests/fake_clients/fake_client.py"}]}
JSON
  run repk report --baseline "$OUT/known.json" --format jsonl "$OUT/r"
  check "report --baseline on it: every bucket known, passed" \
    'grep -q "^passed" "$OUT/repk.txt" && /usr/bin/python3 -c "import json,sys; assert all(not json.loads(l)[\"fails\"] for l in open(sys.argv[1]))" "$OUT/r/report/buckets.jsonl"'
  ;;
replay)
  run rf scenarios run $FAKES --clients fake-a,fake-b --out "$OUT/r" "$D/run-folder.json"
  f=$(ls "$OUT"/r/findings/diverge-*.json | head -1)
  run again replay "$f"
  check "replay of a scenario finding re-runs it on its clients: REPRODUCES, exit 1" \
    '[ $status = 1 ] && grep -q "^REPRODUCES: all 2 bucket(s)" "$OUT/again.txt" && grep -q "same bucket .* contextual contextual-result: fake-b differs from the reference on decision, executed" "$OUT/again.txt"'
  FAKE_FIXED=1 run fixed replay --out "$OUT/fixed-work" "$f"
  check "... with the client fixed: DOES NOT REPRODUCE, exit 0" '[ $status = 0 ] && grep -q "^DOES NOT REPRODUCE" "$OUT/fixed.txt" && [ -d "$OUT/fixed-work/clients/fake-b" ]'
  run srv scenarios run --servers $FAKES --clients fake-a,fake-b --request-deadline 3s --out "$OUT/s" "$D/robust-servers.json"
  f=$(grep -l request-admission "$OUT"/s/findings/*.json | head -1)
  run srv-again replay "$f"
  check "replay of a request-admission finding asks the servers again: exit 1" \
    '[ $status = 1 ] && grep -q "^REPRODUCES" "$OUT/srv-again.txt" && grep -q "request-admission" "$OUT/srv-again.txt"'
  printf '{"format": "crosscheck-finding/1"}' >"$OUT/broken.json"
  run broken replay "$OUT/broken.json"
  check "replay of a finding that breaks its schema: exit 2 naming it" '[ $status = 2 ] && grep -q "broken.json" "$OUT/broken.txt"'
  ;;
*) echo "unknown part $part"; exit 2 ;;
esac
finish
