#!/usr/bin/env python3
"""misbehaving_adapter.py: an adapter that breaks the harness's side of protocol v1 on purpose.

Fault injection on crosscheck itself (docs/robustness.md): each --behaviour is one way an adapter
process can misbehave. Apart from its fault it speaks the protocol like fake_adapter.py (whose
message helpers it imports): every decode is "accepted" with encoded = input, roots
intercept_request and session_start. stdlib only.

    misbehaving_adapter.py --behaviour crash                 # crash on inputs containing FAULT
    misbehaving_adapter.py --behaviour crash --after 5       # crash on every decode after the 5th
    misbehaving_adapter.py --behaviour hang --always         # never answer any decode

When a per-request fault fires (the trigger): a decode whose input bytes contain --marker (default
FAULT); with --after N, every decode after the first N this process received; with --always, every
decode; with --when-file F, only while the file F exists (so a test can turn a fault on and off);
with --once, only the first time in each process.

Behaviours:
  none                  behave
  crash                 trigger: a line on stderr, exit 1
  hang                  trigger: stop reading and answering, forever
  stall                 trigger: sleep --stall-ms, then answer (a long hang on one request only)
  hang-forever          trigger: keep reading stdin but never answer anything again
  half-line-exit        trigger: write half an answer without a newline, exit 0
  half-line-hang        trigger: write half an answer without a newline, then hang
  long-line             trigger: answer with a line of --line-bytes (default 100 MB), streamed
  stderr-flood          trigger: write --flood-bytes (default 300 MB) to stderr, then answer
  flood-while-answering a thread writes --flood-bytes to stderr from the start while every request
                        is answered normally
  exit-before-hello     read the hello, say why on stderr, exit 3
  partial-hello         write the first half of the hello line, exit 0
  exit-after-hello      answer the hello, then exit 0 at once (every process, every restart)
  twice                 trigger: answer twice, in two writes
  other-id              trigger: answer with the id of the previous request this process answered
                        (or id + 1 when there is none)
  unknown-id            trigger: answer with id + 10**9
  garbage               trigger: write a line that is not JSON
  close-stdout          trigger: close stdout and keep running (reading stdin, answering nothing)
  bloat                 trigger: answer outcome "error" with a message of --bloat-bytes
  hold                  not a fault: hold every answer until --after N decodes were received, then
                        send the held ones, in order, and answer the rest at once (a pool that
                        waits for one call's answers before it sends the next call never gets any)

--pid-file FILE appends this process's pid to FILE (so a test can check that no adapter outlives
a killed harness, and end exactly its own processes). --log FILE appends the base64 input of every
decode request received, one per line (so a test can count how often the harness sent each).
"""

import argparse
import base64
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_adapter import answer, hello, send, send_raw  # noqa: E402

BEHAVIOURS = ("none", "crash", "hang", "stall", "hang-forever", "half-line-exit", "half-line-hang",
              "long-line", "stderr-flood", "flood-while-answering", "exit-before-hello", "partial-hello",
              "exit-after-hello", "twice", "other-id", "unknown-id", "garbage", "close-stdout", "bloat",
              "hold")


def hang_forever():
    while True:
        time.sleep(3600)


def flood_stderr(total):
    chunk = b"e" * 65535 + b"\n"
    written = 0
    while written < total:
        os.write(2, chunk)
        written += len(chunk)
    os.write(2, b"misbehaving: flood done\n")


def write_long_line(rid, size):
    """An answer line of about `size` bytes, written in pieces so this process stays small."""
    head = ('{"id":%d,"outcome":"accepted","diagnostics":[],"encodeError":null,"message":null,"encoded":"'
            % rid).encode()
    piece = b"A" * (1 << 20)
    sys.stdout.buffer.write(head)
    left = max(0, size - len(head) - 3)
    while left > 0:
        sys.stdout.buffer.write(piece[:min(left, len(piece))])
        left -= len(piece)
    sys.stdout.buffer.write(b'"}\n')
    sys.stdout.buffer.flush()


def say(text):
    sys.stderr.write("misbehaving: %s\n" % text)
    sys.stderr.flush()


class Adapter:
    def __init__(self, args):
        self.args = args
        self.received = 0
        self.last_id = None
        self.silent = False  # hang-forever or close-stdout fired: read on, answer nothing
        self.fired = False
        self.held = []  # hold: answers not sent yet

    def triggered(self, raw):
        fire = self.fires(raw) and not (self.args.once and self.fired)
        self.fired = self.fired or fire
        return fire

    def fires(self, raw):
        a = self.args
        if a.when_file and not os.path.exists(a.when_file):
            return False
        if a.always:
            return True
        if a.after is not None:
            return self.received > a.after
        return a.marker.encode() in raw

    def decode(self, request):
        self.received += 1
        rid, b64 = request["id"], request["input"]
        if self.args.log:
            with open(self.args.log, "a") as f:
                f.write(b64 + "\n")
        if self.silent:
            return
        b = self.args.behaviour
        if b == "hold":
            self.held.append(answer(rid, b64))
            if self.received >= (self.args.after or 0):
                for reply in self.held:
                    send(reply)
                self.held = []
            return
        if not self.triggered(base64.b64decode(b64)):
            send(answer(rid, b64))
            self.last_id = rid
            return
        if b == "crash":
            say("crashing on request %d" % rid)
            os._exit(1)
        if b == "hang":
            say("hanging on request %d" % rid)
            hang_forever()
        if b == "stall":
            say("stalling on request %d" % rid)
            time.sleep(self.args.stall_ms / 1000.0)
        if b == "hang-forever":
            say("no more answers from request %d on" % rid)
            self.silent = True
            return
        if b in ("half-line-exit", "half-line-hang"):
            send_raw(b'{"id":%d,"outcome":"acc' % rid)
            if b == "half-line-exit":
                os._exit(0)
            hang_forever()
        if b == "long-line":
            say("answering request %d with a %d-byte line" % (rid, self.args.line_bytes))
            write_long_line(rid, self.args.line_bytes)
            self.last_id = rid
            return
        if b == "stderr-flood":
            flood_stderr(self.args.flood_bytes)
        if b == "garbage":
            send_raw(b"<html>this is not json</html>\n")
            return
        if b == "close-stdout":
            say("closing stdout on request %d" % rid)
            sys.stdout.flush()
            os.close(1)
            self.silent = True
            return
        reply = answer(rid, b64)
        if b == "bloat":
            reply = dict(answer(rid, None, "error"), message="bloat " + "x" * self.args.bloat_bytes)
        if b == "other-id":
            reply["id"] = self.last_id if self.last_id is not None else rid + 1
        if b == "unknown-id":
            reply["id"] = rid + 10**9
        send(reply)
        if b == "twice":
            send(reply)  # a second write: the harness may read the copies apart
        self.last_id = rid


def handshake(args, line):
    request = json.loads(line)
    assert request == {"op": "hello", "protocol": 1}, request
    b = args.behaviour
    if b == "exit-before-hello":
        say("refusing to start")
        os._exit(3)
    text = json.dumps(hello(), separators=(",", ":")).encode() + b"\n"
    if b == "partial-hello":
        send_raw(text[: len(text) // 2])
        os._exit(0)
    send_raw(text)
    if b == "exit-after-hello":
        say("exiting right after the hello")
        os._exit(0)
    if b == "flood-while-answering":
        threading.Thread(target=flood_stderr, args=(args.flood_bytes,), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--behaviour", required=True, choices=BEHAVIOURS)
    parser.add_argument("--marker", default="FAULT")
    parser.add_argument("--after", type=int)
    parser.add_argument("--always", action="store_true")
    parser.add_argument("--stall-ms", type=int, default=5000)
    parser.add_argument("--line-bytes", type=int, default=100 << 20)
    parser.add_argument("--flood-bytes", type=int, default=300 << 20)
    parser.add_argument("--bloat-bytes", type=int, default=4 << 20)
    parser.add_argument("--when-file")
    parser.add_argument("--once", action="store_true")
    parser.add_argument("--pid-file")
    parser.add_argument("--log")
    args = parser.parse_args()
    if args.pid_file:
        with open(args.pid_file, "a") as f:
            f.write("%d\n" % os.getpid())
    lines = iter(sys.stdin.buffer.readline, b"")
    first = next(lines, None)
    if first is None:
        return 0
    handshake(args, first)
    adapter = Adapter(args)
    for line in lines:
        request = json.loads(line)
        op = request.get("op")
        if op == "shutdown":
            return 0
        if op == "decode":
            adapter.decode(request)
    return 0


if __name__ == "__main__":
    sys.exit(main())
