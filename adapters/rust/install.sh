#!/usr/bin/env bash
# Builds the Rust adapter against the pinned crates.io release (agenthooksprotocol =0.10.1), then the
# crate's interop binary from the same build.
# Idempotent: cargo rebuilds nothing when the binaries are current.
set -euo pipefail
cd "$(dirname "$0")"
[ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ] && PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! command -v cargo >/dev/null 2>&1; then
  echo "unavailable: cargo is not installed (rustup, Rust >= 1.88)"
  exit 0
fi
export CARGO_TARGET_DIR="$PWD/target"
start=$SECONDS
cargo build --release --locked --quiet
echo "built: $PWD/target/release/crosscheck-adapter-rust ($((SECONDS - start)) s)"

# The crate's interop client/server (its bin `interop`, feature interop): the Rust implementation of
# layer 3 (adapters/clients.json). The adapter already depends on the crate with that feature, so the
# bin is built as a target of this package's own dependency graph: same Cargo.lock, profile, features
# and target folder, so the crate and its HTTP/TLS dependencies compiled for the adapter are reused
# and only the bin itself is compiled and linked (`cargo install` would resolve the crate's own lock
# file in a build of its own: about as long again as the adapter's).
start=$SECONDS
cargo build --release --locked --quiet -p agenthooksprotocol --bin interop
interop_root="$PWD/interop"
mkdir -p "$interop_root/bin"
# A copy, renamed into place: a running layer-3 client never sees a half-written file.
if ! cmp -s target/release/interop "$interop_root/bin/interop"; then
  cp target/release/interop "$interop_root/bin/interop.tmp"
  mv -f "$interop_root/bin/interop.tmp" "$interop_root/bin/interop"
fi
echo "built: $interop_root/bin/interop ($((SECONDS - start)) s)"
