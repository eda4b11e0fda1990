#!/usr/bin/env bash
# fixtures_seed_cli.sh BUILD_DIR: `crosscheck fixtures seed` end to end on real layer-2 findings (the
# minimized findings of the 30-minute run, docs/witnesses/layer2, laid out as a run folder):
#  1. the seeded folder reads back through `fixtures run` and passes for the reference (cpp), every
#     case; the reference's own layer gap (docs/findings.md section 10) is left out and said so;
#  2. the same findings give the same bytes;
#  3. --merge: half the findings, then all of them, passes as well; merging again adds nothing and
#     leaves the manifest byte for byte;
#  4. the Python SDK fails the seeded cases of its real faults (section 9's AttributeError);
#  5. bad input, exit 2: an --out that exists without --merge or --force (nothing changed), a missing
#     findings folder, a finding that breaks its schema (named), a merge into a folder whose file
#     changed.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir -p "$OUT/run" "$OUT/half"
for f in "$ROOT"/docs/witnesses/layer2/*.json; do cp "$f" "$OUT/run/diverge-$(basename "$f")"; done
for f in $(ls "$OUT"/run/*.json | head -12); do cp "$f" "$OUT/half/"; done
N=$(ls "$OUT"/run/*.json | wc -l)
check "the shipped layer-2 witnesses are 30 findings" "[ $N = 30 ]"

# 1.
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fx" >"$OUT/seed.log" 2>&1
rc=$?
cat "$OUT/seed.log"
added=$(sed -n 's/.*: \([0-9]*\) cases added.*/\1/p' "$OUT/seed.log")
check "seed exits 0 and adds cases ($added)" "[ $rc = 0 ] && [ '${added:-0}' -ge 10 ]"
check "the reference's own layer gap is left out, and said so" \
  "grep -q \"the reference's layers disagree (canonically valid, structurally rejected): [1-9]\" '$OUT/seed.log'"
check "a file per case" "[ \$(find '$OUT/fx' -type f ! -name manifest.json | wc -l) = $added ]"
"$CC" fixtures run --adapters cpp "$OUT/fx" >"$OUT/run-cpp.log" 2>&1
rc=$?
check "fixtures run on the seeded folder passes for the reference (exit $rc), every case" \
  "[ $rc = 0 ] && grep -q '^cpp: $added passed, 0 failed' '$OUT/run-cpp.log'"

# 2.
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fx2" >/dev/null 2>&1
check "the same findings give the same bytes" "diff -r '$OUT/fx' '$OUT/fx2' >/dev/null"

# 3.
"$CC" fixtures seed --findings "$OUT/half" --out "$OUT/fm" >/dev/null 2>&1
first=$(ls "$OUT"/fm/http | wc -l)
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fm" --merge >"$OUT/merge.log" 2>&1
rc=$?
check "--merge adds the rest (exit $rc): $first, then $added cases" \
  "[ $rc = 0 ] && [ $first -lt $added ] && [ \$(find '$OUT/fm' -type f ! -name manifest.json | wc -l) = $added ]"
"$CC" fixtures run --adapters cpp "$OUT/fm" >"$OUT/run-merged.log" 2>&1
rc=$?
check "the merged folder passes for the reference (exit $rc)" "[ $rc = 0 ] && grep -q '^cpp: $added passed, 0 failed' '$OUT/run-merged.log'"
cp "$OUT/fm/manifest.json" "$OUT/merged.before"
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fm" --merge >"$OUT/merge2.log" 2>&1
check "merging the same findings again adds nothing and keeps the manifest's bytes" \
  "grep -q ': 0 cases added' '$OUT/merge2.log' && cmp -s '$OUT/merged.before' '$OUT/fm/manifest.json'"

# 4.
"$CC" fixtures run --adapters cpp,python "$OUT/fx" >"$OUT/run-py.log" 2>&1
rc=$?
check "the Python SDK fails seeded cases of its real faults (exit $rc)" \
  "[ $rc = 1 ] && grep -q \"\\[python\\]: schema (observe-notification): error: AttributeError\" '$OUT/run-py.log' &&
   grep -q '^cpp: $added passed, 0 failed' '$OUT/run-py.log'"

# 5.
cp "$OUT/fx/manifest.json" "$OUT/before.json"
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fx" >"$OUT/bad1.log" 2>&1
rc=$?
check "an existing --out without --merge or --force: exit 2 ($rc), nothing changed" \
  "[ $rc = 2 ] && grep -q 'exists' '$OUT/bad1.log' && cmp -s '$OUT/before.json' '$OUT/fx/manifest.json'"
"$CC" fixtures seed --findings "$OUT/nosuch" --out "$OUT/x" >"$OUT/bad2.log" 2>&1
rc=$?
check "a missing findings folder: exit 2 ($rc)" "[ $rc = 2 ] && [ ! -e '$OUT/x' ]"
mkdir -p "$OUT/broken"
sed 's/"format": *"crosscheck-finding\/1"/"format":"crosscheck-finding\/9"/' "$OUT/run/diverge-e35d94b9f831b640.json" \
  >"$OUT/broken/diverge-broken.json"
"$CC" fixtures seed --findings "$OUT/broken" --out "$OUT/x" >"$OUT/bad3.log" 2>&1
rc=$?
check "a finding that breaks its schema: exit 2 ($rc) naming the file and /format" \
  "[ $rc = 2 ] && grep -q 'diverge-broken.json' '$OUT/bad3.log' && grep -q '/format' '$OUT/bad3.log' && [ ! -e '$OUT/x' ]"
victim=$(find "$OUT/fx2" -type f -name '*.json' ! -name manifest.json | head -1)
printf ' ' >>"$victim"
"$CC" fixtures seed --findings "$OUT/run" --out "$OUT/fx2" --merge >"$OUT/bad4.log" 2>&1
rc=$?
check "a merge into a folder whose file changed: exit 2 ($rc) naming the sha256" \
  "[ $rc = 2 ] && grep -q 'sha256' '$OUT/bad4.log'"
finish
