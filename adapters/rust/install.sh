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
