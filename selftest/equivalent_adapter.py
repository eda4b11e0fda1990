#!/usr/bin/env python3
"""equivalent_adapter.py: a protocol-v1 adapter that differs from the one behind it only in ways the
decoding contract allows, so a differential run against the reference must find nothing.

A proxy in front of a real adapter (normally `crosscheck serve-adapter`, docs/selftest.md):
- the re-encoding is rewritten: duplicate keys collapsed (last one wins, as the comparator reads
  them), member order reversed, whitespace (spaces, tabs, CR, LF) between tokens, every number
  respelled with the same exact value (100 -> 1.00E2, 0.5 -> 5.0e-1), strings written with other
  escapes (non-ASCII as \\uXXXX, "/" as "\\/", some ASCII letters as \\u00XX);
- diagnostics come in reverse order (the comparator reads them as multisets);
- a rejected answer carries its own message text (messages are never compared);
- layer 2 (the validate op): the same verdict, its error paths in reverse order and with its own
  message (engines report different errors for one verdict; only the verdict is compared).

    equivalent_adapter.py -- /path/to/crosscheck serve-adapter
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proxy  # noqa: E402
from proxy import Obj, dumps, loads  # noqa: E402

_WHITESPACE = [" ", "\t", "\n", "\r\n", "  "]


def respell_number(token):
    """The same exact value, spelled as d.dddE±x (case and sign of the exponent vary)."""
    negative, digits, exponent = proxy.split_number(token)
    sign = "-" if negative else ""
    if not digits:
        return sign + "0.0E0"
    point = exponent + len(digits) - 1  # value = d.ddd * 10**point
    rest = digits[1:] or "0"
    marker = "e" if len(digits) % 2 else "E"
    plus = "+" if point >= 0 and len(digits) % 3 == 0 else ""
    return "%s%s.%s%s%s%d" % (sign, digits[0], rest, marker, plus, point)


def respell_string(s):
    body = proxy.dump_string(s)[1:-1]  # ASCII, non-ASCII as \uXXXX
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":  # an escape already: copied whole (\uXXXX is six characters)
            width = 6 if body[i + 1] == "u" else 2
            out.append(body[i : i + width])
            i += width
            continue
        if c == "/":
            out.append("\\/")
        elif c in "aeAE":  # some plain letters as \u00XX: equal strings, other bytes
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
        i += 1
    return '"' + "".join(out) + '"'


def collapse_and_reverse(pairs):
    last = {}
    for k, v in pairs:
        last[k] = v  # the last duplicate wins, at the first one's place: equal as a map
    return list(reversed(list(last.items())))


def spaced(compact):
    """Inserts legal JSON whitespace between tokens of a compact text (never inside strings)."""
    out, in_string, escaped, n = [], False, False, 0
    for c in compact:
        out.append(c)
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            continue
        if c == '"':
            in_string = True
        elif c in ",:[{":
            out.append(_WHITESPACE[n % len(_WHITESPACE)])
            n += 1
    return " " + "".join(out) + "\n"


def transform(inner, root, data, answer):
    diagnostics = answer.get("diagnostics") or []
    answer["diagnostics"] = list(reversed(diagnostics))
    if answer.get("outcome") == "rejected":
        answer["message"] = "equivalent adapter: rejected with %d diagnostic(s)" % len(diagnostics)
    if answer.get("outcome") == "accepted" and answer.get("encoded") is not None:
        try:
            value = loads(answer["encoded"])
            text = dumps(value, string=respell_string, number=respell_number, key_order=collapse_and_reverse)
        except (ValueError, UnicodeDecodeError):
            return answer  # too deep for Python, or not text: left as the reference wrote it
        answer["encoded"] = spaced(text).encode()
    return answer


def validate_transform(inner, document, data, answer):
    errors = answer.get("errors") or []
    answer["errors"] = list(reversed(errors))
    if answer.get("outcome") == "invalid":
        answer["message"] = "equivalent adapter: invalid with %d error(s)" % len(errors)
    return answer


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    own, inner = proxy.split_argv(argv)
    if own or not inner:
        sys.stderr.write("usage: equivalent_adapter.py -- INNER ADAPTER COMMAND\n")
        return 2
    return proxy.serve(transform, "equivalent", inner, validate_transform=validate_transform)


if __name__ == "__main__":
    sys.exit(main())
