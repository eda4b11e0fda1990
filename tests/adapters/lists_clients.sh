#!/usr/bin/env bash
# `crosscheck adapters` lists the layer-3 interop clients of adapters/clients.json beside the
# decoding adapters, one line each: the SDK release read from the hello of the decoding adapter of the
# same SDK when that adapter was started, or why the client is unavailable. With --verbose: each
# client's command and the codegen lock of its SDK.
set -euo pipefail
crosscheck=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(env -u AHP_GO_SDK -u AHP_TYPESCRIPT_SDK "$crosscheck" adapters --adapters cpp,python)
echo "$out"
grep -q '^layer-3 clients (' <<<"$out" || fail "no layer-3 clients section"
grep -Eq '^  python +SDK python [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out" || fail "python client: its SDK from the python adapter"
grep -q '^  rust           SDK of adapter rust (not started here)$' <<<"$out" || fail "rust adapter was not started: said so"
grep -Eq '^  go +UNAVAILABLE: AHP_GO_SDK is not set' <<<"$out" || fail "go client unavailable with its reason"
grep -q '^schema closure per root: [0-9]* roots, ' <<<"$out" || fail "the closures in one line"
! grep -q '^      ' <<<"$out" || fail "no detail lines without --verbose"

out=$(env -u AHP_GO_SDK -u AHP_TYPESCRIPT_SDK "$crosscheck" adapters --adapters cpp,python --verbose)
echo "$out"
grep -Eq '^  python +.*/\.venv/bin/python -m agenthooksprotocol\.interop client$' <<<"$out" || fail "python client command"
grep -Eq '^      SDK python [0-9]+\.[0-9]+\.[0-9]+ \(from adapter python\)  schema manifest [0-9a-f]{16}' <<<"$out" ||
  fail "python client's SDK identity from the python adapter"
grep -q '^      SDK identity: adapter rust not started in this listing$' <<<"$out" || fail "rust adapter was not started: said so"
grep -Eq '^  go +UNAVAILABLE: AHP_GO_SDK is not set' <<<"$out" || fail "go client unavailable with its reason"
grep -q '^schema closure per root (same hash' <<<"$out" || fail "the closure table"
echo PASS
