#!/usr/bin/env python3
"""Writes the small schema sets used by tests/unit/schema_loader_test.cpp.

Each case is a directory: schema documents formatted like the upstream ones (json.dumps(indent=2) plus a
newline), a manifest.json with their sha256s, and for bundle cases a schemas.json array (plus an
ahp-codegen.lock.json), committed with a .in suffix (the build copies them under their real names,
so the repository carries nothing named like an SDK's files). Error cases break exactly one thing. Run from anywhere; it rewrites in place.
"""
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID = "https://agenthooksprotocol.org/schemas/draft/"


def dump(value):
    return json.dumps(value, indent=2) + "\n"


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def doc(name, body):
    return name, {"$schema": DIALECT, "$id": ID + name, **body}


# A miniature protocol: a request whose params.event is a constrained union of a three-event union.
MINI = [
    doc("common.schema.json", {"$defs": {
        "id": {"type": "string", "minLength": 1},
        "request": {"type": "object", "required": ["jsonrpc", "id", "method"], "properties": {
            "jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/id"}, "method": {"type": "string"}}},
        "protocolVersion": {"const": "draft"}}}),
    doc("ping.schema.json", {"type": "object", "required": ["type"], "properties": {
        "type": {"const": "ping"}, "count": {"type": "integer", "minimum": 0}}}),
    doc("event.schema.json", {"oneOf": [
        {"$ref": "ping.schema.json"}, {"$ref": "#/$defs/pong"}, {"$ref": "#/$defs/stop"}], "$defs": {
        "pong": {"type": "object", "required": ["type"], "properties": {"type": {"const": "pong"}}},
        "stop": {"type": "object", "required": ["type", "reason"], "properties": {
            "type": {"const": "stop"}, "reason": {"enum": ["done", "error"]}}, "additionalProperties": False}}}),
    doc("request.schema.json", {"allOf": [{"$ref": "common.schema.json#/$defs/request"}, {"type": "object", "properties": {
        "method": {"const": "mini/request"},
        "params": {"type": "object", "required": ["event"], "properties": {
            "protocolVersion": {"$ref": "common.schema.json#/$defs/protocolVersion"},
            "event": {"$ref": "event.schema.json", "oneOf": [
                {"$ref": "ping.schema.json"}, {"$ref": "event.schema.json#/$defs/pong"}]}}}}}]}),
]
MINI_NAMES = {
    "schema/draft/request.schema.json#": "MiniRequest",
    "schema/draft/event.schema.json#": "Event",
    "schema/draft/ping.schema.json#": "PingEvent",
    "schema/draft/event.schema.json#/$defs/pong": "PongEvent",
}


def manifest(docs, names=None, dialect=DIALECT, drop=None, override=None):
    m = {"status": "Test", "snapshotVersion": "draft", "protocolVersion": "draft", "dialect": dialect}
    if names is not None:
        m["sdkGeneration"] = {"stableNames": names}
    m["documents"] = [{"path": "schema/draft/" + n, "sha256": sha(dump(b))} for n, b in docs]
    for key in drop or []:
        del m[key]
    for key, value in (override or {}).items():
        m[key] = value
    return m


# Our small documents that share a file name with a real protocol document get a .in suffix in the
# repository; the build copies them under their real names (tests/CMakeLists.txt).
PROTOCOL_NAMES = {"common.schema.json", "event.schema.json", "effect.schema.json", "registration.schema.json"}


def write_dir(case, docs, man=None, raw_manifest=None):
    path = os.path.join(HERE, case)
    os.makedirs(path)
    for name, body in docs:
        stored = name + ".in" if name in PROTOCOL_NAMES else name
        with open(os.path.join(path, stored), "w") as f:
            f.write(dump(body))
    if raw_manifest is not None:
        with open(os.path.join(path, "manifest.json"), "w") as f:
            f.write(raw_manifest)
    elif man is not None:
        with open(os.path.join(path, "manifest.json"), "w") as f:
            f.write(dump(man))


def write_bundle(case, docs, lock=True, tamper=None, strip_id=None):
    path = os.path.join(HERE, case)
    os.makedirs(path)
    bodies = [dict(b) for _, b in docs]
    if strip_id is not None:
        del bodies[strip_id]["$id"]
    with open(os.path.join(path, "schemas.json.in"), "w") as f:
        f.write(json.dumps(bodies))
    if lock:
        entries = [{"path": "schema/draft/" + n, "sha256": sha(dump(b))} for n, b in docs]
        if tamper is not None:
            entries[tamper]["sha256"] = "0" * 64
        with open(os.path.join(path, "ahp-codegen.lock.json.in"), "w") as f:
            f.write(dump({"schemaRevision": "draft", "protocolVersion": "draft", "language": "test",
                          "schemaManifestSha256": "ab" * 32, "documents": entries}))


def one(body):
    return [doc("a.schema.json", body)]


def main():
    for entry in os.listdir(HERE):
        if os.path.isdir(os.path.join(HERE, entry)):
            shutil.rmtree(os.path.join(HERE, entry))

    write_dir("mini", MINI, manifest(MINI, MINI_NAMES))
    write_bundle("mini-bundle", MINI)
    write_bundle("mini-bundle-nolock", MINI, lock=False)
    write_bundle("bundle-lock-mismatch", MINI, tamper=2)
    write_bundle("bundle-no-id", MINI, lock=False, strip_id=1)
    # A manifest whose names are borrowed by a bundle (--names-from); one key names nothing there.
    write_dir("names-only", [], manifest([], dict(MINI_NAMES, **{"schema/draft/gone.schema.json#": "Gone"})))

    write_dir("no-manifest", one({"type": "string"}))
    write_dir("malformed-manifest", one({"type": "string"}), raw_manifest='{"dialect": "x",\n  "documents": [}\n')
    write_dir("bad-dialect", one({"type": "string"}),
              manifest(one({"type": "string"}), dialect="http://json-schema.org/draft-07/schema#"))
    write_dir("no-documents", one({"type": "string"}), manifest(one({"type": "string"}), drop=["documents"]))
    sha_docs = one({"type": "string"})
    m = manifest(sha_docs)
    m["documents"][0]["sha256"] = sha("something else")
    write_dir("sha-mismatch", sha_docs, m)

    cases = {
        "unresolvable-ref": {"type": "object", "properties": {"x": {"$ref": "#/$defs/missing"}}, "$defs": {}},
        "missing-document-ref": {"type": "object", "properties": {"x": {"$ref": "other.schema.json"}}},
        "network-ref": {"type": "object", "properties": {
            "x": {"$ref": "https://example.com/schemas/x.schema.json"}}},
        "dotdot-ref": {"type": "object", "properties": {"x": {"$ref": "../other/x.schema.json"}}},
        "pattern-properties": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
        "prefix-items": {"type": "array", "prefixItems": [{"type": "string"}]},
        "dynamic-ref": {"$defs": {"node": {"type": "object", "properties": {"next": {"$dynamicRef": "#node"}}}},
                        "type": "object"},
        "dependent-schemas": {"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
        "unevaluated-properties": {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}],
                                   "unevaluatedProperties": False},
    }
    for case, body in cases.items():
        write_dir(case, one(body), manifest(one(body)))

    collision = [doc("a.schema.json", {"type": "object", "$defs": {"x": {"type": "string"}}}),
                 doc("b.schema.json", {"type": "string"})]
    write_dir("name-collision", collision, manifest(collision, {
        "schema/draft/a.schema.json#/$defs/x": "Thing", "schema/draft/b.schema.json#": "Thing"}))
    write_dir("unknown-stable-name", one({"type": "string"}), manifest(one({"type": "string"}), {
        "schema/draft/a.schema.json#/$defs/nope": "Nope"}))


if __name__ == "__main__":
    main()
