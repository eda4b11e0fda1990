# tests/integration/lib.sh: the preamble the end-to-end scripts share (sourced, not run). It reads the
# script's first argument, the build folder, and sets BUILD, ROOT (the source tree), CC (the crosscheck
# binary) and OUT (a temporary folder, removed at exit unless KEEP is set, for debugging). check NAME
# CONDITION evaluates CONDITION and prints PASS or FAIL NAME; finish prints the counts and is the
# script's status (non-zero when a check failed).
# shellcheck shell=bash
set -u
BUILD=${1:?usage: $(basename "$0") BUILD_DIR}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CC="$BUILD/crosscheck"
OUT=$(mktemp -d)
trap 'if [ -n "${KEEP:-}" ]; then echo "kept $OUT"; else rm -rf "$OUT"; fi' EXIT
pass=0
fail=0
check() { if eval "$2"; then pass=$((pass+1)); echo "PASS $1"; else fail=$((fail+1)); echo "FAIL $1"; fi; }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
