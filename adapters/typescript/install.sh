#!/usr/bin/env bash
# Prepares the TypeScript adapter for the built typescript-sdk checkout named by AHP_TYPESCRIPT_SDK.
# npm does not publish the SDK (see docs/sdks.md), so without AHP_TYPESCRIPT_SDK this prints
# "unavailable: ..." and exits 0. The checkout must be built by its own tooling first
# (pnpm install --frozen-lockfile && pnpm build); this script never changes it. It writes
# build/schemas.json (the SDK's own `schemas` export as JSON, for the hello's schemaBundle) and
# build/sdk.json, then checks that the adapter answers hello. Fast and idempotent.
set -euo pipefail
cd "$(dirname "$0")"
unavailable() { echo "unavailable: $*"; exit 0; }
[ -n "${AHP_TYPESCRIPT_SDK:-}" ] ||
  unavailable "AHP_TYPESCRIPT_SDK is not set (npm has no agenthooksprotocol package; set it to a built typescript-sdk checkout)"
root=$(cd "$AHP_TYPESCRIPT_SDK" 2>/dev/null && pwd -P) || unavailable "AHP_TYPESCRIPT_SDK=$AHP_TYPESCRIPT_SDK is not a directory"
pkg=$root
[ -f "$root/packages/sdk/package.json" ] && pkg=$root/packages/sdk
command -v node >/dev/null 2>&1 || unavailable "node is not installed (Node >= 20)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || unavailable "node $(node --version) is too old (>= 20 needed)"
name=$(PKG="$pkg" node -p 'require(process.env.PKG + "/package.json").name' 2>/dev/null || true)
case "$name" in
  agenthooksprotocol | @agenthooksprotocol/sdk) ;;
  *) unavailable "$pkg/package.json is not the agenthooksprotocol package (name: ${name:-none})" ;;
esac
if [ ! -f "$pkg/dist/src/draft/codecs.js" ] && [ ! -f "$pkg/dist/src/draft/generated.js" ]; then
  unavailable "$pkg is not built (run 'pnpm install --frozen-lockfile && pnpm build' in $root)"
fi

mkdir -p build
revision=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo "")
bundle=""
if [ -f "$pkg/dist/src/draft/schemas.js" ] &&
  PKG="$pkg" node --input-type=module -e '
    import { writeFileSync } from "node:fs";
    import { pathToFileURL } from "node:url";
    const url = pathToFileURL(process.env.PKG + "/dist/src/draft/schemas.js").href;
    const { schemas } = await import(url);
    if (!Array.isArray(schemas)) throw new Error("schemas is not an array");
    writeFileSync("build/schemas.json", JSON.stringify(schemas, null, 1));'; then
  bundle=$PWD/build/schemas.json
fi
PKG="$pkg" REV="$revision" BUNDLE="$bundle" node -e '
  const { PKG, REV, BUNDLE } = process.env;
  require("fs").writeFileSync("build/sdk.json",
    JSON.stringify({ packageDir: PKG, revision: REV || null, schemaBundle: BUNDLE || null }) + "\n");'
roots=$(echo '{"op":"hello","protocol":1}' | AHP_TYPESCRIPT_SDK="$root" node adapter.mjs |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).roots.length))')
[ "$roots" -gt 0 ] || { echo "ERROR: the adapter found no parse*/encode* pairs in $pkg" >&2; exit 1; }
echo "ready: typescript adapter ($roots roots, $name at $pkg${revision:+, $revision})"
