#!/bin/bash -eu
# .clusterfuzzlite/build.sh: builds crosscheck's libFuzzer targets (fuzz/) for ClusterFuzzLite.
#
# ClusterFuzzLite runs this inside the image of .clusterfuzzlite/Dockerfile with the working folder at
# the source tree and CC, CXX, CFLAGS, CXXFLAGS (sanitizer and coverage flags), LIB_FUZZING_ENGINE,
# OUT, SRC and WORK set. It also runs by hand for a local check (docs/ci.md), e.g.
#   CC=clang-14 CXX=clang++-14 CXXFLAGS='-fsanitize=address,fuzzer-no-link' \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/cflite-out bash .clusterfuzzlite/build.sh
#
# What lands in $OUT, in the layout ClusterFuzzLite reads:
#   <target>                       the fuzz targets (fuzz_decode, fuzz_structured, fuzz_json)
#   <target>_seed_corpus.zip       fuzz/corpus/<target>/, the hand-written seeds
#   <target>.dict, <target>.options  the schema dictionary (made by make_dict from the schema) and flags
#   crosscheck-schema/             the AHP schema bundle the targets load at run time (fuzz/support.cpp
#                                  looks beside the binary: the runner has no SDK and no source tree)
# The targets are compiled straight from the sources they need (fuzz/sources.txt, the list that
# fuzz/CMakeLists.txt reads too), without the project's CMake: that needs the whole tool chain of the
# CLI and tests, and -Werror would tie it to one clang version.
#
# Inputs besides ClusterFuzzLite's variables:
#   CROSSCHECK_SCHEMA  the SDK bundle (schemas.json beside ahp-codegen.lock.json); default: the one of
#                      an installed agenthooksprotocol Python package, then .deps/schema-path
#   SIMDJSON_SRC       a folder with simdjson.h and simdjson.cpp (simdjson's single-header release),
#                      compiled in so the targets link it statically (the runner has no libsimdjson);
#                      without it the system's libsimdjson is linked (fine for a local check only)
set -o pipefail

ROOT=${CROSSCHECK_ROOT:-$PWD}
[ -f "$ROOT/fuzz/support.cpp" ] || { echo "ERROR: $ROOT is not the crosscheck source tree (run from it, or set CROSSCHECK_ROOT)" >&2; exit 2; }
: "${OUT:?set OUT to the folder that receives the targets}"
CC=${CC:-clang}
CXX=${CXX:-clang++}
CXXFLAGS=${CXXFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
WORK=${WORK:-$(mktemp -d)}
TARGETS=(fuzz_decode fuzz_structured fuzz_json)
BUILD="$WORK/crosscheck-cflite"
rm -rf "$BUILD"
mkdir -p "$BUILD/obj" "$OUT"

# The schema: from CROSSCHECK_SCHEMA, the installed Python SDK, or what ./setup recorded.
schema=${CROSSCHECK_SCHEMA:-}
if [ -z "$schema" ]; then
  schema=$(python3 -c 'import os, agenthooksprotocol as a; print(os.path.join(os.path.dirname(a.__file__), "schemas.json"))' 2>/dev/null || true)
fi
if [ -z "$schema" ] && [ -f "$ROOT/.deps/schema-path" ]; then schema=$(head -1 "$ROOT/.deps/schema-path"); fi
if [ -z "$schema" ] || [ ! -f "$schema" ] || [ ! -f "$(dirname "$schema")/ahp-codegen.lock.json" ]; then
  echo "ERROR: no AHP schema bundle (schemas.json beside ahp-codegen.lock.json): set CROSSCHECK_SCHEMA, or install agenthooksprotocol" >&2
  exit 2
fi
rm -rf "$OUT/crosscheck-schema"
mkdir -p "$OUT/crosscheck-schema"
cp "$schema" "$(dirname "$schema")/ahp-codegen.lock.json" "$OUT/crosscheck-schema/"
echo "schema: $schema"

# Compile flags. The source-dir define points nowhere on purpose: the targets find the schema beside
# themselves, never through a checkout. The coverage allow and ignore lists (only the JSON parser,
# tree and writer and the decoder get counters and CMP tracing; fuzz/coverage_allowlist.txt says
# why) apply when libFuzzer's coverage instrumentation is on, as in the fuzz preset.
flags=(-std=c++20 -O1 -g -I"$ROOT/src" -I"$ROOT"
  '-DCROSSCHECK_VERSION="cflite"' '-DCROSSCHECK_SOURCE_DIR="/crosscheck-cflite-has-no-source-tree"')
no_cmp_tracing=()
case " $CXXFLAGS " in
  *fuzzer-no-link*)
    flags+=("-fsanitize-coverage-allowlist=$ROOT/fuzz/coverage_allowlist.txt"
      "-fsanitize-coverage-ignorelist=$ROOT/fuzz/coverage_ignorelist.txt")
    # The JSON parser keeps its counters but not its CMP tracing (fuzz/CMakeLists.txt says why).
    no_cmp_tracing=(-fno-sanitize-coverage=trace-cmp)
    ;;
esac
libs=()
if [ -n "${SIMDJSON_SRC:-}" ]; then
  flags+=(-I"$SIMDJSON_SRC")
  sources=("$SIMDJSON_SRC/simdjson.cpp")
else
  echo "note: SIMDJSON_SRC not set: linking the system's libsimdjson (the ClusterFuzzLite runner has none)"
  sources=()
  libs+=(-lsimdjson)
fi
# OpenSSL's libcrypto (sha256 of schema documents) statically, when the static archive is there.
crypto=$( { "$CXX" -print-file-name=libcrypto.a; } 2>/dev/null || true)
if [ -f "$crypto" ]; then libs+=("$crypto" -ldl -pthread); else libs+=(-lcrypto); fi

# fuzz/sources.txt: a module folder (its .cpp files and those of its detail/ folder) or a file a line.
while read -r entry; do
  case $entry in '' | '#'*) continue ;; esac
  if [ -d "$ROOT/$entry" ]; then
    for src in "$ROOT/$entry"/*.cpp "$ROOT/$entry"/detail/*.cpp; do
      if [ -f "$src" ]; then sources+=("$src"); fi
    done
  elif [ -f "$ROOT/$entry" ]; then
    sources+=("$ROOT/$entry")
  else
    echo "ERROR: fuzz/sources.txt: $entry does not exist" >&2
    exit 2
  fi
done <"$ROOT/fuzz/sources.txt"
compile() {  # compile SOURCE -> $BUILD/obj/<path with / as _>.o
  local obj extra=()
  obj="$BUILD/obj/$(echo "${1#"$ROOT"/}" | tr / _).o"
  case "$1" in  # the JSON parser: parse.cpp and its detail/parse_*.cpp
    "$ROOT/src/json/parse.cpp" | "$ROOT/src/json/detail/parse_"*.cpp) extra=("${no_cmp_tracing[@]}") ;;
  esac
  # shellcheck disable=SC2086  # CXXFLAGS is a list of flags
  "$CXX" $CXXFLAGS "${flags[@]}" "${extra[@]}" -c "$1" -o "$obj"
}
# One compiler per core; a failed compile stops the build (set -e on its wait).
pids=()
for src in "${sources[@]}"; do
  compile "$src" &
  pids+=($!)
  if ((${#pids[@]} >= $(nproc))); then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
ar rcs "$BUILD/libcrosscheck_fuzz.a" "$BUILD"/obj/*.o

for target in "${TARGETS[@]}"; do
  # shellcheck disable=SC2086
  "$CXX" $CXXFLAGS "${flags[@]}" "$ROOT/fuzz/$target.cpp" -o "$OUT/$target" \
    $LIB_FUZZING_ENGINE "$BUILD/libcrosscheck_fuzz.a" "${libs[@]}"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$ROOT/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  [ -f "$ROOT/fuzz/$target.options" ] && cp "$ROOT/fuzz/$target.options" "$OUT/"
done

# The schema dictionary of the structure-aware targets, made from the schema the targets load.
# shellcheck disable=SC2086
"$CXX" $CXXFLAGS "${flags[@]}" "$ROOT/fuzz/make_dict.cpp" -o "$BUILD/make_dict" "$BUILD/libcrosscheck_fuzz.a" "${libs[@]}"
(cd "$BUILD" && LLVM_PROFILE_FILE=/dev/null ./make_dict --schema "$OUT/crosscheck-schema/schemas.json" \
  --output "$OUT/fuzz_structured.dict")
cp "$OUT/fuzz_structured.dict" "$OUT/fuzz_decode.dict"
cp "$ROOT/fuzz/fuzz_json.dict" "$OUT/fuzz_json.dict"

echo "built in $OUT: ${TARGETS[*]} (+ seed corpora, dictionaries, options, crosscheck-schema/)"
