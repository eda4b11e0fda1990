#!/usr/bin/env bash
# blame_reports.sh BUILD_DIR: who deviates, on a real run of the C++ decoder and the pinned Python SDK.
# The seed is an intercept_request whose JSON-RPC id is 2^53: the SDK accepts it, the contract (and so
# its reference, cpp) rejects it.
#  1. the bucket blames python, on the basis of the reference, and not cpp;
#  2. buckets.jsonl, junit.xml, summary.md and report.html (its bucket sections and its roots x
#     implementations matrix) name the same deviating implementations and the same basis, for every
#     bucket of the run;
#  3. with the shipped baseline the bucket is known and the blame stays where it was;
#  4. a baseline entry that says the reference is wrong moves the blame to cpp, in every format and in
#     `crosscheck baseline check --json`;
#  5. a baseline whose referenceWrong entry does not name cpp is refused (exit 2, the field).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
RUN="$OUT/run"
mkdir -p "$OUT/seeds"
python3 - "$ROOT/corpus/examples/intercept_request.tool-before.json" "$OUT/seeds/intercept_request.unsafe-id.json" <<'PY'
import sys
text = open(sys.argv[1]).read()
assert '"id": "evt_7f21",\n  "method"' in text
open(sys.argv[2], "w").write(text.replace('"id": "evt_7f21",\n  "method"', '"id": 9007199254740992,\n  "method"', 1))
PY

"$CC" fuzz --runs 200 --seed 4 --deterministic --root intercept_request --seeds "$OUT/seeds" \
  --adapters cpp,python --out "$RUN" >"$OUT/fuzz.log" 2>&1
rc=$?
check "fuzz without a baseline: exit 1 (the safe-integer divergence is a contract one)" "[ $rc = 1 ]"

# agree REPORT_DIR [BUCKET_PATTERN EXPECTED_DEVIATING EXPECTED_BASIS]: every format tells the same blame
# for every bucket; and the bucket whose signature matches the pattern has the expected one.
agree() {
  python3 - "$@" <<'PY'
import html, json, os, re, sys, xml.etree.ElementTree as ET
folder = sys.argv[1]
buckets = [json.loads(l) for l in open(os.path.join(folder, "buckets.jsonl"))]
assert buckets, "no bucket"
page = open(os.path.join(folder, "report.html"), encoding="utf-8").read()
md = open(os.path.join(folder, "summary.md"), encoding="utf-8").read()
suite = ET.parse(os.path.join(folder, "junit.xml")).getroot().find("testsuite")
cases = {c.get("name").split(" ")[0]: c for c in suite.iter("testcase") if c.get("classname") != "crosscheck.root"}
for b in buckets:
    dev, basis = b["deviating"], b["blameBasis"]
    assert basis in ("reference", "reference-wrong", "majority", "own-failure", "undecided"), b
    # JUnit: the case name and its body.
    name = cases[b["bucket"]].get("name")
    assert name.endswith("(%s deviates, by %s)" % (",".join(dev), basis)), (name, dev, basis)
    body = "".join(cases[b["bucket"]].itertext())
    assert ("deviating: %s (basis %s:" % (" ".join(dev), basis)) in body, body[:500]
    # HTML: the bucket's section.
    start = page.index('id="b-%s"' % b["bucket"])
    section = page[start:page.index("</section>", start)]
    shown = re.search(r"deviating: (.*?) \(basis <span class=\"basis\">([a-z-]+)</span>", section)
    assert shown, section[:800]
    assert [html.unescape(x) for x in re.findall(r"<b>(.*?)</b>", shown.group(1))] == dev, (shown.group(0), dev)
    assert shown.group(2) == basis, (shown.group(2), basis)
    # Markdown: the heading of the bucket's block, when it is among the top buckets.
    for block in md.split("\n#### ")[1:]:
        if "Bucket `%s`:" % b["bucket"] in block:
            heading = block.split("\n")[0]
            assert ": %s deviates (`%s`)" % (", ".join("`%s`" % d for d in dev), basis) in heading, (heading, dev, basis)
            assert ("Blame: basis `%s`" % basis) in block, block[:600]
# The matrix: a cell counts a bucket on its root only for the implementations it blames, and says by what.
impls = re.findall(r"<th>(.*?)</th>", page[page.index('<table class="matrix">'):].split("</tr>")[0])[1:]
# One row per root and layer: a bucket counts in the row of its own layer.
for row in re.findall(r'<tr><th class="root"><code>(.*?)</code>.*?</th><td class="layer">(.*?)</td>(.*?)</tr>', page[page.index('<table class="matrix">'):].split("</table>")[0]):
    root, layer, cells = row
    for impl, cell in zip(impls, re.findall(r"<td class=\"(cell-[a-z]+)\">(.*?)</td>", cells)):
        on_root = [b for b in buckets if root in b["roots"] and impl in b["deviating"] and b["layer"] == layer]
        bases = sorted({b["blameBasis"] for b in on_root})
        if on_root:
            assert cell[0] in ("cell-fail", "cell-idef", "cell-known"), (root, impl, cell)
            assert "by " + ", ".join(bases) in cell[1], (root, impl, cell, bases)
        else:
            assert cell[0] not in ("cell-fail", "cell-idef", "cell-known"), (root, impl, cell)
if len(sys.argv) > 2:
    pattern, want_dev, want_basis = sys.argv[2], sys.argv[3].split(","), sys.argv[4]
    hits = [b for b in buckets if re.search(pattern, b["signature"])]
    assert hits, "no bucket matches %s" % pattern
    for b in hits:
        assert b["deviating"] == want_dev and b["blameBasis"] == want_basis, (b["signature"], b["deviating"], b["blameBasis"])
        assert b["blameReference"] == "cpp", b
PY
}
UNSAFE='^acceptance\|cpp=rejected,python=accepted\|.*big-number-in-typed-slot'
check "the unsafe-integer bucket blames python by the reference, and every report format agrees" \
  "agree '$RUN/report' '$UNSAFE' python reference"
check "the matrix: python's intercept_request cell fails by the reference, cpp's does not fail" "python3 - '$RUN/report/report.html' <<'PY'
import re, sys
page = open(sys.argv[1], encoding='utf-8').read()
matrix = page[page.index('<table class=\"matrix\">'):].split('</table>')[0]
impls = re.findall(r'<th>(.*?)</th>', matrix.split('</tr>')[0])[1:]
row = re.search(r'<tr><th class=\"root\"><code>intercept_request</code>.*?</th>(.*?)</tr>', matrix).group(1)
cells = dict(zip(impls, re.findall(r'<td class=\"(cell-[a-z]+)\">(.*?)</td>', row)))
by = re.search(r'<small class=\"basis\">by (.*?)</small>', cells['python'][1])
assert cells['python'][0] == 'cell-fail' and by and 'reference' in by.group(1).split(', '), cells
assert cells['cpp'][0] != 'cell-fail', cells
PY"

# 3. The shipped baseline knows the fault; the blame does not change.
"$CC" report --baseline "$ROOT/tests/data/baseline/known.json" --out "$OUT/known" "$RUN" >"$OUT/known.log" 2>&1
check "with the shipped baseline: known, still python by the reference, every format agrees" \
  "agree '$OUT/known' '$UNSAFE' python reference && grep -q '\"known\":true' '$OUT/known/buckets.jsonl'"

# 4. A person decides the reference is the one in the wrong.
cat >"$OUT/decoder-wrong.json" <<'EOF'
{
  "format": "crosscheck-baseline/1",
  "entries": [
    {
      "id": "decoder-wrong-unsafe-integer",
      "implementations": ["cpp"],
      "bucket": "*acceptance|cpp=rejected,*big-number-in-typed-slot*",
      "referenceWrong": true,
      "reason": "a test's make-believe: the decoder should have accepted 2^53",
      "link": "tests/integration/blame_reports.sh"
    }
  ]
}
EOF
"$CC" report --baseline "$OUT/decoder-wrong.json" --out "$OUT/wrong" "$RUN" >"$OUT/wrong.log" 2>&1
check "report: an entry marking the reference wrong moves the blame to cpp, in every format" \
  "agree '$OUT/wrong' '$UNSAFE' cpp reference-wrong"
"$CC" baseline check --baseline "$OUT/decoder-wrong.json" --json "$OUT/check.json" "$RUN" >"$OUT/check.log" 2>&1
check "baseline check --json records the moved blame" "python3 - '$OUT/check.json' <<'PY'
import json, re, sys
check = json.load(open(sys.argv[1]))
hits = [b for b in check['known'] if 'big-number-in-typed-slot' in b['signature'] and b['signature'].startswith('acceptance|cpp=rejected,python=accepted|')]
assert hits and all(b['deviating'] == ['cpp'] and b['blameBasis'] == 'reference-wrong' and b['referenceWrong'] for b in hits), hits
PY"
# The check recorded in the folder carries it too: a later report without --baseline blames cpp.
"$CC" fuzz --runs 200 --seed 4 --deterministic --root intercept_request --seeds "$OUT/seeds" \
  --adapters cpp,python --baseline "$OUT/decoder-wrong.json" --out "$OUT/run2" >"$OUT/fuzz2.log" 2>&1
check "fuzz --baseline records it: the run's own reports blame cpp" \
  "agree '$OUT/run2/report' '$UNSAFE' cpp reference-wrong"

# 5. referenceWrong without the reference among the implementations.
sed 's/"implementations": \["cpp"\]/"implementations": ["python"]/' "$OUT/decoder-wrong.json" >"$OUT/bad.json"
"$CC" report --baseline "$OUT/bad.json" --out "$OUT/bad" "$RUN" >"$OUT/bad.log" 2>&1
rc=$?
check "a referenceWrong entry without cpp: exit 2 naming the field" \
  "[ $rc = 2 ] && grep -q \"bad.json: entries\[0\] (id \\\"decoder-wrong-unsafe-integer\\\"): field 'implementations': expected the reference implementation 'cpp'\" '$OUT/bad.log'"
finish
