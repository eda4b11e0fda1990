#!/usr/bin/env bash
# repro_times.sh [ROUNDS]: how long a reproducer of `crosscheck repro` takes (issue #44's numbers):
# the Python reproducer's run with the venv's Python (goal < 5 s), and the Rust project's
# `cargo test --release --offline` on a warm cargo cache: the first build (goal < 3 min warm), then a
# second run. The finding is docs/findings.md section 1 (2^53 in an integer slot) from a `crosscheck
# run`; both reproducers fail on it (the SDKs deviate), which is what a maintainer runs. The cargo
# build goes to a target folder of its own copied once from the adapter's (adapters/rust/target), so
# the crate compiled there is reused as it would be on a maintainer's warm cache, and the adapter's
# folder is left as it was; each round first cleans the reproducer's own package. Prints each round's figures and the median; an SDK not built here is skipped,
# with no figure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CROSSCHECK:-$ROOT/build/crosscheck}
ROUNDS=${1:-3}
W=$(mktemp -d /tmp/crosscheck-bench-repro.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ -x "$CC" ] || { echo "build crosscheck first ($CC)"; exit 2; }

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

mkdir -p "$W/in"
printf '%s' '{"ref":"","sha256":"","size":9007199254740992}' >"$W/in/content_upload_receipt.json"
"$CC" run --adapters cpp,python,rust --out "$W/run" "$W/in" >/dev/null 2>&1 || true
FINDING=$(ls "$W"/run/diverge-*.json | head -1)
echo "finding: $FINDING (load average $(cut -d' ' -f1-3 /proc/loadavg))"

if [ -x "$ROOT/.venv/bin/python" ]; then
  "$CC" repro "$FINDING" --sdk python --out "$W/py" >/dev/null
  times=()
  for _ in $(seq "$ROUNDS"); do
    t0=$(now)
    "$ROOT/.venv/bin/python" "$W"/py/test_*.py >/dev/null 2>&1 || true
    times+=("$(echo "$(now) - $t0" | bc)")
  done
  printf 'python reproducer run: %s s (rounds: %s; goal < 5 s)\n' \
    "$(printf '%s\n' "${times[@]}" | median)" "${times[*]}"
else
  echo "python: skipped (no .venv: ./setup installs the SDK)"
fi

if command -v cargo >/dev/null && [ -d "$ROOT/adapters/rust/target/release/deps" ]; then
  "$CC" repro "$FINDING" --sdk rust --out "$W/rs" >/dev/null
  builds=() runs=()
  cp -a "$ROOT/adapters/rust/target" "$W/target"
  package=$(sed -n 's/^name = "\(.*\)"$/\1/p' "$W/rs/Cargo.toml")
  for _ in $(seq "$ROUNDS"); do
    (cd "$W/rs" && CARGO_TARGET_DIR="$W/target" cargo clean --release --offline -p "$package") >/dev/null 2>&1
    t0=$(now)
    (cd "$W/rs" && CARGO_TARGET_DIR="$W/target" cargo test --release --offline --no-run) >"$W/build.log" 2>&1 ||
      { tail -5 "$W/build.log"; exit 1; }
    builds+=("$(echo "$(now) - $t0" | bc)")
    t0=$(now)
    (cd "$W/rs" && CARGO_TARGET_DIR="$W/target" cargo test --release --offline) >/dev/null 2>&1 || true
    runs+=("$(echo "$(now) - $t0" | bc)")
  done
  printf 'rust reproducer build (warm cache): %s s (rounds: %s; goal < 180 s)\n' \
    "$(printf '%s\n' "${builds[@]}" | median)" "${builds[*]}"
  printf 'rust reproducer test run after it: %s s (rounds: %s)\n' \
    "$(printf '%s\n' "${runs[@]}" | median)" "${runs[*]}"
else
  echo "rust: skipped (no cargo or no adapters/rust/target: adapters/rust/install.sh builds it)"
fi
