// command_serve_adapter.cpp: `crosscheck serve-adapter`, the C++ decoder behind adapter protocol v1
// (docs/protocol.md). It is the `cpp` entry of adapters/default.json, and how the adapter pool is
// tested end to end against a real implementation.
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "decoder/decoder.hpp"
#include "differential/reference_validation.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::cli {
namespace {

using json::Value;

void send(const Value& answer) { std::cout << json::write(answer) << '\n' << std::flush; }

Value error_answer(const Value* id, const std::string& message) {
  Value a = Value::object();
  a.add("id", id ? *id : Value::null());
  a.add("outcome", Value::string("error"));
  a.add("diagnostics", Value::array());
  a.add("encoded", Value::null());
  a.add("encodeError", Value::null());
  a.add("message", Value::string(message));
  return a;
}

Value hello_answer(const schema::Ir& ir) {
  Value impl = Value::object();
  impl.add("name", Value::string(std::string(verdict::kReferenceImplementation)));
  impl.add("language", Value::string("c++"));
  impl.add("version", Value::string(CROSSCHECK_VERSION));
  impl.add("languageVersion", Value::string(__VERSION__));
  impl.add("os", Value::string("linux"));
  Value a = Value::object();
  a.add("op", Value::string("hello"));
  a.add("protocol", Value::number("1"));
  a.add("implementation", std::move(impl));
  a.add("lock", ir.lock ? *ir.lock : Value::null());
  a.add("schemaBundle", Value::string(ir.source_path));
  Value roots = Value::array();
  for (const auto& r : ir.roots) roots.push(Value::string(r.snake_name));
  a.add("roots", std::move(roots));
  Value layers = Value::array();
  for (const auto& l : differential::reference_layers()) layers.push(Value::string(l));
  a.add("layers", std::move(layers));
  Value batch = Value::object();
  batch.add("max", Value::number("256"));  // kBatchMax
  a.add("batch", std::move(batch));
  return a;
}

// Each error carries the failed keyword too (optional in the protocol): the self-test's faulty
// proxy emulates a validator that skips one keyword from it (selftest/faulty_adapter.py).
Value validate_answer(const Value* id, const char* outcome, const std::vector<std::string>& paths,
                      const std::vector<std::string>& keywords, const std::optional<std::string>& message) {
  Value a = Value::object();
  a.add("id", id ? *id : Value::null());
  a.add("outcome", Value::string(outcome));
  Value errors = Value::array();
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Value e = Value::object();
    e.add("path", Value::string(paths[i]));
    if (i < keywords.size()) e.add("keyword", Value::string(keywords[i]));
    errors.push(std::move(e));
  }
  a.add("errors", std::move(errors));
  a.add("message", message ? Value::string(*message) : Value::null());
  return a;
}

// The validate op (layer 2): the reference's verdict through differential::validate_reference.
Value validate(const schema::Ir& ir, const Value& req) {
  const Value* id = req.find("id");
  const Value* document = req.find("document");
  const Value* input = req.find("input");
  bool id_ok =
      id && id->is_number() && id->number_text().find_first_not_of("0123456789") == std::string::npos;
  if (!id_ok || !document || !document->is_string() || !input || !input->is_string()) {
    return validate_answer(
        id_ok ? id : nullptr, "error", {}, {},
        std::string("bad request: validate needs an integer id, a document and a base64 input"));
  }
  auto bytes = base64_decode(input->string_value());
  if (!bytes) return validate_answer(id, "error", {}, {}, std::string("invalid base64"));
  differential::ValidateResult r = differential::validate_reference(ir, document->string_value(), *bytes);
  return validate_answer(id, differential::verdict_name(r.verdict), r.error_paths, r.error_keywords,
                         r.message);
}

// Entries per batch line (the batch op, docs/protocol.md); a longer batch is refused.
constexpr std::size_t kBatchMax = 256;

// The answer to one decode, bench, validate or unknown-op request object.
Value answer_request(const schema::Ir& ir, decoder::Decoder& decoder, const Value& req) {
  const Value* op = req.find("op");
  const Value* id = req.find("id");
  std::string op_name = op && op->is_string() ? op->string_value() : "";
  if (op_name == "validate") return validate(ir, req);
  if (op_name != "decode" && op_name != "bench")
    return error_answer(id, "bad request: unknown op '" + op_name + "'");
  const Value* root_name = req.find("root");
  const Value* input = req.find("input");
  if (!id || !id->is_number() || !root_name || !root_name->is_string() || !input || !input->is_string()) {
    return error_answer(id, "bad request: decode needs an integer id, a root and a base64 input");
  }
  auto bytes = base64_decode(input->string_value());
  const schema::Root* root = ir.find_root(root_name->string_value());
  if (op_name == "bench") {
    const Value* iterations = req.find("iterations");
    unsigned long long n = iterations && iterations->is_number() ? std::stoull(iterations->number_text()) : 1;
    if (!bytes || !root) return error_answer(id, !bytes ? "invalid base64" : "unsupported root");
    auto start = std::chrono::steady_clock::now();
    for (unsigned long long i = 0; i < n; ++i) decoder.decode(*root, *bytes);
    auto nanos =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
            .count();
    Value a = Value::object();
    a.add("id", *id);
    a.add("nanos", Value::number(std::to_string(nanos)));
    return a;
  }
  Value a = Value::object();
  a.add("id", *id);
  // An unknown root is "unsupported" whatever the input: the answer must not depend on the order
  // in which the request's faults are checked (the SDK adapters check the root first too).
  if (!root) {
    a.add("outcome", Value::string("unsupported"));
    a.add("diagnostics", Value::array());
    a.add("encoded", Value::null());
    a.add("encodeError", Value::null());
    a.add("message", Value::string("no root named " + root_name->string_value()));
    return a;
  }
  if (!bytes) return error_answer(id, "invalid base64");
  decoder::DecodeResult result = decoder.decode(*root, *bytes);
  a.add("outcome", Value::string(result.accepted ? "accepted" : "rejected"));
  Value diags = Value::array();
  for (const auto& d : result.diagnostics) {
    Value o = Value::object();
    o.add("path", Value::string(d.path));
    o.add("code", Value::string(d.code));
    o.add("severity", Value::string(decoder::severity_name(d.severity)));
    diags.push(std::move(o));
  }
  a.add("diagnostics", std::move(diags));
  a.add("encoded", result.encoded ? Value::string(base64_encode(*result.encoded)) : Value::null());
  a.add("encodeError", Value::null());
  a.add("message", Value::null());
  return a;
}

// The batch op: one answer per entry, in order, in one line; a bad entry is answered as a bad request.
Value answer_batch(const schema::Ir& ir, decoder::Decoder& decoder, const Value& req) {
  const Value* id = req.find("id");
  const Value* entries = req.find("requests");
  Value a = Value::object();
  a.add("id", id && id->is_number() ? *id : Value::null());
  if (!entries || !entries->is_array() || entries->items().empty()) {
    a.add("error", Value::string("bad batch: requests must be a non-empty array"));
    return a;
  }
  if (entries->items().size() > kBatchMax) {
    a.add("error", Value::string("bad batch: " + std::to_string(entries->items().size()) +
                                 " requests, at most " + std::to_string(kBatchMax)));
    return a;
  }
  Value answers = Value::array();
  for (const Value& entry : entries->items()) {
    const Value* op = entry.is_object() ? entry.find("op") : nullptr;
    bool known =
        op && op->is_string() && (op->string_value() == "decode" || op->string_value() == "validate");
    if (!known) {
      const Value* entry_id = entry.is_object() ? entry.find("id") : nullptr;
      answers.push(error_answer(entry_id && entry_id->is_number() ? entry_id : nullptr,
                                "bad request: a batch entry is a decode or validate request object"));
      continue;
    }
    answers.push(answer_request(ir, decoder, entry));
  }
  a.add("answers", std::move(answers));
  return a;
}

int serve(const std::string& schema_path) {
  schema::Ir ir = load_ir_or_fail(schema_path);
  decoder::Decoder decoder(ir);
  // Unsynchronised streams read stdin in blocks, not byte by byte (a quarter of the per-request cost).
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  std::string line;
  while (std::getline(std::cin, line)) {
    auto request = json::parse(line);
    if (!request.ok() || !request.value().is_object()) {
      send(error_answer(nullptr, "bad request: " + (request.ok() ? std::string("not an object")
                                                                 : request.error().message())));
      continue;
    }
    const Value& req = request.value();
    const Value* op = req.find("op");
    std::string op_name = op && op->is_string() ? op->string_value() : "";
    if (op_name == "hello") {
      const Value* protocol = req.find("protocol");
      if (!protocol || !protocol->is_number() || protocol->number_text() != "1") {
        Value a = Value::object();
        a.add("op", Value::string("hello"));
        a.add("protocol", Value::number("1"));
        a.add("error",
              Value::string("unsupported protocol " + (protocol ? json::write(*protocol) : "(none)")));
        send(a);
        return 2;
      }
      send(hello_answer(ir));
      continue;
    }
    if (op_name == "shutdown") return 0;
    send(op_name == "batch" ? answer_batch(ir, decoder, req) : answer_request(ir, decoder, req));
  }
  return 0;
}

const Registration kServeAdapter{CommandSpec{
    "serve-adapter", "Serve the C++ decoder over adapter protocol v1 on stdin/stdout (the 'cpp' adapter)",
    "  printf '%s\\n' '{\"op\":\"hello\",\"protocol\":1}' | crosscheck serve-adapter\n"
    "  crosscheck serve-adapter --schema path/to/schemas.json",
    [](CLI::App& sub) {
      auto schema = std::make_shared<std::string>();
      sub.add_option("--schema", *schema, "Schema folder (with manifest.json) or SDK schemas.json bundle");
      return [schema] { return serve(*schema); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
