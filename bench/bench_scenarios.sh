#!/usr/bin/env bash
# bench_scenarios.sh [ROWS] [ROUNDS]: layer-3 scenarios per second through each real SDK interop
# client, driven by `crosscheck scenarios run` (crosscheck as the scripted server) and delivered by
# `crosscheck fuzz --layers contextual` (generation, the reference host and the comparison included),
# against the same client on its own SDK server with the same rows, measured side by side,
# interleaved, ROUNDS times (median). The rows are generated (`crosscheck scenarios generate --seed 1
# --count ROWS`; the fuzz run generates its own batch of ROWS). Goals: crosscheck-driven and
# fuzz-delivered >= 0.8x the client on its own server; the reference host (build/bench_host, same
# run) >= 100x the Python client. A client that is not built here is reported as skipped, with no
# figure.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CC=${CROSSCHECK:-$ROOT/build/crosscheck}
ROWS=${1:-64}
ROUNDS=${2:-3}
W=$(mktemp -d /tmp/crosscheck-bench-scenarios.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ -x "$CC" ] || { echo "build crosscheck first ($CC)"; exit 2; }

"$CC" scenarios generate --seed 1 --count "$ROWS" --out "$W/rows.json" >/dev/null

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# own CLIENT_ARGV... -- SERVER_ARGV...: the client against its SDK's own server, seconds on stdout.
own() {
  local client=() server=()
  while [ "$1" != -- ]; do client+=("$1"); shift; done
  shift
  server=("$@")
  local d="$W/own-$RANDOM"
  mkdir -p "$d"
  /usr/bin/python3 - "$d" "$W/rows.json" "${server[@]}" <<'PY'
import json, sys
d, rows, server = sys.argv[1], sys.argv[2], sys.argv[3:]
json.dump({"transport": "stdio", "scenarioFile": rows, "readinessFile": d + "/ready.json",
           "auth": {"mode": "none"}}, open(d + "/server.json", "w"))
json.dump({"transport": "stdio", "serverCommand": server, "serverConfig": d + "/server.json",
           "scenarioFile": rows, "reportFile": d + "/report.json", "auth": {"mode": "none"}},
          open(d + "/client.json", "w"))
PY
  local t0 t1
  t0=$(now)
  "${client[@]}" --config "$d/client.json" >"$d/out.txt" 2>&1 || true
  t1=$(now)
  [ -s "$d/report.json" ] || { echo "no report from ${client[0]} on its own server" >&2; cat "$d/out.txt" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

# driven NAME: `crosscheck scenarios run --clients NAME`, seconds on stdout.
driven() {
  local d="$W/driven-$RANDOM" t0 t1
  t0=$(now)
  "$CC" scenarios run --clients "$1" --batch-deadline 900s --out "$d" "$W/rows.json" >"$W/driven.txt" 2>&1 || true
  t1=$(now)
  grep -q "^$ROWS rows x 1 clients" "$W/driven.txt" || { echo "crosscheck did not run the rows on $1" >&2; tail -5 "$W/driven.txt" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

# delivered NAME: one batch of ROWS generated rows through `crosscheck fuzz --layers contextual`.
delivered() {
  local d="$W/fuzz-$RANDOM" t0 t1
  t0=$(now)
  "$CC" fuzz --layers contextual --clients "$1" --adapters cpp --runs 1 --scenario-batches 1 --scenario-batch "$ROWS" \
    --reduce-budget 0 --verbose --out "$d" >"$W/fuzz.txt" 2>&1 || true
  t1=$(now)
  grep -q "^layer 3: $ROWS rows in 1 batches" "$W/fuzz.txt" || { echo "crosscheck fuzz did not run the rows on $1" >&2; tail -5 "$W/fuzz.txt" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}

echo "layer-3 scenarios/s, $ROWS generated rows, $ROUNDS rounds (median), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %20s %22s %8s %22s %8s\n' client "on its own server" "driven by crosscheck" ratio "fuzz-delivered" ratio
bench() {
  local name=$1; shift
  local own_times=() driven_times=() fuzz_times=()
  for _ in $(seq "$ROUNDS"); do
    own_times+=("$(own "$@")")
    driven_times+=("$(driven "$name")")
    fuzz_times+=("$(delivered "$name")")
  done
  local o d f
  o=$(printf '%s\n' "${own_times[@]}" | median)
  d=$(printf '%s\n' "${driven_times[@]}" | median)
  f=$(printf '%s\n' "${fuzz_times[@]}" | median)
  printf '%-8s %15.1f /s   %17.1f /s   %7.2fx %17.1f /s   %7.2fx\n' "$name" "$(echo "$ROWS / $o" | bc -l)" \
    "$(echo "$ROWS / $d" | bc -l)" "$(echo "$o / $d" | bc -l)" "$(echo "$ROWS / $f" | bc -l)" "$(echo "$o / $f" | bc -l)"
  eval "own_rate_$name=\$(echo \"$ROWS / $o\" | bc -l)"
}
# BENCH_CLIENTS="rust" measures only those clients (default: python rust).
CLIENTS=" ${BENCH_CLIENTS:-python rust} "
PY_BIN=$ROOT/.venv/bin/python
if [[ $CLIENTS != *" python "* ]]; then
  :
elif [ -x "$PY_BIN" ]; then
  bench python "$PY_BIN" -m agenthooksprotocol.interop client -- "$PY_BIN" -m agenthooksprotocol.interop server
else
  echo "python   skipped: .venv not set up (./setup install)"
fi
RS_BIN=$ROOT/adapters/rust/interop/bin/interop
if [[ $CLIENTS != *" rust "* ]]; then
  :
elif [ -x "$RS_BIN" ]; then
  (cd "$ROOT/adapters/rust" && bench rust "$RS_BIN" client -- "$RS_BIN" server)
else
  echo "rust     skipped: the interop binary is not built (adapters/rust/install.sh)"
fi
HOST_BIN=$(dirname "$CC")/bench_host
if [ -x "$HOST_BIN" ]; then
  host_line=$("$HOST_BIN" --seconds 3 "$W/rows.json")
  echo "$host_line"
  rate=$(echo "$host_line" | sed -n 's/^reference host: \([0-9]*\) scenarios.*/\1/p')
  if [ -n "${own_rate_python:-}" ] && [ -n "$rate" ]; then
    printf 'reference host / python client on its own server: %.0fx\n' "$(echo "$rate / $own_rate_python" | bc -l)"
  fi
else
  echo "reference host skipped: $HOST_BIN is not built"
fi
