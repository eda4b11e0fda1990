// protocol_codec.cpp: building requests and checking answers of adapter protocol v1.
#include "exec/protocol_codec.hpp"

#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "exec/adapter_config.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::protocol {

using core::Identity;
using core::ImplResult;
using core::Outcome;
using core::outcome_name;
using core::parse_outcome;
using core::ValidateResult;
using core::Verdict;
using core::verdict_name;

namespace {

using json::Value;

std::optional<std::uint64_t> integer(const Value& v) {
  if (!v.is_number()) return std::nullopt;
  const std::string& text = v.number_text();
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

// "member" must be absent, null or a string; the string, if any, goes to `out`.
std::optional<std::string> optional_string(const Value& object, const char* member,
                                           std::optional<std::string>& out) {
  const Value* v = object.find(member);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_string()) return std::string("\"") + member + "\" must be a string or null";
  out = v->string_value();
  return std::nullopt;
}

struct LineSchema {
  const char* file;
  const char* def;  // the $defs entry the line must match, or nullptr for the whole document
};

LineSchema line_schema(Line kind) {
  switch (kind) {
    case Line::kHelloReply:
      return {"adapter-hello.schema.json", "reply"};
    case Line::kHelloRefusal:
      return {"adapter-hello.schema.json", "refusal"};
    case Line::kDecodeAnswer:
      return {"adapter-answer.schema.json", nullptr};
    case Line::kBenchReply:
      return {"adapter-bench.schema.json", "reply"};
    case Line::kValidateAnswer:
      return {"adapter-validate.schema.json", "reply"};
    case Line::kBatchReply:
      return {"adapter-batch.schema.json", "reply"};
    case Line::kBatchRefusal:
      return {"adapter-batch.schema.json", "refusal"};
  }
  return {"adapter-answer.schema.json", nullptr};
}

// The validator for one line kind: the shipped file, narrowed to its $defs entry by a "$ref" at
// the top (the entry's own "$ref"s stay inside the same document). Loaded once per process.
const json::SchemaValidator& validator_for(Line kind) {
  static std::mutex mutex;
  static std::map<Line, json::SchemaValidator> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(kind); it != cache.end()) return it->second;
  LineSchema where = line_schema(kind);
  std::string path = repository_root() + "/schemas/" + where.file;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = json::parse(text.str());
  if (!in || !parsed.ok()) throw Fatal("crosscheck's own schema " + path + " cannot be read as JSON");
  Value schema = std::move(parsed).value();
  if (where.def != nullptr) {
    const Value* defs = schema.find("$defs");
    Value narrowed = Value::object();
    narrowed.add("$defs", defs ? *defs : Value::object());
    narrowed.add("$ref", Value::string(std::string("#/$defs/") + where.def));
    schema = std::move(narrowed);
  }
  auto validator = json::SchemaValidator::from_value(std::move(schema));
  if (!validator.ok()) throw Fatal("crosscheck's own schema " + path + ": " + validator.error());
  return cache.emplace(kind, std::move(validator).value()).first->second;
}

// A validate answer that plainly meets #/$defs/reply of adapter-validate.schema.json, judged by hand:
// this runs on every answer, and the schema engine's regex patterns (an error path, "^bad request")
// cost more than the rest of the answer's handling. Sufficient, not necessary: false only means
// "not plainly" (an unusual key order is fine; another id spelling, a non-ASCII path, a duplicate
// key are not), and schema_problem then judges, with its message.
bool plain_pointer(const std::string& path) {
  if (!path.empty() && path.front() != '/') return false;
  for (std::size_t i = 0; i < path.size(); ++i) {
    auto c = static_cast<unsigned char>(path[i]);
    if (c < 0x20 || c >= 0x7f) return false;
    if (c == '~' && (i + 1 == path.size() || (path[i + 1] != '0' && path[i + 1] != '1'))) return false;
  }
  return true;
}

bool plainly_a_validate_reply(const Value& answer) {
  if (!answer.is_object()) return false;
  const Value *id = nullptr, *outcome = nullptr, *errors = nullptr, *message = nullptr;
  for (const json::Member& m : answer.members()) {
    const Value** slot = m.key == "id"        ? &id
                         : m.key == "outcome" ? &outcome
                         : m.key == "errors"  ? &errors
                         : m.key == "message" ? &message
                                              : nullptr;
    if (slot == nullptr || *slot != nullptr) return false;  // another member, or one twice
    *slot = &m.value;
  }
  if (!id || !outcome || !errors || !message || !outcome->is_string() || !errors->is_array()) return false;
  bool integer_id = id->is_number() && id->number_text().find_first_not_of("0123456789") == std::string::npos;
  if (!integer_id && !id->is_null()) return false;
  const std::string& o = outcome->string_value();
  bool invalid = o == "invalid", error = o == "error";
  if (!invalid && !error && o != "valid" && o != "unsupported") return false;
  if (!invalid && !errors->items().empty()) return false;
  for (const Value& e : errors->items()) {
    if (!e.is_object()) return false;
    const Value *path = nullptr, *keyword = nullptr;
    for (const json::Member& m : e.members()) {
      const Value** slot = m.key == "path" ? &path : m.key == "keyword" ? &keyword : nullptr;
      if (slot == nullptr || *slot != nullptr) return false;
      *slot = &m.value;
    }
    if (!path || !path->is_string() || !plain_pointer(path->string_value())) return false;
    if (keyword && (!keyword->is_string() || keyword->string_value().empty())) return false;
  }
  if (!message->is_string() && !message->is_null()) return false;
  if (error && !message->is_string()) return false;
  if (id->is_null() && !(error && message->string_value().rfind("bad request", 0) == 0)) return false;
  return true;
}

/// A request line: the op, the id, the subject under `subject_key` ("root" for a decode, "document"
/// for a validation), the input in base64 (encoded in place: no temporary copy per request), and the
/// bench op's iteration count when it has one.
std::string request_line(const char* op, std::uint64_t id, const char* subject_key, std::string_view subject,
                         std::string_view input, std::optional<std::uint64_t> iterations = std::nullopt) {
  std::string line;
  line.reserve(96 + subject.size() + (input.size() + 2) / 3 * 4);
  line += "{\"op\":\"";
  line += op;
  line += "\",\"id\":";
  line += std::to_string(id);
  line += ",\"";
  line += subject_key;
  line += "\":";
  line += json::quote(subject);
  line += ",\"input\":\"";
  base64_encode_to(line, input);
  line += '"';
  if (iterations) {
    line += ",\"iterations\":";
    line += std::to_string(*iterations);
  }
  line += "}\n";
  return line;
}

}  // namespace

std::string hello_request() { return "{\"op\":\"hello\",\"protocol\":" + std::to_string(kVersion) + "}\n"; }

std::string decode_request(std::uint64_t id, std::string_view root, std::string_view input) {
  return request_line("decode", id, "root", root, input);
}

std::string bench_request(std::uint64_t id, std::string_view root, std::string_view input,
                          std::uint64_t iterations) {
  return request_line("bench", id, "root", root, input, iterations);
}

std::string bench_validate_request(std::uint64_t id, std::string_view document, std::string_view input,
                                   std::uint64_t iterations) {
  return request_line("bench", id, "document", document, input, iterations);
}

std::string shutdown_request() { return "{\"op\":\"shutdown\"}\n"; }

std::string validate_request(std::uint64_t id, std::string_view document, std::string_view input) {
  return request_line("validate", id, "document", document, input);
}

std::string batch_request(std::uint64_t id, const std::vector<std::string>& entries) {
  std::size_t size = 48;
  for (const std::string& e : entries) size += e.size() + 1;
  std::string line;
  line.reserve(size);
  line += "{\"op\":\"batch\",\"id\":" + std::to_string(id) + ",\"requests\":[";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) line += ',';
    std::string_view e = entries[i];
    if (!e.empty() && e.back() == '\n') e.remove_suffix(1);
    line += e;
  }
  line += "]}\n";
  return line;
}

std::size_t hello_batch_max(std::string_view line, std::size_t max_bytes) {
  json::ParseLimits limits;
  limits.max_bytes = max_bytes;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok() || !parsed.value().is_object()) return 0;
  const Value* batch = parsed.value().find("batch");
  const Value* max = batch && batch->is_object() ? batch->find("max") : nullptr;
  auto n = max ? integer(*max) : std::nullopt;
  return n && *n >= 2 ? static_cast<std::size_t>(*n) : 0;
}

std::optional<std::string> schema_problem(Line kind, const Value& line) {
  auto bad = validator_for(kind).validate(line);
  if (!bad) return std::nullopt;
  return "at " + (bad->pointer.empty() ? std::string("\"\"") : bad->pointer) + ": " + bad->message +
         " (schemas/" + line_schema(kind).file + ")";
}

Result<Identity, std::string> parse_hello(std::string_view line, std::size_t max_bytes) {
  json::ParseLimits limits;
  limits.max_bytes = max_bytes;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok()) return "garbage hello (" + parsed.error().message() + "): " + excerpt(line);
  const Value& hello = parsed.value();
  if (!hello.is_object()) return "garbage hello (not an object): " + excerpt(line);
  const Value* op = hello.find("op");
  if (op == nullptr || !op->is_string() || op->string_value() != "hello") {
    return "garbage hello (no \"op\":\"hello\"): " + excerpt(line);
  }
  if (const Value* error = hello.find("error"); error != nullptr && !error->is_null()) {
    return "hello refused: " + (error->is_string() ? error->string_value() : json::write(*error));
  }
  const Value* protocol = hello.find("protocol");
  if (protocol == nullptr) return std::string("hello lacks \"protocol\"");
  if (auto version = integer(*protocol); !version || *version != kVersion) {
    return "protocol " + json::write(*protocol) + " (expected " + std::to_string(kVersion) + ")";
  }
  if (auto problem = schema_problem(Line::kHelloReply, hello)) return "hello breaks its schema " + *problem;
  Identity id;
  const Value& impl = *hello.find("implementation");
  id.reported_name = impl.find("name")->string_value();
  id.language = impl.find("language")->string_value();
  id.version = impl.find("version")->string_value();
  if (const Value* v = impl.find("languageVersion")) id.language_version = v->string_value();
  if (const Value* v = impl.find("os")) id.os = v->string_value();
  if (const Value* lock = hello.find("lock"); !lock->is_null()) id.lock = *lock;
  if (const Value* bundle = hello.find("schemaBundle"); bundle->is_string())
    id.schema_bundle = bundle->string_value();
  for (const Value& r : hello.find("roots")->items()) {
    if (!id.roots.empty() && id.roots.back() >= r.string_value()) {
      return "hello's roots are not sorted: " + json::quote(id.roots.back()) + " before " +
             json::quote(r.string_value());
    }
    id.roots.push_back(r.string_value());
  }
  if (const Value* warnings = hello.find("reportsWarnings")) id.reports_warnings = warnings->as_bool();
  if (const Value* layers = hello.find("layers")) {
    id.layers.clear();
    for (const Value& l : layers->items()) id.layers.push_back(l.string_value());
  }
  return id;
}

std::optional<std::uint64_t> answer_id(const Value& answer) {
  const Value* id = answer.is_object() ? answer.find("id") : nullptr;
  return id ? integer(*id) : std::nullopt;
}

Result<ImplResult, std::string> parse_decode_answer(const Value& answer) {
  ImplResult r;
  const Value* outcome = answer.find("outcome");
  if (outcome == nullptr) return std::string("answer lacks \"outcome\"");
  if (!outcome->is_string()) return std::string("\"outcome\" must be a string");
  auto parsed = parse_outcome(outcome->string_value());
  // crash, timeout and protocol are the harness's verdicts, never the adapter's.
  if (!parsed || (*parsed != Outcome::kAccepted && *parsed != Outcome::kRejected &&
                  *parsed != Outcome::kUnsupported && *parsed != Outcome::kError)) {
    return "unknown outcome " + json::write(*outcome);
  }
  r.outcome = *parsed;
  const Value* diagnostics = answer.find("diagnostics");
  if (diagnostics == nullptr) return std::string("answer lacks \"diagnostics\"");
  if (!diagnostics->is_array()) return std::string("\"diagnostics\" must be an array");
  for (const Value& d : diagnostics->items()) {
    const Value* path = d.is_object() ? d.find("path") : nullptr;
    const Value* code = d.is_object() ? d.find("code") : nullptr;
    const Value* severity = d.is_object() ? d.find("severity") : nullptr;
    if (!path || !code || !severity || !path->is_string() || !code->is_string() || !severity->is_string()) {
      return "a diagnostic needs string path, code and severity: " + excerpt(json::write(d));
    }
    r.diagnostics.push_back({path->string_value(), code->string_value(), severity->string_value()});
  }
  for (const char* member : {"encoded", "encodeError", "message"}) {
    if (answer.find(member) == nullptr) return std::string("answer lacks \"") + member + "\"";
  }
  std::optional<std::string> encoded;
  if (auto problem = optional_string(answer, "encoded", encoded)) return *problem;
  if (auto problem = optional_string(answer, "encodeError", r.encode_error)) return *problem;
  if (auto problem = optional_string(answer, "message", r.message)) return *problem;
  if (r.outcome == Outcome::kAccepted && encoded.has_value() == r.encode_error.has_value()) {
    return std::string("accepted needs exactly one of \"encoded\" and \"encodeError\"");
  }
  if (r.outcome != Outcome::kAccepted && (encoded || r.encode_error)) {
    return "\"encoded\" and \"encodeError\" must be null when the outcome is " + outcome->string_value();
  }
  if (r.outcome == Outcome::kError && !r.message) return std::string("outcome error needs a \"message\"");
  if (encoded) {
    r.encoded = base64_decode(*encoded);
    if (!r.encoded) return "\"encoded\" is not valid base64: " + excerpt(*encoded, 60);
  }
  return r;
}

Result<ValidateResult, std::string> parse_validate_answer(const Value& answer) {
  ValidateResult r;
  if (answer.find("diagnostics") != nullptr) {  // a decode-style answer: the op is not known there
    auto decoded = parse_decode_answer(answer);
    if (!decoded.ok()) return decoded.error();
    if (decoded->outcome != Outcome::kError) {
      return "a decode answer (outcome " + std::string(outcome_name(decoded->outcome)) +
             ") to a validate request";
    }
    r.verdict = Verdict::kError;
    r.message = decoded->message;
    return r;
  }
  if (!plainly_a_validate_reply(answer)) {
    if (auto problem = schema_problem(Line::kValidateAnswer, answer)) return "breaks its schema " + *problem;
  }
  const std::string& outcome = answer.find("outcome")->string_value();
  for (Verdict v : {Verdict::kValid, Verdict::kInvalid, Verdict::kUnsupported, Verdict::kError}) {
    if (outcome == verdict_name(v)) r.verdict = v;
  }
  for (const Value& e : answer.find("errors")->items())
    r.error_paths.push_back(e.find("path")->string_value());
  if (const Value* m = answer.find("message"); m->is_string()) r.message = m->string_value();
  return r;
}

Result<std::optional<std::uint64_t>, std::string> parse_bench_answer(const Value& answer) {
  const Value* nanos = answer.find("nanos");
  if (nanos != nullptr && !nanos->is_null()) {
    auto n = integer(*nanos);
    if (!n) return std::string("\"nanos\" must be a non-negative integer or null");
    return std::optional<std::uint64_t>(*n);
  }
  if (nanos == nullptr && answer.find("outcome") == nullptr) {
    return std::string("bench answer lacks \"nanos\"");
  }
  return std::optional<std::uint64_t>();
}

std::optional<std::uint64_t> sniff_id(std::string_view prefix) {
  std::size_t at = prefix.find("\"id\"");
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t i = at + 4;
  auto skip_space = [&] {
    while (i < prefix.size() && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\r')) ++i;
  };
  skip_space();
  if (i >= prefix.size() || prefix[i] != ':') return std::nullopt;
  ++i;
  skip_space();
  std::size_t start = i;
  while (i < prefix.size() && std::isdigit(static_cast<unsigned char>(prefix[i]))) ++i;
  if (i == start || i == prefix.size()) return std::nullopt;  // no digits, or maybe cut short
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(prefix.data() + start, prefix.data() + i, n);
  if (ec != std::errc() || end != prefix.data() + i) return std::nullopt;
  return n;
}

std::string excerpt(std::string_view line, std::size_t max) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < line.size() && i < max; ++i) {
    auto c = static_cast<unsigned char>(line[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (line.size() > max) out += "... (" + std::to_string(line.size()) + " bytes)";
  return out;
}

}  // namespace crosscheck::exec::protocol
