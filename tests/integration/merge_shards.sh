#!/usr/bin/env bash
# merge_shards.sh BUILD_DIR: `crosscheck fuzz --shard I/N` and `crosscheck merge` end to end.
#  1. the two shards of a --deterministic run, merged, hold exactly the finding files, buckets,
#     coverage and counters of the unsharded run (the in-process cpp adapter against a faulty proxy of
#     it, so that the run has findings);
#  2. merging again (the same folder, or a folder named twice) adds nothing and counts nothing twice;
#  3. run.json records the shard; resuming with another shard is refused; bad --shard forms exit 2;
#  4. a folder of another configuration, or not a fuzz folder at all, is refused with exit 2 naming
#     it, and nothing in OUT changes.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PROXY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --fault drop-warnings -- $CC serve-adapter"
RUN=(fuzz --runs 1500 --seed 11 --deterministic --adapters cpp --adapter "faulty=$PROXY")

"$CC" "${RUN[@]}" --out "$OUT/one" >"$OUT/one.log" 2>&1
check "the unsharded run finds the fault (exit 1)" "[ $? = 1 ]"
"$CC" "${RUN[@]}" --shard 0/2 --out "$OUT/s0" >"$OUT/s0.log" 2>&1
check "shard 0/2 runs (exit 0 or 1)" "[ $? -le 1 ]"
"$CC" "${RUN[@]}" --shard 1/2 --out "$OUT/s1" >"$OUT/s1.log" 2>&1
check "shard 1/2 runs (exit 0 or 1)" "[ $? -le 1 ]"
check "run.json records the shard" "grep -q '\"shard\":\"0/2\"' '$OUT/s0/run.json' && grep -q '\"deterministic\":true' '$OUT/s0/run.json'"

"$CC" merge "$OUT/merged" "$OUT/s0" "$OUT/s1" >"$OUT/merge.log" 2>&1
check "merge exits 0" "[ $? = 0 ]"
cat "$OUT/merge.log"

# Findings (names and content but the replay path), buckets, coverage flags and counters.
compare() {
  python3 - "$OUT/one" "$1" "$OUT/s0" "$OUT/s1" <<'PY'
import glob, json, os, sys
one, merged, s0, s1 = sys.argv[1:5]
def findings(d):
    out = {}
    for f in glob.glob(d + '/findings/*.json'):
        v = json.load(open(f))
        v.pop('replay', None)
        out[os.path.basename(f)] = v
    return out
a, b = findings(one), findings(merged)
ok = True
def fail(msg):
    global ok
    ok = False
    print('  ' + msg)
if not a:
    fail('the single run has no findings: the test proves nothing')
if set(a) != set(b):
    fail('finding files differ: only in one run %s, only in merged %s' % (sorted(set(a) - set(b))[:5], sorted(set(b) - set(a))[:5]))
for k in set(a) & set(b):
    if a[k] != b[k]:
        fail('content of %s differs' % k)
# The merge must do real work: neither shard alone has the run's findings, and the cap left some out.
fa, f0, f1 = set(a), set(findings(s0)), set(findings(s1))
if not f0 or not f1 or f0 == fa or f1 == fa:
    fail('each shard should hold part of the findings (%d, %d of %d)' % (len(f0), len(f1), len(fa)))
if len(f0 | f1) <= len(fa):
    fail('expected the per-bucket cap to leave shard files out (%d shard files, %d kept)' % (len(f0 | f1), len(fa)))
buckets = lambda fs: {d['bucket'] for v in fs.values() for d in v['divergences']}
if buckets(a) != buckets(b):
    fail('buckets differ')
ca, cb = json.load(open(one + '/coverage.json')), json.load(open(merged + '/coverage.json'))
for k in ('flags', 'tracked', 'reachedAccepted', 'reachedRejected', 'possibleAccepted', 'possibleRejected',
          'percent', 'percentAll', 'impossibleFlags', 'unreached', 'impossible'):
    if ca[k] != cb[k]:
        fail('coverage.json %s differs' % k)
sa, sb = json.load(open(one + '/summary.json')), json.load(open(merged + '/summary.json'))
for k in ('generated', 'sent', 'divergentInputs', 'contractInputs', 'buckets', 'byClass', 'byRoot', 'byImplementation',
          'bucketRoots'):
    if sa[k] != sb[k]:
        fail('summary %s: one run %s, merged %s' % (k, sa[k], sb[k]))
if float(sa['coveragePercent']) != float(sb['coveragePercent']):
    fail('coveragePercent differs')
print('  %d findings, %d buckets, %s inputs, coverage %s%%' % (len(a), len(buckets(a)), sa['generated'], sa['coveragePercent']))
sys.exit(0 if ok else 1)
PY
}
check "merged shards = the unsharded run (findings, buckets, coverage, counters)" "compare '$OUT/merged'"
check "merged findings replay from the merged folder" "grep -q '\"replay\": \"crosscheck replay $OUT/merged/findings/' \$(ls '$OUT'/merged/findings/*.json | head -1)"
corpus_union() { for d in "$@"; do (cd "$d/corpus" && find . -type f); done | sort -u; }
check "merged corpus is the union of the shards' corpora" "[ \"\$(corpus_union '$OUT/s0' '$OUT/s1')\" = \"\$(corpus_union '$OUT/merged')\" ]"
check "merged events say their shard" "grep -q '\"shard\":\"1/2\"' '$OUT/merged/events.jsonl' && grep -q '\"shard\":\"0/2\"' '$OUT/merged/events.jsonl'"

# 2. Merging again adds nothing.
snapshot() { (cd "$1" && find . -type f ! -name merge.json -print0 | sort -z | xargs -0 sha256sum); }
snapshot "$OUT/merged" >"$OUT/before.txt"
"$CC" merge "$OUT/merged" "$OUT/s0" "$OUT/s0" "$OUT/s1" >"$OUT/merge2.log" 2>&1
check "merging the same folders again exits 0" "[ $? = 0 ]"
snapshot "$OUT/merged" >"$OUT/after.txt"
check "merging the same folders again changes nothing (no duplicate, no double count)" "cmp -s '$OUT/before.txt' '$OUT/after.txt'"
check "merge of a merge: same findings" "\"$CC\" merge '$OUT/merged2' '$OUT/merged' '$OUT/s1' >/dev/null 2>&1 && compare '$OUT/merged2'"

# 3. The shard in run.json, resume, bad forms.
"$CC" "${RUN[@]}" --shard 1/2 --out "$OUT/s0" >"$OUT/reshard.log" 2>&1
rc=$?
check "resuming a folder with another shard is refused (exit 2)" "[ $rc = 2 ] && grep -q 'different configuration' '$OUT/reshard.log'"
for bad in 3/2 a/b 0/0 1 -1/2; do
  "$CC" fuzz --runs 10 --adapters cpp --shard="$bad" --out "$OUT/bad-shard" >"$OUT/bad.log" 2>&1
  rc=$?
  check "--shard $bad exits 2 with the accepted form" "[ $rc = 2 ] && grep -q 'expected I/N' '$OUT/bad.log' && [ ! -e '$OUT/bad-shard' ]"
done

# 4. Refusals leave OUT as it was.
"$CC" fuzz --runs 50 --seed 11 --adapters cpp --out "$OUT/other" >/dev/null 2>&1
"$CC" merge "$OUT/merged" "$OUT/s0" "$OUT/other" >"$OUT/refuse.log" 2>&1
rc=$?
check "a folder of another configuration is refused (exit 2, naming it)" "[ $rc = 2 ] && grep -q '$OUT/other/run.json: another configuration' '$OUT/refuse.log' && grep -q implementations '$OUT/refuse.log'"
snapshot "$OUT/merged" >"$OUT/after2.txt"
check "a refused merge writes nothing" "cmp -s '$OUT/before.txt' '$OUT/after2.txt'"
"$CC" merge "$OUT/fresh" "$OUT/s0" "$OUT/other" >/dev/null 2>&1
check "a refused merge does not create OUT" "[ $? = 2 ] && [ ! -e '$OUT/fresh' ]"
mkdir -p "$OUT/notarun/findings"
"$CC" merge "$OUT/fresh" "$OUT/s0" "$OUT/notarun" >"$OUT/notarun.log" 2>&1
check "a folder without run.json is refused (exit 2)" "[ $? = 2 ] && grep -q 'notarun is not a crosscheck fuzz output folder' '$OUT/notarun.log'"
cp -r "$OUT/s1" "$OUT/broken"
f=$(ls "$OUT"/broken/findings/*.json | head -1)
echo '{"format": "crosscheck-finding/1", "root":' >"$f"
"$CC" merge "$OUT/fresh" "$OUT/s0" "$OUT/broken" >"$OUT/broken.log" 2>&1
check "a broken finding file is refused (exit 2, naming the file)" "[ $? = 2 ] && grep -q \"$f\" '$OUT/broken.log' && [ ! -e '$OUT/fresh' ]"

finish
