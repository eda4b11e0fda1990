#!/usr/bin/env bash
# canonical_fuzz.sh BUILD_DIR: `crosscheck fuzz` at both layers, end to end with the real binary.
#  1. a validator that only runs the structural parse (a layer-2 fault planted in front of the
#     reference) is found in a 10 s run: a canonical-acceptance finding with both layers' results;
#  2. the finding replays at both layers, in the same bucket, and reduces in it;
#  3. an equivalent validator (same verdicts, errors in another order, other messages) gives no
#     layer-2 finding;
#  4. --layers structural runs layer 1 alone; an unknown layer name exits 2 listing the known ones;
#     an adapter without the layer is left out of it, and the summary says so.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
FAULTY="python3 $ROOT/tests/fake_adapters/faulty_proxy.py --canonical-fault parse-only -- $CC serve-adapter"
EQUIVALENT="python3 $ROOT/selftest/equivalent_adapter.py -- $CC serve-adapter"

# 1. The planted layer-2 fault.
"$CC" fuzz --time 10s --seed 3 --adapters cpp --adapter "faulty=$FAULTY" --layers structural,canonical \
  --reduce-budget 0 --verbose --out "$OUT/fault" >"$OUT/fault.log" 2>&1
rc=$?
check "a planted canonical fault makes the run fail (exit $rc)" "[ $rc = 1 ]"
check "the finding is canonical-acceptance, cpp invalid and faulty valid, with both layers' results" "python3 - '$OUT/fault' <<'PY'
import glob, json, sys
hits = []
for f in glob.glob(sys.argv[1] + '/findings/*.json'):
    d = json.load(open(f))
    for dv in d['divergences']:
        if dv['class'] != 'canonical-acceptance':
            continue
        assert dv['layer'] == 'canonical', dv
        # A big integer the faulty side's parse refuses is the one other case (implementation-defined).
        if dv['implementationDefined']:
            continue
        # Where the reference's own layers disagree (findings.md §10: canonically valid, structurally
        # refused), parse-only answers with the decoder: the mirror, cpp valid and faulty invalid.
        if dv['signature'].startswith('canonical|canonical-acceptance|cpp=valid,faulty=invalid|') and any(
                x['signature'].startswith('canonical|layer-inconsistency|cpp|') for x in d['divergences']):
            continue
        assert dv['signature'].startswith('canonical|canonical-acceptance|cpp=invalid,faulty=valid|'), dv
        verdicts = {v['implementation']: v for v in d['validations']}
        assert verdicts['cpp']['verdict'] == 'invalid' and verdicts['faulty']['verdict'] == 'valid', verdicts
        assert verdicts['cpp']['errors'] and all('keyword' in e for e in verdicts['cpp']['errors']), verdicts['cpp']
        assert d['document'] and {r['implementation'] for r in d['results']} == {'cpp', 'faulty'}, d['document']
        hits.append(f)
    for dv in d['divergences']:
        assert dv['layer'] in ('structural', 'canonical'), dv
        assert dv['layer'] == 'canonical' or not dv['signature'].startswith('canonical|'), dv
assert hits, 'no canonical-acceptance finding'
s = json.load(open(sys.argv[1] + '/summary.json'))
assert s['byLayer'].get('canonical', 0) > 0 and 'structural' in s['byLayer'], s['byLayer']
assert s['byClass'].get('canonical-acceptance', 0) > 0, s['byClass']
open(sys.argv[1] + '/witness', 'w').write(hits[0])
PY"
check "the progress line counts divergences per layer" "grep -q 'divergences by layer: canonical=[1-9]' '$OUT/fault.log'"
check "the summary (--verbose) prints divergences per layer" "grep -q 'divergences per layer' '$OUT/fault.log'"

# 2. Replay at both layers.
witness=$(cat "$OUT/fault/witness" 2>/dev/null)
"$CC" replay --adapters cpp --adapter "faulty=$FAULTY" "$witness" >"$OUT/replay.log" 2>&1
rc=$?
check "the layer-2 finding replays in its bucket (exit $rc)" \
  "[ $rc = 1 ] && grep -q '^REPRODUCES' '$OUT/replay.log' && grep -q 'same bucket [0-9a-f]* canonical canonical-acceptance' '$OUT/replay.log'"

# Reduction keeps the layer and the bucket.
bucket=$(python3 -c "import json,sys; print([d['bucket'] for d in json.load(open(sys.argv[1]))['divergences'] if d['layer'] == 'canonical' and not d['implementationDefined']][0])" "$witness" 2>/dev/null)
"$CC" reduce --adapters cpp --adapter "faulty=$FAULTY" --budget 300 --bucket "$bucket" "$witness" >"$OUT/reduce.log" 2>&1
rc=$?
check "crosscheck reduce keeps a layer-2 finding's layer and bucket (exit $rc)" "python3 - '$witness' <<'PY'
import json, os, sys
original = json.load(open(sys.argv[1]))
minimized = json.load(open(sys.argv[1][:-len('.json')] + '.min.json'))
want = [d for d in original['divergences'] if d['layer'] == 'canonical' and not d['implementationDefined']][0]
kept = [d for d in minimized['divergences'] if d['bucket'] == want['bucket']]
assert kept and kept[0]['layer'] == 'canonical' and kept[0]['class'] == want['class'], minimized['divergences']
assert minimized['validations'] and minimized['document'] == original['document'], minimized.get('document')
assert len(minimized['input']['base64']) <= len(original['input']['base64'])
PY"

# 3. An equivalent validator: nothing at layer 2.
"$CC" fuzz --time 10s --seed 3 --adapters cpp --adapter "equivalent=$EQUIVALENT" --reduce-budget 0 \
  --out "$OUT/equivalent" >"$OUT/equivalent.log" 2>&1
check "an equivalent validator gives no canonical-acceptance (default layers: both)" "python3 - '$OUT/equivalent' <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
assert 'canonical' in s['byLayer'], s['byLayer']
assert s['byClass'].get('canonical-acceptance', 0) == 0, s['byClass']
assert s['sent'] > 0, s
PY"

# 4. Choosing layers, bad names, adapters without the layer.
"$CC" fuzz --runs 300 --seed 3 --adapters cpp --adapter "faulty=$FAULTY" --layers structural --reduce-budget 0 \
  --out "$OUT/structural" >"$OUT/structural.log" 2>&1
check "--layers structural: no layer-2 results or divergences" "python3 - '$OUT/structural' <<'PY'
import glob, json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
assert list(s['byLayer']) == ['structural'], s['byLayer']
assert 'canonicalLeftOut' not in s, s
for f in glob.glob(sys.argv[1] + '/findings/*.json'):
    d = json.load(open(f))
    assert 'validations' not in d and all(dv['layer'] == 'structural' for dv in d['divergences']), f
PY"
"$CC" fuzz --runs 10 --adapters cpp --layers structural,semantic --out "$OUT/bad" >"$OUT/bad.log" 2>&1
rc=$?
check "an unknown layer exits 2 naming the known ones (exit $rc)" \
  "[ $rc = 2 ] && grep -q \"unknown layer 'semantic' (known: structural, canonical, contextual)\" '$OUT/bad.log'"
OLD="python3 $ROOT/tests/fake_adapters/fake_adapter.py"
"$CC" fuzz --runs 200 --seed 3 --adapters cpp --adapter "old=$OLD" --layers structural,canonical --reduce-budget 0 \
  --out "$OUT/old" >"$OUT/old.log" 2>&1
check "an adapter without the canonical layer is left out of it, and the summary says so" \
  "grep -q 'left out of the canonical layer: old (its hello does not list the canonical layer)' '$OUT/old.log' && python3 - '$OUT/old' <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
assert s['canonicalLeftOut'] == {'old': 'its hello does not list the canonical layer'}, s.get('canonicalLeftOut')
PY"
finish
