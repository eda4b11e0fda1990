// crosscheck adapter for the AHP TypeScript SDK (adapter protocol v1, see docs/protocol.md).
//
// Reads NDJSON requests on stdin, writes one JSON line per request on stdout (synchronous on
// Linux pipes). The SDK is the built checkout named by AHP_TYPESCRIPT_SDK (npm does not publish
// it); we import only its codec module, the package's "./generated" export. Two paths:
//   text (default)  parse<Root>(text) then encode<Root>(value)
//   --path object   parse<Root>(JSON.parse(text)) then encode<Root>(value)
// The root table comes from the module's own parse*/encode* exports.
// Layer 2 (the validate op, text path only): the package's "./draft" module, whose public
// validate<Document>(value) functions run Ajv 2020 with the uri and date-time formats, then the
// generated parse: eight documents (registration, effect, capabilities, capabilities-request,
// capabilities-response, intercept-request, intercept-response, observe-notification); any other
// is unsupported. No test logic lives here.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const PROTOCOL = 1;
const here = dirname(fileURLToPath(import.meta.url));

function packageDir(root) {
  const nested = join(root, "packages", "sdk");
  return existsSync(join(nested, "package.json")) ? nested : root;
}

function readJson(file) {
  try { return JSON.parse(readFileSync(file, "utf8")); } catch { return null; }
}

function codecModule(pkg, manifest) {
  const exported = manifest?.exports?.["./generated"];
  const target = typeof exported === "string" ? exported : exported?.default;
  const candidates = [target, "dist/src/draft/codecs.js", "dist/src/draft/generated.js"];
  return candidates.filter(Boolean).map((c) => resolve(pkg, c)).find((c) => existsSync(c));
}

const snake = (pascal) => pascal.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

function table(codecs) {
  const roots = new Map();
  for (const name of Object.keys(codecs)) {
    const pascal = name.slice("parse".length);
    if (name.startsWith("parse") && typeof codecs[name] === "function" &&
        typeof codecs["encode" + pascal] === "function") {
      roots.set(snake(pascal), { parse: codecs[name], encode: codecs["encode" + pascal] });
    }
  }
  return roots;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }); // keep a BOM for the SDK
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function payload(input) {
  if (!base64.test(input)) return { problem: "invalid base64" };
  try { return { text: utf8.decode(Buffer.from(input, "base64")) }; } catch {
    return { problem: "input is not UTF-8" };
  }
}

const describe = (e) => (e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`);
const strip = (ds) => ds.map((d) => ({ path: d.path, code: d.code, severity: d.severity }));

function answer(id, outcome, extra = {}) {
  return { id, outcome, diagnostics: [], encoded: null, encodeError: null, message: null, ...extra };
}

function run(codec, text, objectPath) {
  let input = text;
  if (objectPath) {
    try { input = JSON.parse(text); } catch (e) {
      // The object path starts with Node's reader: a payload it refuses never reaches the SDK.
      const diagnostics = [{ path: "", code: "invalid_json", severity: "error" }];
      return { outcome: "rejected", diagnostics, message: `JSON.parse: ${e.message}` };
    }
  }
  // parse<Root> reads a string argument as JSON text: a payload whose value is itself a string is
  // handed over as the JSON text of that string, so the SDK sees the string value, not text to
  // parse a second time.
  if (objectPath && typeof input === "string") input = JSON.stringify(input);
  const result = codec.parse(input);
  if (!result.ok) return { outcome: "rejected", diagnostics: strip(result.diagnostics) };
  try {
    const encoded = Buffer.from(codec.encode(result.value), "utf8").toString("base64");
    return { outcome: "accepted", diagnostics: strip(result.diagnostics), encoded };
  } catch (e) {
    return { outcome: "accepted", diagnostics: strip(result.diagnostics), encodeError: describe(e) };
  }
}

function decode(state, id, request) {
  const codec = state.roots.get(request.root);
  if (!codec) return answer(id, "unsupported", { message: `no root "${request.root}" in this SDK` });
  const { text, problem } = payload(request.input);
  if (problem) return answer(id, "error", { message: problem });
  try {
    const { outcome, ...extra } = run(codec, text, state.objectPath);
    return answer(id, outcome, extra);
  } catch (e) {
    return answer(id, "error", { message: describe(e) });
  }
}

function bench(state, id, request) {
  const codec = state.roots.get(request.root);
  const { text, problem } = payload(request.input);
  if (!codec || problem) return { id, nanos: null, message: problem ?? "unsupported root" };
  const start = process.hrtime.bigint();
  try {
    for (let i = 0; i < request.iterations; i++) run(codec, text, state.objectPath);
  } catch (e) {
    return { id, nanos: null, message: describe(e) };
  }
  return { id, nanos: Number(process.hrtime.bigint() - start) };
}

const camel = (kebab) => kebab.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

// The draft module's validate<Document> functions, by document name.
function validators(draft) {
  const out = new Map();
  for (const document of ["registration", "effect", "capabilities", "capabilities-request",
    "capabilities-response", "intercept-request", "intercept-response", "observe-notification"]) {
    const name = "validate" + camel(document).replace(/^./, (c) => c.toUpperCase());
    if (typeof draft?.[name] === "function") out.set(document, draft[name]);
  }
  return out;
}

function verdict(id, outcome, errors = [], message = null) {
  return { id, outcome, errors: errors.map((path) => ({ path })), message };
}

// The SDK's error texts are "<instancePath or '/'>: <message>" (Ajv) or "<path>: <message>" (codec).
function errorPath(text) {
  const at = text.indexOf(": ");
  const path = at < 0 ? null : text.slice(0, at);
  if (path === "/" || path === "") return "";
  return path !== null && /^(\/([^~/]|~[01])*)+$/.test(path) ? path : null;
}

function validate(state, id, request) {
  const check = state.validators.get(request.document);
  if (!check) return verdict(id, "unsupported", [], `no canonical validation of "${request.document}" in this SDK`);
  const { text, problem } = payload(request.input);
  if (problem) return verdict(id, "error", [], problem);
  let value;
  try { value = JSON.parse(text); } catch (e) { return verdict(id, "invalid", [""], `JSON.parse: ${e.message}`); }
  try {
    const result = check(value);
    if (result.ok) return verdict(id, "valid");
    const paths = result.errors.map(errorPath).filter((p) => p !== null);
    return verdict(id, "invalid", paths, result.errors.join("; "));
  } catch (e) {
    return verdict(id, "error", [], describe(e));
  }
}

function hello(state) {
  return {
    op: "hello", protocol: PROTOCOL,
    implementation: {
      name: state.objectPath ? "typescript/object" : "typescript", language: "typescript",
      path: state.objectPath ? "object" : "text", version: state.version,
      ...(state.revision ? { revision: state.revision } : {}),
      languageVersion: process.versions.node, os: `${process.platform}-${process.arch}`,
    },
    lock: state.lock, schemaBundle: state.bundle, roots: [...state.roots.keys()].sort(),
    reportsWarnings: true,
    layers: state.validators.size > 0 ? ["structural", "canonical"] : ["structural"],
  };
}

/** Returns [reply or null, exit code or null]. */
function handle(state, line) {
  let request;
  try { request = JSON.parse(line); } catch (e) {
    return [answer(null, "error", { message: `bad request: ${e.message}` }), null];
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return [answer(null, "error", { message: "bad request: not a JSON object" }), null];
  }
  const id = Number.isInteger(request.id) ? request.id : null;
  switch (request.op) {
    case "hello":
      if (request.protocol !== PROTOCOL) {
        const error = `unsupported protocol ${JSON.stringify(request.protocol)}`;
        return [{ op: "hello", protocol: PROTOCOL, error }, 2];
      }
      return [hello(state), null];
    case "shutdown":
      return [null, 0];
    case "validate":
      if (state.validators.size === 0) break;
      if (id === null || typeof request.document !== "string" || typeof request.input !== "string") {
        return [verdict(id, "error", [], "bad request: validate needs an integer id, a string document and input"), null];
      }
      return [validate(state, id, request), null];
    case "decode":
    case "bench":
      if (id === null || typeof request.root !== "string" || typeof request.input !== "string") {
        const message = "bad request: needs an integer id, a string root and input";
        return [answer(id, "error", { message }), null];
      }
      return [(request.op === "decode" ? decode : bench)(state, id, request), null];
  }
  return [answer(id, "error", { message: `bad request: unknown op ${JSON.stringify(request.op)}` }), null];
}

async function main() {
  const args = process.argv.slice(2).join(" ");
  if (!["", "--path text", "--path object"].includes(args)) {
    process.stderr.write("usage: adapter.mjs [--path text|object]\n");
    process.exit(2);
  }
  if (!process.env.AHP_TYPESCRIPT_SDK) {
    process.stderr.write("ERROR: AHP_TYPESCRIPT_SDK is not set (a built typescript-sdk checkout)\n");
    process.exit(3);
  }
  const pkg = packageDir(resolve(process.env.AHP_TYPESCRIPT_SDK));
  const manifest = readJson(join(pkg, "package.json"));
  const module = codecModule(pkg, manifest);
  if (!module) {
    process.stderr.write(`ERROR: no built codec module under ${pkg} (build the checkout first)\n`);
    process.exit(3);
  }
  // The draft module (canonical validation), text path only; a checkout without it has no layer 2.
  const draftExport = manifest?.exports?.["./draft"];
  const draftTarget = typeof draftExport === "string" ? draftExport : draftExport?.default;
  const draftFile = [draftTarget, "dist/src/draft/index.js"].filter(Boolean).map((c) => resolve(pkg, c))
    .find((c) => existsSync(c));
  let draft = null;
  if (draftFile && args !== "--path object") {
    try { draft = await import(pathToFileURL(draftFile).href); } catch (e) {
      process.stderr.write(`canonical layer off: ${describe(e)}\n`);
    }
  }
  const built = readJson(join(here, "build", "sdk.json")); // written by install.sh
  const same = built?.packageDir === pkg;
  const state = {
    objectPath: args === "--path object",
    roots: table(await import(pathToFileURL(module).href)),
    validators: validators(draft),
    version: manifest?.version ?? "unknown",
    revision: same ? built.revision : null,
    lock: readJson(join(pkg, "src", "draft", "ahp-codegen.lock.json")) ??
      readJson(join(pkg, "..", "..", "ahp-codegen.lock.json")),
    bundle: same && built.schemaBundle && existsSync(built.schemaBundle) ? built.schemaBundle : null,
  };
  process.stdout.on("error", () => process.exit(3)); // the harness is gone
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let reply, code;
    try { [reply, code] = handle(state, line); } catch (e) {
      [reply, code] = [answer(null, "error", { message: `bad request: ${describe(e)}` }), null];
    }
    if (reply) process.stdout.write(JSON.stringify(reply) + "\n");
    if (code !== null) process.exit(code);
  });
  lines.on("close", () => process.exit(0));
}

await main();
