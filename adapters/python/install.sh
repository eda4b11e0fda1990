#!/usr/bin/env bash
# The Python adapter runs on the repository's .venv, which ./setup fills with the pinned
# agenthooksprotocol release from PyPI. Nothing to build: this only checks it is there.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x .venv/bin/python ]; then
  echo "unavailable: .venv is missing (./setup install creates it)"
  exit 0
fi
if ! version=$(.venv/bin/python -c 'import importlib.metadata as m, agenthooksprotocol.generated
print(m.version("agenthooksprotocol"))' 2>/dev/null); then
  echo "unavailable: agenthooksprotocol is not importable from .venv"
  exit 0
fi
echo "ready: python adapter on agenthooksprotocol $version"
