#!/usr/bin/env python3
"""withholding_proxy.py: a real adapter behind a proxy that never answers some requests (a stuck SDK).

    withholding_proxy.py [--min-string N] -- /path/to/crosscheck serve-adapter

Every line goes to the inner adapter and its answers come back unchanged, except a request (or a
batch line with an entry) whose payload holds a JSON string of at least --min-string characters
(default 200): that line is swallowed and never answered, so the harness sees a hang inside a batch,
as with an SDK that loops on long strings. For the tests that a stuck adapter neither stalls the
other adapters nor holds a run past its --time (docs/robustness.md). stdlib only.
"""

import argparse
import base64
import json
import re
import subprocess
import sys
import threading


def holds_long_string(request, pattern):
    entries = request.get("requests") if request.get("op") == "batch" else [request]
    for entry in entries or []:
        data = entry.get("input") if isinstance(entry, dict) else None
        if not isinstance(data, str):
            continue
        try:
            if pattern.search(base64.b64decode(data)):
                return True
        except (ValueError, TypeError):
            continue
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-string", type=int, default=200)
    parser.add_argument("inner", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    inner = args.inner[1:] if args.inner[:1] == ["--"] else args.inner
    if not inner:
        parser.error("expected -- COMMAND of the inner adapter")
    # A JSON string of at least N characters between its quotes (escapes count as characters).
    pattern = re.compile(rb'"(?:[^"\\]|\\.){%d,}"' % args.min_string)
    child = subprocess.Popen(inner, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def relay():
        for line in child.stdout:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    threading.Thread(target=relay, daemon=True).start()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        if isinstance(request, dict) and holds_long_string(request, pattern):
            sys.stderr.write("withholding_proxy: withholding request %s\n" % request.get("id"))
            sys.stderr.flush()
            continue
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
