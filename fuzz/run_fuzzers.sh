#!/bin/sh
# run_fuzzers.sh: build the fuzz preset (clang, libFuzzer, ASan + UBSan) and run every fuzz target.
#
# Usage: fuzz/run_fuzzers.sh [SECONDS_PER_TARGET]   (default 5)
# Builds only the fuzz targets and their dictionaries (build-fuzz/), then runs ctest --preset fuzz:
# each target fuzzes a scratch copy of its seed corpus for the given seconds (label "fuzz", two at a
# time on two cores) and replays the corpus once (label "fuzz-replay"); fuzz_differential's smoke run
# fuzzes as long against the Python SDK (fuzz/differential_smoke.sh; needs .venv from ./setup
# install). Exit status: ctest's (0 when no target found anything). A finding's reproducer is under build-fuzz/fuzz/smoke/<target>/artifacts/,
# and the test output prints the command that minimizes it.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-5}
cmake --preset fuzz -DCROSSCHECK_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build --preset fuzz --target fuzz_decode fuzz_structured fuzz_json fuzz_differential fuzz_dicts
ctest --preset fuzz -j2
