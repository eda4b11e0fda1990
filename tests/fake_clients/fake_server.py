#!/usr/bin/env python3
"""A stand-in interop server for crosscheck's request-admission robustness tests (not an SDK).

It speaks the stdio server side of the cross-language adapter contract v1 (reads --config, answers
one line per request line: a result for a request it admits, a JSON-RPC error for one it refuses)
and misbehaves when the request's params.event.tool.name says so:
  fake:hang     stop answering (sleep)
  fake:crash    exit 3 without answering
  fake:garbage  answer a line that is not JSON
  fake:wrong-id answer a result for another id
  fake:flood    write 8 MiB to stderr, then admit
  fake:refuse   refused when FAKE_FLAVOR=b, admitted otherwise
  fake:stateful refused when an earlier request of this process was fake:refuse, admitted alone
"""
import json
import os
import sys
import time


def main():
    config = json.load(open(sys.argv[sys.argv.index("--config") + 1]))
    json.load(open(config["scenarioFile"]))
    flavor = os.environ.get("FAKE_FLAVOR", "a")
    seen_refuse = False
    for line in sys.stdin:
        request = json.loads(line)
        name = request.get("params", {}).get("event", {}).get("tool", {}).get("name", "")
        rid = request.get("id")
        refuse = False
        if name == "fake:hang":
            time.sleep(3600)
        elif name == "fake:crash":
            print("fake server: told to crash", file=sys.stderr, flush=True)
            sys.exit(3)
        elif name == "fake:garbage":
            print("this is not JSON", flush=True)
            continue
        elif name == "fake:wrong-id":
            rid = "another-id"
        elif name == "fake:flood":
            sys.stderr.write("x" * (8 << 20))
            sys.stderr.flush()
        elif name == "fake:refuse":
            seen_refuse = True
            refuse = flavor == "b"
        elif name == "fake:stateful":
            refuse = seen_refuse
        if refuse:
            answer = {"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": "Invalid request"}}
        else:
            answer = {"jsonrpc": "2.0", "id": rid, "result": {"protocolVersion": "draft", "effects": []}}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
