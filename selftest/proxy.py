"""proxy.py: what the self-test adapters share: a lossless JSON reader and writer, the inner adapter,
and the protocol-v1 proxy loop (docs/protocol.md, docs/selftest.md). Standard library only.

A proxy sits in front of a real adapter (by default `crosscheck serve-adapter`, the C++ decoder),
forwards every request, and lets a `transform` change the decode answers. It handles one request
at a time: the harness pipelines, but answers may come in any order and one at a time is simply a
pipeline of depth one. A transform may ask the inner adapter further questions (Inner.decode) before
it answers: that is how a fault such as "null is taken as absent" is emulated on the real decoder.
"""

import base64
import json
import subprocess
import sys


# --- lossless JSON ----------------------------------------------------------------------------------


class Num(str):
    """A JSON number kept as its exact token ("1E+2", "9007199254740993", "-0")."""


class Obj(list):
    """A JSON object as its list of (key, value) pairs: order and duplicate keys are kept."""

    def get(self, key, default=None):
        found = default
        for k, v in self:
            if k == key:
                found = v  # the last one wins, as in every SDK
        return found


def _no_constant(name):
    raise ValueError("not JSON: " + name)


def loads(data):
    """Parses bytes or text into None/bool/Num/str/list/Obj; raises ValueError when it cannot."""
    if isinstance(data, (bytes, bytearray)):
        # surrogatepass: the reference keeps lone surrogates (WTF-8); they stay lone surrogates here.
        text = bytes(data).decode("utf-8", "surrogatepass")
    else:
        text = data
    try:
        return json.loads(text, object_pairs_hook=Obj, parse_float=Num, parse_int=Num, parse_constant=_no_constant)
    except RecursionError as error:
        raise ValueError("nested too deeply for the proxy") from error


def dump_string(s):
    return json.dumps(s)  # ASCII with \u escapes: lone surrogates stay escaped, never invalid UTF-8


def dumps(value, string=dump_string, number=str, key_order=None):
    """Writes a value from loads() back; `string` and `number` spell the leaves, `key_order` may
    reorder an object's pairs. Compact, no whitespace."""
    out = []

    def walk(v):
        if v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif isinstance(v, Num):
            out.append(number(v))
        elif isinstance(v, str):
            out.append(string(v))
        elif isinstance(v, Obj):
            pairs = key_order(v) if key_order else v
            out.append("{")
            for i, (k, x) in enumerate(pairs):
                if i:
                    out.append(",")
                out.append(string(k))
                out.append(":")
                walk(x)
            out.append("}")
        elif isinstance(v, list):
            out.append("[")
            for i, x in enumerate(v):
                if i:
                    out.append(",")
                walk(x)
            out.append("]")
        else:
            raise TypeError("not a JSON value: %r" % (v,))

    try:
        walk(value)
    except RecursionError as error:
        raise ValueError("nested too deeply for the proxy") from error
    return "".join(out)


def walk_values(value, pointer=""):
    """Yields (JSON Pointer, value) for every value, the document first."""
    stack = [(pointer, value)]
    while stack:
        p, v = stack.pop()
        yield p, v
        if isinstance(v, Obj):
            for k, x in reversed(v):
                stack.append((p + "/" + k.replace("~", "~0").replace("/", "~1"), x))
        elif isinstance(v, list):
            for i in range(len(v) - 1, -1, -1):
                stack.append((p + "/" + str(i), v[i]))


def at_pointer(value, pointer):
    """The value at a JSON Pointer (last duplicate key wins), or raises KeyError."""
    if pointer == "":
        return value
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, Obj):
            found = [v for k, v in value if k == token]
            if not found:
                raise KeyError(pointer)
            value = found[-1]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            raise KeyError(pointer)
    return value


def map_values(value, fn):
    """A copy of the tree with fn applied bottom-up to every value (fn may return the value itself)."""
    if isinstance(value, Obj):
        return fn(Obj((k, map_values(v, fn)) for k, v in value))
    if isinstance(value, list):
        return fn([map_values(v, fn) for v in value])
    return fn(value)


# --- numbers -----------------------------------------------------------------------------------------


def split_number(token):
    """(negative, digits without leading zeros, exponent) with value = digits * 10**exponent."""
    t = str(token)
    negative = t.startswith("-")
    if negative:
        t = t[1:]
    exponent = 0
    for e in "eE":
        if e in t:
            t, exp = t.split(e, 1)
            exponent = int(exp)
    if "." in t:
        whole, frac = t.split(".", 1)
        exponent -= len(frac)
        t = whole + frac
    digits = t.lstrip("0")
    return negative, digits, exponent


def is_integral(token):
    _, digits, exponent = split_number(token)
    if not digits or exponent >= 0:
        return True
    return len(digits.rstrip("0")) <= len(digits) + exponent


def integer_magnitude_exceeds(token, limit=9007199254740991):
    """True for an integral number with |n| > limit (2^53 - 1 by default)."""
    if not is_integral(token):
        return False
    _, digits, exponent = split_number(token)
    if not digits:
        return False
    if exponent > 400:
        return True
    return int(digits) * 10**exponent > limit if exponent >= 0 else int(digits[:exponent] or "0") > limit


# --- the inner adapter and the loop -----------------------------------------------------------------


def b64(data):
    return base64.b64encode(data).decode("ascii")


def unb64(text):
    return base64.b64decode(text) if text else b""


class Inner:
    """The real adapter behind the proxy, spoken to one line at a time."""

    def __init__(self, argv):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.hello = None
        self._next_id = -1  # the proxy's own requests use negative ids, never the harness's

    def ask(self, line):
        self.process.stdin.write(line if line.endswith(b"\n") else line + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            sys.stderr.write("proxy: the inner adapter ended (status %s)\n" % self.process.poll())
            sys.stderr.flush()
            sys.exit(1)
        return json.loads(answer)

    def decode(self, root, data):
        """The inner adapter's answer for (root, bytes): a dict with outcome, diagnostics, encoded (bytes or None)."""
        rid = self._next_id
        self._next_id -= 1
        request = {"op": "decode", "id": rid, "root": root, "input": b64(data)}
        answer = self.ask(json.dumps(request).encode())
        answer["encoded"] = unb64(answer["encoded"]) if answer.get("encoded") else None
        return answer

    def validate(self, document, data):
        """The inner adapter's validate answer for (document, bytes): {id, outcome, errors, message}."""
        # A validate id must be a non-negative integer (the reference refuses "-1"); the proxy asks
        # one question at a time, so a large one of its own never meets the harness's in flight.
        rid = 2**53 + (-self._next_id)
        self._next_id -= 1
        request = {"op": "validate", "id": rid, "document": document, "input": b64(data)}
        return self.ask(json.dumps(request).encode())

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except Exception:  # noqa: BLE001 - best effort at the end
            self.process.kill()


def serve(transform, name, inner_argv, on_hello=None, validate_transform=None):
    """The proxy loop. transform(inner, root, data, answer) -> answer, where answer is the inner
    adapter's decode answer with "encoded" as bytes (or None); it returns the answer to send (same
    form) or None to send nothing (a hang or crash is the transform's own business).
    validate_transform(inner, document, data, answer) -> answer does the same for the validate op
    (layer 2), whose answer is {id, outcome, errors, message}; None leaves those answers alone."""
    inner = Inner(inner_argv)
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    for line in iter(stdin.readline, b""):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        op = request.get("op") if isinstance(request, dict) else None
        if op == "shutdown":
            break
        answer = inner.ask(line)
        if op == "hello" and isinstance(answer.get("implementation"), dict):
            answer["implementation"]["name"] = name
            # The proxy alters single answers only: it does not pass on the batch op (docs/protocol.md).
            answer.pop("batch", None)
            inner.hello = answer
            if on_hello:
                on_hello(answer)
        elif op == "decode" and "outcome" in answer and isinstance(request.get("input"), str):
            try:
                data = base64.b64decode(request["input"], validate=True)
            except ValueError:
                data = None
            if data is not None:
                answer["encoded"] = unb64(answer["encoded"]) if answer.get("encoded") else None
                answer = transform(inner, request.get("root"), data, answer)
                if answer is None:
                    continue
                if isinstance(answer.get("encoded"), (bytes, bytearray)):
                    answer["encoded"] = b64(answer["encoded"])
        elif op == "validate" and validate_transform and "outcome" in answer and isinstance(request.get("input"), str):
            try:
                data = base64.b64decode(request["input"], validate=True)
            except ValueError:
                data = None
            if data is not None:
                answer = validate_transform(inner, request.get("document"), data, answer)
                if answer is None:
                    continue
        stdout.write(json.dumps(answer, separators=(",", ":")).encode() + b"\n")
        stdout.flush()
    inner.close()
    return 0


def split_argv(argv):
    """(own arguments, inner adapter argv) around the first "--"."""
    if "--" not in argv:
        return argv, []
    i = argv.index("--")
    return argv[:i], argv[i + 1 :]
