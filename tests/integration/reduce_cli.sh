#!/usr/bin/env bash
# reduce_cli.sh BUILD_DIR: end-to-end checks of `crosscheck reduce` and of the reduction at the end of
# `crosscheck fuzz`, with the real binary, the small test schema and tests/fake_adapters/needle_adapter.py.
#  1. a finding written by `run` is reduced: exit 0, .min.json beside the untouched original, replay
#     of the .min.json reproduces the bucket;
#  2. bad input exits 2 naming the file, and writes nothing;
#  3. `reduce RUN_DIR` and `fuzz --reduce-budget` write one .min.json per bucket and a "reduced" event.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
SCHEMA="$BUILD/test-data/schemas/mini"
PLANTED="planted=python3 $ROOT/tests/fake_adapters/needle_adapter.py"
ADAPTERS=(--schema "$SCHEMA" --adapters cpp --adapter "$PLANTED")

# 1. A finding from `run`, reduced.
python3 - "$OUT/mini_request.big.json" <<'PY'
import json, sys
lines = [{"line": i, "text": "words %d" % i, "ratio": -12.5e-3, "tags": ["a", None]} for i in range(60)]
v = {"jsonrpc": "2.0", "id": "evt_7f21", "method": "mini/request", "extra": {"lines": lines},
     "params": {"event": {"type": "ping", "count": 123456,
                          "x-vendor": {"list": [1, 2, {"deep": {"needle": {"payload": lines}}}]}}}}
open(sys.argv[1], "w").write(json.dumps(v, indent=1))
PY
"$CC" run "${ADAPTERS[@]}" --out "$OUT/run" "$OUT/mini_request.big.json" >"$OUT/run.log" 2>&1
F=$(ls "$OUT"/run/diverge-*.json 2>/dev/null | head -1)
check "run wrote a finding to reduce" "[ -n '$F' ]"
before=$(sha256sum "$F" | cut -d' ' -f1)
"$CC" reduce "${ADAPTERS[@]}" "$F" >"$OUT/reduce.log" 2>&1
rc=$?
cat "$OUT/reduce.log"
MIN="${F%.json}.min.json"
check "reduce exits 0 and writes the .min.json beside the finding" "[ $rc = 0 ] && [ -f '$MIN' ]"
check "the original finding is untouched" "[ \"\$(sha256sum '$F' | cut -d' ' -f1)\" = '$before' ]"
check "reduce prints sizes, calls, the payload and the replay command" \
  "grep -q '^bytes: ' '$OUT/reduce.log' && grep -q '^calls: ' '$OUT/reduce.log' && grep -q '^input: .*needle' '$OUT/reduce.log' && grep -q \"^replay: crosscheck replay $MIN\" '$OUT/reduce.log'"
check "the minimized finding is small and says where it came from" "python3 - '$MIN' '$F' <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1]))
r = m['reduction']
ok = m['format'] == 'crosscheck-finding/1' and r['from'] == os.path.basename(sys.argv[2])
ok = ok and r['bytesAfter'] == m['input']['bytes'] and r['bytesAfter'] * 10 < r['bytesBefore'] and r['calls'] > 0
sys.exit(0 if ok else 1)
PY"
"$CC" replay "${ADAPTERS[@]}" "$MIN" >"$OUT/replay.log" 2>&1
check "replay of the .min.json reproduces its bucket (exit 1)" "[ $? = 1 ] && grep -q '^REPRODUCES' '$OUT/replay.log'"

# 2. Bad input: exit 2, the file named, nothing written.
bad() {  # name expected-text args...
  local name=$1 text=$2
  shift 2
  "$CC" reduce "${ADAPTERS[@]}" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  check "bad input ($name): exit 2 naming it" "[ $rc = 2 ] && grep -q -- \"$text\" '$OUT/$name.log'"
}
bad missing "nothere.json" "$OUT/nothere.json"
printf '{"not":"a finding"}' >"$OUT/notfinding.json"
bad not-a-finding "notfinding.json: /format: expected .crosscheck-finding/1. (format version)" "$OUT/notfinding.json"
sed 's#crosscheck-finding/1#crosscheck-finding/2#' "$F" >"$OUT/v2.json"
bad other-version "found \\\"crosscheck-finding/2\\\"" "$OUT/v2.json"
bad no-such-bucket "no divergence in bucket 0123456789abcdef" --bucket 0123456789abcdef "$F"
cp "$F" "$OUT/stale.json"
"$CC" reduce --schema "$SCHEMA" --adapters cpp --adapter "planted=python3 $ROOT/tests/fake_adapters/needle_adapter.py --needle other" \
  "$OUT/stale.json" >"$OUT/stale.log" 2>&1
rc=$?
check "a divergence that no longer reproduces: exit 2 naming the file, nothing written" \
  "[ $rc = 2 ] && grep -q 'stale.json: bucket .* does not reproduce' '$OUT/stale.log' && [ ! -e '$OUT/stale.min.json' ]"
check "bad input wrote no .min.json" "[ -z \"\$(ls '$OUT' | grep min.json)\" ]"

# 3. Run folders: reduce --run, and fuzz's own reduction at its end.
"$CC" fuzz --runs 3000 --seed 3 --adapters cpp \
  --adapter "faulty=python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter" \
  --reduce-budget 400 --verbose --out "$OUT/fuzz" >"$OUT/fuzz.log" 2>&1
rc=$?
grep -E '^(reduced|reduction|  not reduced)' "$OUT/fuzz.log"
check "fuzz finds the fault and reduces at its end (--verbose prints each reduction)" "[ $rc = 1 ] && grep -q '^reduction: ' '$OUT/fuzz.log'"
check "each .min.json sits beside its original, and events.jsonl says so" "python3 - '$OUT/fuzz' <<'PY'
import glob, json, os, sys
run = sys.argv[1]
mins = glob.glob(run + '/findings/*.min.json')
events = [json.loads(l) for l in open(run + '/events.jsonl') if l.strip()]
reduced = [e for e in events if e['event'] == 'reduced']
ok = bool(mins) and len(reduced) == len(mins)
for m in mins:
    ok = ok and os.path.exists(m[:-9] + '.json') and json.load(open(m))['reduction']['bytesAfter'] > 0
for e in reduced:
    ok = ok and os.path.exists(os.path.join(run, e['minimized'])) and e['bytesAfter'] <= e['bytesBefore']
sys.exit(0 if ok else 1)
PY"
n_before=$(ls "$OUT/fuzz/findings" | grep -c 'min.json$')
"$CC" reduce "$OUT/fuzz" --adapters cpp \
  --adapter "faulty=python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault unknown-enum-error -- $CC serve-adapter" \
  --budget 300 >"$OUT/again.log" 2>&1
rc=$?
n_after=$(ls "$OUT/fuzz/findings" | grep -c 'min.json$')
check "reduce RUN_DIR on a reduced folder: exit 0, nothing rewritten ($n_before -> $n_after)" \
  "[ $rc = 0 ] && [ $n_after -ge $n_before ] && grep -q 'finding(s) minimized' '$OUT/again.log'"
"$CC" reduce "$OUT/nothere" --adapters cpp >"$OUT/norun.log" 2>&1
check "reduce RUN_DIR on a folder that is not a run: exit 2" "[ $? = 2 ] && grep -q 'nothere' '$OUT/norun.log'"

finish
