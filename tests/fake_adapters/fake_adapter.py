#!/usr/bin/env python3
"""Fake adapter for the adapter-pool tests (protocol v1, docs/protocol.md); stdlib only.

By default it speaks the protocol correctly: every decode is "accepted" with encoded = input, and
bench answers nanos = iterations * 1000. It misbehaves when told.

Start-up (--mode):
  normal            behave
  exit-in-hello     read the hello, say why on stderr, exit 3
  protocol2         answer the hello with protocol 2
  no-hello          read the hello and never answer
  garbage-hello     answer the hello with a line that is not JSON
  hello-refused     answer with the refusal form {"op":"hello","protocol":1,"error":...}, exit 2
  chatty            write an unsolicited line right after the hello
  down-on-restart   the first process creates --state FILE and behaves; while FILE exists, every
                    later process exits during the hello (a restart that cannot come back)

Per request, markers in the decoded input bytes:
  CRASH       exit 1 (after a line on stderr)
  SEGV        die of SIGSEGV
  HANG        never answer
  GARBAGE     write a line that is not JSON
  HALFLINE    write half an answer without a newline, then exit 0
  WRONGID     answer with id + 10**9
  TWICE       answer twice
  NOOUTCOME   answer without "outcome"
  BADOUTCOME  answer with outcome "maybe"
  BADBASE64   answer with encoded "!!!"
  FLOOD       write --flood-bytes to stderr, then answer
  LONGLINE    answer with a line of about --long-line-bytes
  SLOW<n>     sleep n milliseconds first (with --concurrent, later requests overtake it)
  REJECT      answer "rejected" with one diagnostic
  EXITLATER   answer, then exit 0 (a death between batches)
--concurrent handles each request on its own thread, so answers come back out of order.
--no-bench answers the bench op the way an adapter without it would (outcome error).
--strict follows the protocol's error rules instead of accepting whatever comes (the conformance
  suite's well-behaved adapter): a hello for another protocol is refused (exit 2), a bad request line
  is answered with outcome error, an unknown root is unsupported, invalid base64 and bytes that are
  not UTF-8 are errors, text that is not JSON is rejected with invalid_json.
--always MARKER applies a per-request marker to every decode (repeatable), e.g. --always WRONGID.
--hang-on TEXT hangs like HANG on a decode whose input holds TEXT (so that one adapter of a run hangs
  on inputs that another answers).
--batch N lists the batch op in hello (batch.max N) and answers batch lines (entries run in order;
  the markers work inside them); more than N entries (or than
  --batch-accepts M, which lets the hello overstate it) are refused. --batch-lie MODE then breaks the
  batch answer: split (each answer on its own line), reorder (answers reversed), drop (the last
  answer missing), duplicate (the first answer twice), wrongid (the first answer's id + 10**9).
--canonical lists the canonical layer in hello and answers the validate op: document "fake-valid"
  is valid, "fake-invalid" invalid at /x (text that is not JSON: invalid at ""), any other
  unsupported; the markers CRASH and HANG in the input work as for decode.
"""

import argparse
import base64
import json
import os
import re
import signal
import sys
import threading
import time

out_lock = threading.Lock()
capture = None  # a list while a batch runs: its entries' answers go here instead of stdout


def send_raw(data):
    if capture is not None:  # inside a batch: whole answer lines join it, anything else goes out as is
        rest = b""
        for piece in data.split(b"\n"):
            try:
                capture.append(json.loads(piece))
            except ValueError:
                rest += piece + b"\n" if piece else b""
        if not rest:
            return
        data = rest
    with out_lock:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def send(obj):
    if capture is not None:
        capture.append(obj)
        return
    send_raw(json.dumps(obj, separators=(",", ":")).encode() + b"\n")


def answer(rid, b64, outcome="accepted", diagnostics=()):
    return {"id": rid, "outcome": outcome, "diagnostics": list(diagnostics),
            "encoded": b64 if outcome == "accepted" else None, "encodeError": None, "message": None}


def hello():
    return {"op": "hello", "protocol": 1,
            "implementation": {"name": "fake", "language": "python", "version": "0.0.1",
                               "languageVersion": sys.version.split()[0], "os": sys.platform},
            "lock": {"generator": "fake"}, "schemaBundle": None, "roots": ["intercept_request", "session_start"]}


def strict_answer(rid, request):
    """The protocol's answer for input that cannot reach a decoder, or None (--strict)."""
    if request["root"] not in hello()["roots"]:
        return answer(rid, None, "unsupported")
    try:
        text = base64.b64decode(request["input"], validate=True).decode("utf-8")
    except (ValueError, TypeError) as error:
        bad = "input is not UTF-8" if isinstance(error, UnicodeDecodeError) else "invalid base64"
        return dict(answer(rid, None, "error"), message=bad)
    try:
        json.loads(text)
    except ValueError:
        return answer(rid, None, "rejected", [{"path": "", "code": "invalid_json", "severity": "error"}])
    return None


def decode(args, request):
    rid, b64 = request["id"], request["input"]
    if args.strict:
        early = strict_answer(rid, request)
        if early is not None:
            send(early)
            return
    raw = base64.b64decode(b64) + "".join(args.always).encode()
    slow = re.search(rb"SLOW(\d+)", raw)
    if slow:
        time.sleep(int(slow.group(1)) / 1000.0)
    if b"CRASH" in raw:
        sys.stderr.write("fake: crashing on request %d\n" % rid)
        sys.stderr.flush()
        os._exit(1)
    if b"SEGV" in raw:
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    if b"HANG" in raw or (args.hang_on and args.hang_on.encode() in raw):
        sys.stderr.write("fake: hanging on request %d\n" % rid)
        sys.stderr.flush()
        while True:
            time.sleep(3600)
    if b"GARBAGE" in raw:
        send_raw(b"this is not json\n")
        return
    if b"HALFLINE" in raw:
        send_raw(b'{"id":%d,"outcome":"acc' % rid)
        os._exit(0)
    if b"FLOOD" in raw:
        chunk = b"x" * 65535 + b"\n"
        for _ in range(args.flood_bytes // len(chunk)):
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"fake: flood done\n")
        sys.stderr.flush()
    if b"LONGLINE" in raw:
        filler = base64.b64encode(b"\0" * (args.long_line_bytes * 3 // 4)).decode()
        send(answer(rid, filler))
        return
    reply = answer(rid, b64)
    if b"WRONGID" in raw:
        reply["id"] = rid + 10**9  # far from any id in flight: a near one would be indistinguishable
    if b"NOOUTCOME" in raw:
        del reply["outcome"]
    if b"BADOUTCOME" in raw:
        reply["outcome"] = "maybe"
    if b"BADBASE64" in raw:
        reply["encoded"] = "!!!"
    if b"REJECT" in raw:
        reply = answer(rid, b64, "rejected", [{"path": "/x", "code": "invalid_type", "severity": "error"}])
    line = json.dumps(reply, separators=(",", ":")).encode() + b"\n"
    # TWICE: both copies in one write, so the harness reads them together even at a batch's end.
    send_raw(line * 2 if b"TWICE" in raw else line)
    if b"EXITLATER" in raw:
        os._exit(0)


def validate(args, request):
    rid = request.get("id") if type(request.get("id")) is int else None
    if rid is None or not isinstance(request.get("document"), str) or not isinstance(request.get("input"), str):
        send({"id": rid, "outcome": "error", "errors": [],
              "message": "bad request: validate needs an integer id, a string document and input"})
        return
    try:
        raw = base64.b64decode(request["input"], validate=True)
    except ValueError:
        send({"id": rid, "outcome": "error", "errors": [], "message": "invalid base64"})
        return
    if b"CRASH" in raw:
        os._exit(1)
    if b"HANG" in raw:
        while True:
            time.sleep(3600)
    verdict = {"id": rid, "outcome": "unsupported", "errors": [], "message": None}
    if request["document"] in ("fake-valid", "fake-invalid"):
        try:
            json.loads(raw.decode("utf-8"))
        except ValueError as error:
            verdict.update(outcome="invalid", errors=[{"path": ""}], message=str(error))
        else:
            if request["document"] == "fake-valid":
                verdict["outcome"] = "valid"
            else:
                verdict.update(outcome="invalid", errors=[{"path": "/x"}], message="x is wrong")
    send(verdict)


def run_batch(args, request):
    global capture
    bid, entries = request.get("id"), request.get("requests")
    limit = args.batch_accepts or args.batch
    if type(entries) is not list or not entries or len(entries) > limit:
        send({"id": bid, "error": "bad batch: %s requests, at most %d" %
              (len(entries) if type(entries) is list else "no", limit)})
        return
    capture = []
    for entry in entries:
        op = entry.get("op") if type(entry) is dict else None
        if op == "decode" and type(entry.get("id")) is int and isinstance(entry.get("input"), str) \
                and isinstance(entry.get("root"), str):
            decode(args, entry)
        elif op == "validate" and args.canonical:
            validate(args, entry)
        else:
            rid = entry.get("id") if type(entry) is dict and type(entry.get("id")) is int else None
            send(dict(answer(rid, None, "error"), message="bad request: not a decode or validate request"))
    answers, capture = capture, None
    lie = args.batch_lie
    if lie == "split":
        for a in answers:
            send(a)
        return
    if lie == "reorder":
        answers.reverse()
    if lie == "drop":
        answers.pop()
    if lie == "duplicate":
        answers.insert(0, answers[0])
    if lie == "wrongid":
        answers[0] = dict(answers[0], id=answers[0]["id"] + 10**9)
    send({"id": bid, "answers": answers})


def handshake(args, line):
    request = json.loads(line)
    if args.strict and request != {"op": "hello", "protocol": 1}:
        send({"op": "hello", "protocol": 1, "error": "unsupported protocol %s" % request.get("protocol")})
        os._exit(2)
    assert request == {"op": "hello", "protocol": 1}, request
    mode = args.mode
    if mode == "down-on-restart":
        if os.path.exists(args.state):
            sys.stderr.write("fake: state file exists, refusing to start\n")
            sys.stderr.flush()
            os._exit(4)
        open(args.state, "w").close()
    if mode == "exit-in-hello":
        sys.stderr.write("fake: refusing to start\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "no-hello":
        while True:
            time.sleep(3600)
    if mode == "garbage-hello":
        send_raw(b"Welcome to fake adapter!\n")
        return
    reply = hello()
    if args.batch:
        reply["batch"] = {"max": args.batch}
    if args.canonical:
        reply["layers"] = ["structural", "canonical"]
    if mode == "protocol2":
        reply["protocol"] = 2
    if mode == "hello-refused":
        send({"op": "hello", "protocol": 1, "error": "unsupported protocol 1"})
        os._exit(2)
    line = json.dumps(reply, separators=(",", ":")).encode() + b"\n"
    if mode == "chatty":
        line += b'{"note":"unsolicited"}\n'  # one write: the harness reads both lines together
    send_raw(line)


def strict_request(line):
    """(request, None), or (the id to answer with, why the line is a bad request) (--strict)."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return None, "not JSON: %s" % error
    if not isinstance(request, dict):
        return None, "not a JSON object"
    rid = request.get("id") if type(request.get("id")) is int else None
    op = request.get("op")
    if op == "shutdown":
        return request, None
    if op in ("validate", "batch"):
        return request, None
    if op not in ("decode", "bench"):
        return rid, "unknown op %r" % (op,)
    if rid is None or not isinstance(request.get("root"), str) or not isinstance(request.get("input"), str):
        return rid, "%s needs an integer id, a string root and input" % op
    return request, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="normal")
    parser.add_argument("--state")
    parser.add_argument("--concurrent", action="store_true")
    parser.add_argument("--no-bench", action="store_true")
    parser.add_argument("--flood-bytes", type=int, default=20 << 20)
    parser.add_argument("--long-line-bytes", type=int, default=1 << 20)
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--always", action="append", default=[])
    parser.add_argument("--hang-on", default=None)
    parser.add_argument("--canonical", action="store_true")
    parser.add_argument("--batch", type=int, default=0)
    parser.add_argument("--batch-lie", default=None)
    parser.add_argument("--batch-accepts", type=int, default=0)
    args = parser.parse_args()
    lines = iter(sys.stdin.buffer.readline, b"")
    first = next(lines, None)
    if first is None:
        return 0
    handshake(args, first)
    for line in lines:
        if args.strict:
            if not line.strip():
                continue
            request, problem = strict_request(line)
            if problem:
                send(dict(answer(request, None, "error"), message="bad request: " + problem))
                continue
        else:
            request = json.loads(line)
        op = request.get("op")
        if op == "shutdown":
            return 0
        if op == "batch" and args.batch:
            run_batch(args, request)
            continue
        if op == "validate" and args.canonical:
            validate(args, request)
            continue
        if op == "validate" and args.strict:
            rid = request.get("id") if type(request.get("id")) is int else None
            send(dict(answer(rid, None, "error"), message="bad request: unknown op 'validate'"))
            continue
        if op == "bench":
            if args.no_bench:
                send({"id": request["id"], "outcome": "error", "diagnostics": [], "encoded": None,
                      "encodeError": None, "message": "unknown op 'bench'"})
            else:
                send({"id": request["id"], "nanos": int(request["iterations"]) * 1000})
            continue
        if args.concurrent:
            threading.Thread(target=decode, args=(args, request), daemon=True).start()
        else:
            decode(args, request)
    return 0


if __name__ == "__main__":
    sys.exit(main())
