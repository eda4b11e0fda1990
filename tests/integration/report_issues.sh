#!/usr/bin/env bash
# report_issues.sh BUILD_DIR: `crosscheck report --issues DIR RUN` on a short real fuzz run (cpp,
# python, rust, both layers, no baseline, so every contract bucket fails): one draft per deviating SDK
# and failing contract bucket, each exactly once and nothing else (buckets.jsonl of the same report
# says which); each draft has its sections; a Python reproducer taken out of a draft fails on the real
# SDK; byte-stable; --issues-implementation-defined adds every implementation-defined bucket.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
VPY="$ROOT/.venv/bin/python"

"$CC" fuzz --time 15s --seed 7 --adapters cpp,python,rust --layers structural,canonical --reduce-budget 300 \
  --out "$OUT/run" >"$OUT/fuzz.log" 2>&1
rc=$?
check "the fuzz run ends with its verdict (exit $rc)" "[ $rc = 0 ] || [ $rc = 1 ]"
"$CC" report --issues "$OUT/drafts" "$OUT/run" >"$OUT/report.log" 2>&1
rc=$?
cat "$OUT/report.log"
check "report --issues exits 0 ($rc)" "[ $rc = 0 ]"

check "one draft per deviating SDK and failing contract bucket, each once, and nothing else" "python3 - '$OUT/run/report/buckets.jsonl' '$OUT/drafts' <<'PY'
import json, os, sys
want = set()
for line in open(sys.argv[1]):
    b = json.loads(line)
    if b['implementationDefined'] or not (b['fails'] or b['known']):
        continue
    for impl in b['deviating']:
        if impl != 'cpp' and not impl.startswith('cpp@'):
            want.add('%s-%s.md' % (impl.replace('/', '-'), b['bucket']))
have = sorted(f for f in os.listdir(sys.argv[2]) if f != 'index.md')
print(len(want), 'expected,', len(have), 'written')
sys.exit(0 if want and sorted(want) == have and len(have) == len(set(have)) else 1)
PY"
check "the index lists every draft" \
  "[ \$(grep -c '^- \[' '$OUT/drafts/index.md') = \$(ls '$OUT/drafts' | grep -vc index.md) ]"
check "every draft has its title, witness, observed/expected table, reproducer and replay line" "python3 - '$OUT/drafts' <<'PY'
import os, sys
for f in os.listdir(sys.argv[1]):
    if f == 'index.md':
        continue
    t = open(os.path.join(sys.argv[1], f)).read()
    for part in ('# \`', '## Witness', '## Observed and expected', 'expected (the reference)', 'deviates',
                 '## Reproducer', '## Versions', '## Replay with crosscheck', 'crosscheck replay '):
        if part not in t:
            print(f, 'lacks', part)
            sys.exit(1)
PY"

# A Python reproducer taken out of a draft of a contract acceptance bucket fails on the real SDK.
DRAFT=$(grep -l 'accepts a .* payload the contract rejects' "$OUT"/drafts/python-*.md 2>/dev/null | head -1)
python3 - "$DRAFT" "$OUT/from-draft.py" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"\n(`{3,})python\n(.*?)\n\1\n", text, re.S)
open(sys.argv[2], "w").write(block.group(2) + "\n")
PY
"$VPY" "$OUT/from-draft.py" >"$OUT/from-draft.run" 2>&1
rc=$?
check "the reproducer in a Python acceptance draft fails on the real SDK (exit $rc)" \
  "[ -n '$DRAFT' ] && [ $rc = 1 ] && grep -q 'AssertionError: python answers accepted' '$OUT/from-draft.run'"

"$CC" report --issues "$OUT/drafts-2" "$OUT/run" >/dev/null 2>&1
check "the same run gives the same drafts, byte for byte" "diff -r '$OUT/drafts' '$OUT/drafts-2' >/dev/null"

"$CC" report --issues "$OUT/drafts-id" --issues-implementation-defined "$OUT/run" >/dev/null 2>&1
check "--issues-implementation-defined adds a draft per deviating SDK of every implementation-defined bucket" \
  "python3 - '$OUT/run/report/buckets.jsonl' '$OUT/drafts-id' <<'PY'
import json, os, sys
want = set()
for line in open(sys.argv[1]):
    b = json.loads(line)
    if not (b['implementationDefined'] or b['fails'] or b['known']):
        continue
    for impl in b['deviating']:
        if impl != 'cpp' and not impl.startswith('cpp@'):
            want.add('%s-%s.md' % (impl.replace('/', '-'), b['bucket']))
have = sorted(f for f in os.listdir(sys.argv[2]) if f != 'index.md')
sys.exit(0 if sorted(want) == have and len(have) > len(os.listdir(sys.argv[2].replace('drafts-id', 'drafts'))) - 1 else 1)
PY"
finish
