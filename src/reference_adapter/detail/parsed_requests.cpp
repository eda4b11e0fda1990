// parsed_requests.cpp: requests answered from the lossless parser's tree (parsed_requests.hpp).
#include "reference_adapter/detail/parsed_requests.hpp"

#include <chrono>

#include "exec/reference_validation.hpp"
#include "util/base64.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::reference_adapter::detail {

using json::Value;

Value hello_answer(const schema::Ir& ir, bool echo_input) {
  Value impl = Value::object();
  impl.add("name", Value::string(echo_input ? "cpp-echo" : std::string(verdict::kReferenceImplementation)));
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
  for (const auto& l : exec::reference_layers()) {
    if (!echo_input || l == "structural") layers.push(Value::string(l));
  }
  a.add("layers", std::move(layers));
  Value batch = Value::object();
  batch.add("max", Value::number(std::to_string(kBatchMax)));
  a.add("batch", std::move(batch));
  return a;
}

namespace {

void validate_request(std::string& out, const schema::Ir& ir, const Value& req) {
  const Value* id = req.find("id");
  const Value* document = req.find("document");
  const Value* input = req.find("input");
  bool id_ok =
      id && id->is_number() && id->number_text().find_first_not_of("0123456789") == std::string::npos;
  if (!id_ok || !document || !document->is_string() || !input || !input->is_string()) {
    return append_verdict(
        out, id_ok ? id->number_text() : "null", "error", {}, {},
        std::string("bad request: validate needs an integer id, a document and a base64 input"));
  }
  append_validate(out, ir, id->number_text(), document->string_value(), input->string_value());
}

}  // namespace

// The answer to one decode, bench, validate or unknown-op request object.
void answer_request(std::string& out, const schema::Ir& ir, Engine& engine, const Value& req) {
  const Value* op = req.find("op");
  const Value* id = req.find("id");
  std::string op_name = op && op->is_string() ? op->string_value() : "";
  if (op_name == "validate") return validate_request(out, ir, req);
  if (op_name != "decode" && op_name != "bench")
    return append_error(out, id_text(id), "bad request: unknown op '" + op_name + "'");
  const Value* root_name = req.find("root");
  const Value* input = req.find("input");
  if (!id || !id->is_number() || !root_name || !root_name->is_string() || !input || !input->is_string()) {
    return append_error(out, id_text(id),
                        "bad request: decode needs an integer id, a root and a base64 input");
  }
  if (op_name == "decode")
    return append_decode(out, ir, engine, id_text(id), root_name->string_value(), input->string_value());
  auto bytes = base64_decode(input->string_value());
  const schema::Root* root = ir.find_root(root_name->string_value());
  const Value* iterations = req.find("iterations");
  unsigned long long n = iterations && iterations->is_number() ? std::stoull(iterations->number_text()) : 1;
  if (!bytes || !root) return append_error(out, id_text(id), !bytes ? "invalid base64" : "unsupported root");
  auto start = std::chrono::steady_clock::now();
  for (unsigned long long i = 0; i < n; ++i) engine.decoder.decode(*root, *bytes);
  auto nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  out += "{\"id\":" + id_text(id) + ",\"nanos\":" + std::to_string(nanos) + "}";
}

// The batch op: one answer per entry, in order, in one line; a bad entry is answered as a bad request.
void answer_batch(std::string& out, const schema::Ir& ir, Engine& engine, const Value& req) {
  const Value* id = req.find("id");
  const Value* entries = req.find("requests");
  const std::string batch_id = id && id->is_number() ? id_text(id) : "null";
  if (!entries || !entries->is_array() || entries->items().empty()) {
    out += "{\"id\":" + batch_id + ",\"error\":\"bad batch: requests must be a non-empty array\"}";
    return;
  }
  if (entries->items().size() > kBatchMax) {
    out += "{\"id\":" + batch_id + ",\"error\":";
    append_string(out, "bad batch: " + std::to_string(entries->items().size()) + " requests, at most " +
                           std::to_string(kBatchMax));
    out += '}';
    return;
  }
  append_batch(out, batch_id, entries->items().size(), [&](std::size_t i) {
    const Value& entry = entries->items()[i];
    const Value* op = entry.is_object() ? entry.find("op") : nullptr;
    bool known =
        op && op->is_string() && (op->string_value() == "decode" || op->string_value() == "validate");
    if (!known) {
      const Value* entry_id = entry.is_object() ? entry.find("id") : nullptr;
      return append_error(out, entry_id && entry_id->is_number() ? id_text(entry_id) : "null",
                          "bad request: a batch entry is a decode or validate request object");
    }
    answer_request(out, ir, engine, entry);
  });
}

}  // namespace crosscheck::reference_adapter::detail
