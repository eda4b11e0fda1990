#!/usr/bin/env bash
# contextual_fuzz.sh BUILD_DIR: layer 3 in `crosscheck fuzz` (src/layers/contextual/campaign) with the real
# binary and the stand-in clients of tests/fake_clients (not SDKs): fake-a derives allow with the
# request's input on every row, so it differs from the reference host wherever the reference rejects
# or derives something else.
#  1. generated batches run on the client and the reference; each divergent row is a contextual
#     finding in the run folder; summary.json, state.json and rule-coverage.json say so; no summary
#     of layers 1 and 2 is printed when they did not run;
#  2. the run resumes at the next batch, `reduce` minimizes its findings, and a finding replays;
#  3. --deterministic runs of one seed find the same rows;
#  4. bad input: an unknown layer, an unknown client, layer 3 asked with no client available: exit 2;
#  5. a client that works on its first batch and then exits at once gives crash results, and the run
#     goes on to its last batch;
#  6. two shards share the batches out and merge into one folder: findings, counts, rule coverage
#     (summed, and not counted twice when merged again).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
CLIENTS=(--client-config "$ROOT/tests/fake_clients/clients.json" --clients fake-a)

# 1. Two batches of 12 rows, layer 3 alone.
"$CC" fuzz --layers contextual "${CLIENTS[@]}" --adapters cpp --runs 1 --scenario-batches 2 --scenario-batch 12 \
  --seed 4 --verbose --out "$OUT/l3" >"$OUT/l3.log" 2>&1
rc=$?
check "the stand-in's differences fail the run (exit 1, got $rc)" "[ $rc = 1 ]"
check "two batches of 12 rows ran (--verbose says so)" "grep -q 'layer 3: 24 rows in 2 batches' '$OUT/l3.log'"
check "layer 3 alone prints no summary of the layers that did not run" \
  "! grep -q 'divergences per layer' '$OUT/l3.log' && [ -f '$OUT/l3/summary.json' ]"
check "every finding is layer 3 and names fake-a, with its row" "python3 - '$OUT/l3' <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1] + '/findings/*.json')
assert files, 'no finding'
for f in files:
    d = json.load(open(f))
    assert d['scenario']['clients'] == ['fake-a'], d['scenario']['clients']
    for dv in d['divergences']:
        assert dv['layer'] == 'contextual', dv
    assert any('fake-a' in dv['implementations'] for dv in d['divergences']), f
PY"
check "summary.json counts the contextual layer, state.json the next batch" "python3 - '$OUT/l3' <<'PY'
import glob, json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
n = len(glob.glob(sys.argv[1] + '/findings/*.json'))
assert s['byLayer'].get('contextual', 0) >= n > 0, s['byLayer']
assert s['divergentInputs'] == n, (s['divergentInputs'], n)
assert s['findings'] == n
assert 'fake-a' in [i['name'] for i in s['implementations']]
assert json.load(open(sys.argv[1] + '/state.json'))['contextualBatches'] == 2
c = json.load(open(sys.argv[1] + '/rule-coverage.json'))
assert c['rows'] == 24, c['rows']
PY"
check "the summary passes its schema (crosscheck report reads it)" "'$CC' report '$OUT/l3' >/dev/null 2>&1"

# 2. Resume at batch 2, then replay one finding.
"$CC" fuzz --layers contextual "${CLIENTS[@]}" --adapters cpp --runs 1 --scenario-batches 1 --scenario-batch 12 \
  --seed 4 --out "$OUT/l3" >"$OUT/l3b.log" 2>&1
check "the second session resumes at batch 2" "grep -q 'layer 3: resuming at batch 2' '$OUT/l3b.log'"
check "and leaves the next batch at 3, the coverage over 36 rows" "python3 - '$OUT/l3' <<'PY'
import json, sys
assert json.load(open(sys.argv[1] + '/state.json'))['contextualBatches'] == 3
assert json.load(open(sys.argv[1] + '/rule-coverage.json'))['rows'] == 36
PY"
"$CC" fuzz --layers structural,contextual "${CLIENTS[@]}" --adapters cpp --runs 200 --scenario-batches 1 \
  --scenario-batch 2 --seed 4 --reduce-budget 0 --verbose --out "$OUT/small" >"$OUT/small.log" 2>&1
check "beside layer 1, layer 1's summary is printed (--verbose)" "grep -q 'divergences per layer' '$OUT/small.log'"
"$CC" reduce --adapters cpp --budget 30 "$OUT/small" >"$OUT/reduce.log" 2>&1
rc=$?
check "crosscheck reduce on a fuzz folder minimizes its layer-3 findings on their client (exit $rc)" \
  "[ $rc = 0 ] && grep -q 'client runs' '$OUT/reduce.log' && ls '$OUT/small/findings' | grep -q '\.min\.json$'"
first=$(ls "$OUT/l3/findings/"*.json | head -1)
"$CC" replay "$first" >"$OUT/replay.log" 2>&1
rc=$?
check "a layer-3 finding replays and still diverges (exit 1, got $rc)" "[ $rc = 1 ]"

# 3. Deterministic runs of one seed: the same finding files.
for d in det1 det2; do
  "$CC" fuzz --layers contextual "${CLIENTS[@]}" --adapters cpp --runs 1 --scenario-batches 1 --scenario-batch 10 \
    --deterministic --seed 9 --out "$OUT/$d" >"$OUT/$d.log" 2>&1
done
check "without --verbose the run ends with its story: the verdict, then layer 3's line with its rows" \
  "grep -q '^FAILED: [0-9]* new failing bucket' '$OUT/det1.log' && grep -q '^  contextual: 10 scenario rows, ' '$OUT/det1.log' &&
   ! grep -q '^layer 3: 10 rows in 1 batches' '$OUT/det1.log'"
check "two --deterministic runs find the same rows" \
  "[ -n \"\$(ls '$OUT/det1/findings')\" ] && [ \"\$(ls '$OUT/det1/findings')\" = \"\$(ls '$OUT/det2/findings')\" ]"

# 4. Bad input.
"$CC" fuzz --layers structural,situational --adapters cpp --runs 1 --out "$OUT/bad1" >"$OUT/bad1.log" 2>&1
rc=$?
check "an unknown layer: exit 2 naming the known ones (got $rc)" \
  "[ $rc = 2 ] && grep -q 'known: structural, canonical, contextual' '$OUT/bad1.log'"
"$CC" fuzz --layers contextual --client-config "$ROOT/tests/fake_clients/clients.json" --clients nope --adapters cpp \
  --runs 1 --out "$OUT/bad2" >"$OUT/bad2.log" 2>&1
rc=$?
check "an unknown client: exit 2 (got $rc)" "[ $rc = 2 ] && grep -q 'nope' '$OUT/bad2.log'"
"$CC" fuzz --layers contextual --client-config "$ROOT/tests/fake_clients/clients.json" --adapters cpp --runs 1 \
  --out "$OUT/bad3" >"$OUT/bad3.log" 2>&1
rc=$?
check "layer 3 asked, no client of the running adapters: exit 2 naming who supports it (got $rc)" \
  "[ $rc = 2 ] && grep -q 'fake-a' '$OUT/bad3.log'"
"$CC" fuzz --adapters cpp --client-config "$ROOT/tests/fake_clients/clients.json" --runs 200 --out "$OUT/none" \
  >"$OUT/none.log" 2>&1
check "by default, without a client of the running adapters, layer 3 is left out with a note" \
  "grep -q 'layer 3 left out' '$OUT/none.log' && [ ! -e '$OUT/none/rule-coverage.json' ]"

# 5. A client that dies after its first batch.
python3 - "$ROOT" "$OUT" <<'PY'
import json, sys
root, out = sys.argv[1], sys.argv[2]
json.dump({"clients": [{"name": "fake-once", "description": "works once, then exits at once",
                        "argv": ["/usr/bin/python3", root + "/tests/fake_clients/fake_client.py"],
                        "env": {"FAKE_ONCE": out + "/once-marker"}, "requires": []}]},
          open(out + "/once.json", "w"))
PY
"$CC" fuzz --layers contextual --client-config "$OUT/once.json" --clients fake-once --adapters cpp --runs 1 \
  --scenario-batches 3 --scenario-batch 4 --seed 2 --verbose --out "$OUT/once" >"$OUT/once.log" 2>&1
rc=$?
check "a client gone after its first batch: crash results, all 3 batches run (exit 1, got $rc)" \
  "[ $rc = 1 ] && grep -q 'layer 3: 12 rows in 3 batches' '$OUT/once.log' && ls '$OUT/once/findings' | grep -q '^crash-fake-once-'"
check "the batch folders it broke on are kept as evidence, the others removed" \
  "[ -n \"\$(ls '$OUT/once/clients/fake-once')\" ] && ! ls '$OUT/once/clients/fake-once' | grep -qx 'batch-1'"

# 6. Shards and merge.
for i in 0 1; do
  "$CC" fuzz --layers contextual "${CLIENTS[@]}" --adapters cpp --runs 1 --scenario-batches 2 --scenario-batch 6 \
    --seed 3 --shard $i/2 --verbose --out "$OUT/shard$i" >"$OUT/shard$i.log" 2>&1
done
check "shard 0 runs batches 0 and 2, shard 1 batches 1 and 3" \
  "grep -q 'layer 3: batch 2:' '$OUT/shard0.log' && ! grep -q 'layer 3: batch 1:' '$OUT/shard0.log' &&
   grep -q 'layer 3: batch 3:' '$OUT/shard1.log' && ! grep -q 'layer 3: batch 0:' '$OUT/shard1.log'"
"$CC" merge "$OUT/merged" "$OUT/shard0" "$OUT/shard1" >"$OUT/merge.log" 2>&1
"$CC" merge "$OUT/merged" "$OUT/shard0" "$OUT/shard1" >>"$OUT/merge.log" 2>&1
check "the merged folder has both shards' layer-3 counts and rule coverage, merged twice" "python3 - '$OUT' <<'PY'
import json, sys
o = sys.argv[1]
s = [json.load(open(o + '/shard%d/summary.json' % i)) for i in (0, 1)]
m = json.load(open(o + '/merged/summary.json'))
assert m['byLayer']['contextual'] == sum(x['byLayer']['contextual'] for x in s), (m['byLayer'], [x['byLayer'] for x in s])
c = json.load(open(o + '/merged/rule-coverage.json'))
assert c['rows'] == 24, c['rows']
PY"
finish
