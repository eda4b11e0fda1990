#!/usr/bin/env bash
# repro_cli.sh BUILD_DIR [python|rust]: `crosscheck repro` end to end on real findings and the real SDKs.
#  python  reproducers run with the venv's Python: a real Python deviation at layer 1 (docs/findings.md
#          section 1, from a `crosscheck run`), at layer 2 (the shipped witnesses of section 9 and 10)
#          and at layer 3 (section 12 d, from a `scenarios run` of generated rows) fails the way its
#          finding says; the witness of each planted fault (layer-1 faults through a
#          `crosscheck run` against the faulty proxy, a layer-2 fault through a short `crosscheck
#          selftest`) asked of Python passes, since Python is right there; byte-stable output; a
#          finding whose text members are hostile gives a file that compiles and still fails the same
#          way; bad input (a finding that breaks its schema, an unknown or missing SDK, an SDK that
#          does not deviate, an --out that exists) is exit 2 and overwrites nothing.
#  rust    the same finding's cargo project, built in the adapter's target folder (--offline, the
#          crate not rebuilt), fails on the real crate; a planted fault's passes.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
PART=${2:-python}
VPY="$ROOT/.venv/bin/python"
PY=$(python3 -c "import sys; print(sys.executable)")
W2="$ROOT/docs/witnesses/layer2"

# A real Python and Rust deviation (docs/findings.md section 1): 2^53 in an integer slot.
mkdir -p "$OUT/real"
printf '%s' '{"ref":"","sha256":"","size":9007199254740992}' >"$OUT/real/content_upload_receipt.witness.json"
"$CC" run --adapters cpp,python,rust --out "$OUT/run-real" "$OUT/real" >"$OUT/run-real.log" 2>&1
REAL=$(ls "$OUT"/run-real/diverge-*.json 2>/dev/null | head -1)
check "the section-1 witness is a finding of a real run" "[ -f '$REAL' ]"

# Planted faults: name root, layer 1, each a finding of `crosscheck run` against the faulty proxy.
planted() {
  local name=$1 root=$2 payload=$3
  mkdir -p "$OUT/w-$name"
  printf '%s' "$payload" >"$OUT/w-$name/$root.json"
  "$CC" run --deadline 2 --adapters cpp --out "$OUT/run-$name" \
    --adapter "faulty=$PY $ROOT/selftest/faulty_adapter.py --fault $name -- $CC serve-adapter" \
    "$OUT/w-$name/$root.json" >"$OUT/run-$name.log" 2>&1
  ls "$OUT"/run-"$name"/*.json 2>/dev/null | head -1
}

if [ "$PART" = python ]; then
  "$CC" repro "$REAL" --sdk python --out "$OUT/py-real" >"$OUT/py-real.log" 2>&1
  check "repro --sdk python writes one file" "[ \$(ls '$OUT/py-real' | wc -l) = 1 ]"
  "$VPY" "$OUT"/py-real/test_*.py >"$OUT/py-real.run" 2>&1
  rc=$?
  check "layer 1, real deviation: the Python reproducer fails (exit $rc) on accepted vs rejected" \
    "[ $rc = 1 ] && grep -q 'AssertionError: python answers accepted; the reference cpp answers rejected' '$OUT/py-real.run'"
  check "its header names the SDK version, the manifest, the bucket and the replay line" \
    "grep -q '^# SDK: python agenthooksprotocol [0-9]' '$OUT'/py-real/test_*.py &&
     grep -q '^# Schema manifest: ahp-codegen.lock.json schemaManifestSha256 [0-9a-f]\{64\}' '$OUT'/py-real/test_*.py &&
     grep -q '^#   bucket [0-9a-f]\{16\}, structural acceptance (contract)' '$OUT'/py-real/test_*.py &&
     grep -q '^# Replay with crosscheck: crosscheck replay ' '$OUT'/py-real/test_*.py"
  # pytest's way: import the module, call the test_ function.
  (cd "$OUT/py-real" && "$VPY" -c "import glob, importlib; m = importlib.import_module(glob.glob('test_*.py')[0][:-3]);
[getattr(m, n)() for n in dir(m) if n.startswith('test_')]") >/dev/null 2>&1
  check "the test function fails when imported and called as pytest does" "[ $? = 1 ]"

  # Layer 2, real: Python raises on a message that is not an object (section 9), and says invalid
  # where the schema's oneOf holds (section 10).
  "$CC" repro "$W2/e35d94b9f831b640.json" --sdk python --out "$OUT/py-l2-error" >/dev/null 2>&1
  "$VPY" "$OUT"/py-l2-error/test_*.py >"$OUT/py-l2-error.run" 2>&1
  rc=$?
  check "layer 2, real sdk-error: the reproducer fails (exit $rc) with the SDK's AttributeError" \
    "[ $rc = 1 ] && grep -q \"AttributeError: 'int' object has no attribute 'get'\" '$OUT/py-l2-error.run'"
  "$CC" repro "$W2/2d54e0beefa78925.json" --sdk python --out "$OUT/py-l2-acc" >/dev/null 2>&1
  "$VPY" "$OUT"/py-l2-acc/test_*.py >"$OUT/py-l2-acc.run" 2>&1
  rc=$?
  check "layer 2, real canonical-acceptance: the reproducer fails (exit $rc): python invalid, the reference valid" \
    "[ $rc = 1 ] && grep -q 'AssertionError: python answers invalid' '$OUT/py-l2-acc.run' &&
     grep -q 'canonical_verdict(text) == \"valid\"' '$OUT'/py-l2-acc/test_*.py"

  # Planted faults: Python is right, so the reproducer of the fault's deviation passes against it.
  while read -r name root payload; do
    f=$(planted "$name" "$root" "$payload")
    "$CC" repro "$f" --sdk python --deviation-of faulty --out "$OUT/py-$name" >"$OUT/py-$name.log" 2>&1
    g=$?
    "$VPY" "$OUT"/py-"$name"/test_*.py >"$OUT/py-$name.run" 2>&1
    rc=$?
    check "planted $name: reproducer written (exit $g) and passes on the real Python SDK (exit $rc)" \
      "[ $g = 0 ] && [ $rc = 0 ] && grep -q '^passed: python answers as the reference cpp' '$OUT/py-$name.run'"
  done <<'EOF'
unknown-enum-error content_selection {"default":"x"}
warning-path-parent content_selection {"default":"x"}
wrong-error-code content_reference {}
drop-unknown-members extensions {"x":0}
crash-on-empty-array extensions []
EOF
  "$CC" selftest --faults closed-objects-open --time-per-fault 20s --reduce-time 10s --out "$OUT/st" \
    >"$OUT/st.log" 2>&1
  F2=$(ls "$OUT"/st/closed-objects-open/findings/*.min.json 2>/dev/null | head -1)
  "$CC" repro "$F2" --sdk python --deviation-of faulty --out "$OUT/py-l2-planted" >"$OUT/py-l2-planted.log" 2>&1
  "$VPY" "$OUT"/py-l2-planted/test_*.py >"$OUT/py-l2-planted.run" 2>&1
  rc=$?
  check "planted layer-2 closed-objects-open: the reproducer validates and passes on Python (exit $rc)" \
    "[ -f '$F2' ] && [ $rc = 0 ] && grep -q 'canonical_verdict(text) == \"invalid\"' '$OUT'/py-l2-planted/test_*.py &&
     grep -q '^passed' '$OUT/py-l2-planted.run'"

  # Layer 3: generated rows through the real clients; Python's own interop client against its own
  # interop server on the one-row file. Python's continuationRemaining (docs/findings.md section 12 d)
  # fails; Rust's rejection of a row the reference derives, asked of Python, passes.
  "$CC" scenarios generate --seed 42 --count 40 --out "$OUT/rows.json" >/dev/null 2>&1
  "$CC" scenarios run --clients python,rust --out "$OUT/l3" "$OUT/rows.json" >"$OUT/l3.log" 2>&1
  F3=$(grep -l '"contextual-result/turn.finish.before/continuationRemaining"' "$OUT"/l3/findings/*.json | head -1)
  "$CC" repro "$F3" --sdk python --out "$OUT/py-l3" >"$OUT/py-l3.log" 2>&1
  g=$?
  "$VPY" "$OUT"/py-l3/test_*.py >"$OUT/py-l3.run" 2>&1
  rc=$?
  check "layer 3, real: python's reproducer (exit $g) runs its client on its server and fails (exit $rc) on continuationRemaining" \
    "[ -f '$F3' ] && [ $g = 0 ] && [ $rc = 1 ] && [ -f '$OUT/py-l3/scenario.json' ] &&
     grep -q 'AssertionError: python answers derived' '$OUT/py-l3.run' && grep -q 'continuationRemaining' '$OUT/py-l3.run'"
  F4=$(grep -l '"contextual-acceptance/turn.finish.before/cpp=derived,python=derived,rust=rejected"' \
    "$OUT"/l3/findings/*.json | head -1)
  "$CC" repro "$F4" --sdk python --deviation-of rust --out "$OUT/py-l3-rust" >/dev/null 2>&1
  "$VPY" "$OUT"/py-l3-rust/test_*.py >"$OUT/py-l3-rust.run" 2>&1
  rc=$?
  check "layer 3: rust's rejection asked of python's client passes (exit $rc): python derives as the reference" \
    "[ -f '$F4' ] && [ $rc = 0 ] && grep -q '^passed' '$OUT/py-l3-rust.run'"
  "$CC" repro "$F4" --sdk rust --out "$OUT/rs-l3" >"$OUT/rs-l3.log" 2>&1
  rc=$?
  check "layer 3 for rust is refused (exit $rc): python only" "[ $rc = 2 ] && grep -q 'python only' '$OUT/rs-l3.log'"

  # Byte-stable: the same finding twice, the same bytes.
  "$CC" repro "$REAL" --sdk python --out "$OUT/py-real-2" >/dev/null 2>&1
  check "the same finding gives the same bytes" "diff -r '$OUT/py-real' '$OUT/py-real-2' >/dev/null"

  # Hostile text in every member a reproducer quotes: still a compiling file that fails the same way.
  "$PY" - "$REAL" "$OUT/hostile.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
evil = "\"\\\n'''\x00\u2028*/ ${x} `$(id)` \ud800"
for r in f["results"]:
    for d in r.get("diagnostics", []):
        d["path"] = "/size" + evil
for d in f["divergences"]:
    d["bucket"] = d["bucket"] + evil
    d["signature"] = evil
f["replay"] = "crosscheck replay " + evil
json.dump(f, open(sys.argv[2], "w"))
PY
  "$CC" repro "$OUT/hostile.json" --sdk python --out "$OUT/py-hostile" >/dev/null 2>&1
  "$VPY" -m py_compile "$OUT"/py-hostile/test_*.py
  c=$?
  "$VPY" "$OUT"/py-hostile/test_*.py >"$OUT/py-hostile.run" 2>&1
  rc=$?
  check "hostile finding text: ASCII-only file that compiles (exit $c) and fails as before (exit $rc)" \
    "[ $c = 0 ] && [ $rc = 1 ] && ! LC_ALL=C grep -q '[^ -~]' '$OUT'/py-hostile/test_*.py &&
     grep -q 'AssertionError: python answers accepted' '$OUT/py-hostile.run'"

  # Go and TypeScript have no checkout here: --unverified writes them from the adapters' entrypoints,
  # marked so; on the hostile finding they still parse (gofmt, node --check), which is all that can be
  # checked without the SDKs.
  "$CC" repro "$OUT/hostile.json" --sdk go --deviation-of python --unverified --out "$OUT/go-hostile" >/dev/null 2>&1
  g=$?
  "$CC" repro "$OUT/hostile.json" --sdk typescript --deviation-of python --unverified --out "$OUT/ts-hostile" \
    >/dev/null 2>&1
  t=$?
  check "go and typescript --unverified: written (exit $g, $t), marked unverified, ASCII only" \
    "[ $g = 0 ] && [ $t = 0 ] && grep -q '^// unverified: no checkout was available' '$OUT/go-hostile/repro_test.go' &&
     grep -q '^// unverified: no checkout was available' '$OUT/ts-hostile/repro.test.mjs' &&
     ! LC_ALL=C grep -q \$'[^\t -~]' '$OUT/go-hostile/repro_test.go' '$OUT/ts-hostile/repro.test.mjs'"
  if command -v gofmt >/dev/null || [ -x /usr/local/go/bin/gofmt ]; then
    GOFMT=$(command -v gofmt || echo /usr/local/go/bin/gofmt)
    check "the Go reproducer of a hostile finding parses and is gofmt-clean" \
      "\"$GOFMT\" -e -l '$OUT/go-hostile/repro_test.go' >'$OUT/gofmt.out' 2>&1 && [ ! -s '$OUT/gofmt.out' ]"
  else
    echo "SKIP gofmt: no Go toolchain here (not counted)"
  fi
  if command -v node >/dev/null; then
    check "the TypeScript reproducer of a hostile finding parses (node --check)" \
      "node --check '$OUT/ts-hostile/repro.test.mjs'"
  else
    echo "SKIP node --check: no node here (not counted)"
  fi

  # Bad input: exit 2 and a message naming the file and what was expected.
  sed 's/"format": *"crosscheck-finding\/1"/"format":"crosscheck-finding\/9"/' "$REAL" >"$OUT/broken.json"
  "$CC" repro "$OUT/broken.json" --sdk python --out "$OUT/x1" >"$OUT/bad1.log" 2>&1
  rc=$?
  check "a finding that breaks its schema: exit 2 ($rc) naming the file and /format" \
    "[ $rc = 2 ] && grep -q 'broken.json' '$OUT/bad1.log' && grep -q '/format' '$OUT/bad1.log' && [ ! -e '$OUT/x1' ]"
  "$CC" repro "$REAL" --sdk nosuch --out "$OUT/x2" >"$OUT/bad2.log" 2>&1
  rc=$?
  check "an unknown --sdk: exit 2 ($rc) listing the known ones" \
    "[ $rc = 2 ] && grep -q 'nosuch' '$OUT/bad2.log' && grep -q 'python' '$OUT/bad2.log' && [ ! -e '$OUT/x2' ]"
  if [ -z "${AHP_GO_SDK:-}" ]; then
    "$CC" repro "$REAL" --sdk go --out "$OUT/x3" >"$OUT/bad3.log" 2>&1
    rc=$?
    check "a missing SDK (go without AHP_GO_SDK): exit 2 ($rc) saying it is missing" \
      "[ $rc = 2 ] && grep -q 'missing' '$OUT/bad3.log' && grep -q 'AHP_GO_SDK' '$OUT/bad3.log' && [ ! -e '$OUT/x3' ]"
  fi
  f=$(ls "$OUT"/run-wrong-error-code/*.json | head -1)
  "$CC" repro "$f" --sdk python --out "$OUT/x4" >"$OUT/bad4.log" 2>&1
  rc=$?
  check "an SDK that does not deviate in the finding is refused: exit 2 ($rc)" \
    "[ $rc = 2 ] && grep -q 'python does not deviate in this finding' '$OUT/bad4.log' && [ ! -e '$OUT/x4' ]"
  cp "$OUT"/py-real/test_*.py "$OUT/before.py"
  "$CC" repro "$W2/e35d94b9f831b640.json" --sdk python --out "$OUT/py-real" >"$OUT/bad5.log" 2>&1
  rc=$?
  check "an existing --out without --force: exit 2 ($rc), nothing overwritten" \
    "[ $rc = 2 ] && grep -q 'exists' '$OUT/bad5.log' && cmp -s '$OUT/before.py' '$OUT'/py-real/test_content_upload_receipt_*.py &&
     [ \$(ls '$OUT/py-real' | wc -l) = 1 ]"
  "$CC" repro "$REAL" --sdk python --out "$OUT/py-real" --force >/dev/null 2>&1
  rc=$?
  check "--force replaces the reproducer's file (exit $rc)" "[ $rc = 0 ]"
fi

if [ "$PART" = rust ]; then
  # The adapter's target folder holds the compiled crate; --offline: no registry on the way.
  export CARGO_TARGET_DIR="$ROOT/adapters/rust/target"
  "$CC" repro "$REAL" --sdk rust --out "$OUT/rs-real" >"$OUT/rs-real.log" 2>&1
  check "repro --sdk rust writes Cargo.toml, Cargo.lock and src/lib.rs" \
    "[ -f '$OUT/rs-real/Cargo.toml' ] && [ -f '$OUT/rs-real/Cargo.lock' ] && [ -f '$OUT/rs-real/src/lib.rs' ]"
  (cd "$OUT/rs-real" && cargo test --release --offline) >"$OUT/rs-real.run" 2>&1
  rc=$?
  check "layer 1, real deviation: the Rust test builds and fails (exit $rc) on accepted vs rejected" \
    "[ $rc = 101 ] && grep -q 'rust answers accepted; the reference cpp answers rejected' '$OUT/rs-real.run' &&
     grep -q 'test result: FAILED. 0 passed; 1 failed' '$OUT/rs-real.run'"
  f=$(planted wrong-error-code content_reference '{}')
  "$CC" repro "$f" --sdk rust --deviation-of faulty --out "$OUT/rs-planted" >/dev/null 2>&1
  (cd "$OUT/rs-planted" && cargo test --release --offline) >"$OUT/rs-planted.run" 2>&1
  rc=$?
  check "planted wrong-error-code: the Rust test passes (exit $rc) on the real crate" \
    "[ $rc = 0 ] && grep -q 'test result: ok. 1 passed' '$OUT/rs-planted.run'"
  "$CC" repro "$W2/371d215f83ff842a.json" --sdk rust --out "$OUT/rs-l2" >/dev/null 2>&1
  (cd "$OUT/rs-l2" && cargo test --release --offline) >"$OUT/rs-l2.run" 2>&1
  rc=$?
  check "layer 2, real: the Rust validator's reproducer fails (exit $rc)" \
    "[ $rc = 101 ] && grep -q 'canonical_verdict(&text), \"valid\"' '$OUT/rs-l2/src/lib.rs' && grep -q FAILED '$OUT/rs-l2.run'"
fi
finish
