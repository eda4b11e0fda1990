#!/usr/bin/env bash
# Builds the Rust adapter against the pinned crates.io release (agenthooksprotocol =0.10.1).
# Idempotent: cargo rebuilds nothing when the binary is current.
set -euo pipefail
cd "$(dirname "$0")"
[ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ] && PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! command -v cargo >/dev/null 2>&1; then
  echo "unavailable: cargo is not installed (rustup, Rust >= 1.88)"
  exit 0
fi
export CARGO_TARGET_DIR="$PWD/target"
cargo build --release --locked --quiet
echo "built: $PWD/target/release/crosscheck-adapter-rust"

# The crate's interop client/server (feature interop), the Rust implementation of layer 3 for
# `crosscheck scenarios run` (adapters/clients.json). It pulls an HTTP and TLS stack: about 10
# minutes on 2 cores the first time; skipped when the pinned binary is already installed.
interop_root="$PWD/interop"
if [ ! -x "$interop_root/bin/interop" ]; then
  # One target folder with the adapter: the two builds share most compiled dependencies.
  cargo install agenthooksprotocol --version =0.10.1 --features interop \
    --bin interop --locked --quiet --root "$interop_root"
fi
echo "built: $interop_root/bin/interop"
