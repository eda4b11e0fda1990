// finding_file.cpp: finding records as JSON, and their atomic files.
#include "run/finding_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "layers/structural/input_traits.hpp"
#include "run/layout.hpp"
#include "schema/sha256.hpp"
#include "util/base64.hpp"

namespace crosscheck::run {
namespace {

using json::Value;

Value str(const std::string& s) { return Value::string(s); }

Value diag_list(const std::vector<core::Diag>& diags) {
  Value list = Value::array();
  for (const auto& d : diags) {
    Value o = Value::object();
    o.add("path", str(d.path));
    o.add("code", str(d.code));
    o.add("severity", str(d.severity));
    list.push(std::move(o));
  }
  return list;
}

const Value* member(const Value& o, std::string_view key) { return o.is_object() ? o.find(key) : nullptr; }

std::optional<std::string> string_member(const Value& o, std::string_view key) {
  const Value* v = member(o, key);
  if (v && v->is_string()) return v->string_value();
  return std::nullopt;
}

Value string_list(const std::vector<std::string>& list) {
  Value a = Value::array();
  for (const auto& x : list) a.push(str(x));
  return a;
}

std::vector<std::string> strings_of(const Value* a) {
  std::vector<std::string> out;
  if (!a || !a->is_array()) return out;
  for (const auto& x : a->items()) {
    if (x.is_string()) out.push_back(x.string_value());
  }
  return out;
}

Value validation_to_json(const core::ValidateResult& v) {
  Value x = Value::object();
  x.add("implementation", str(v.implementation));
  x.add("verdict", str(core::verdict_name(v.verdict)));
  Value errors = Value::array();
  for (std::size_t i = 0; i < v.error_paths.size(); ++i) {
    Value e = Value::object();
    e.add("path", str(v.error_paths[i]));
    if (i < v.error_keywords.size()) e.add("keyword", str(v.error_keywords[i]));
    errors.push(std::move(e));
  }
  x.add("errors", std::move(errors));
  x.add("message", v.message ? str(*v.message) : Value::null());
  x.add("implementationDefined", string_list(v.implementation_defined));
  x.add("stderrTail", v.stderr_tail.empty() ? Value::null() : str(v.stderr_tail));
  return x;
}

std::optional<core::ValidateResult> validation_from_json(const Value& x) {
  core::ValidateResult v;
  v.implementation = string_member(x, "implementation").value_or("");
  auto verdict = string_member(x, "verdict");
  if (!verdict) return std::nullopt;
  auto parsed = core::parse_verdict(*verdict);
  if (!parsed) return std::nullopt;
  v.verdict = *parsed;
  if (const Value* errors = member(x, "errors"); errors && errors->is_array()) {
    for (const auto& e : errors->items()) {
      v.error_paths.push_back(string_member(e, "path").value_or(""));
      if (auto k = string_member(e, "keyword")) v.error_keywords.push_back(*k);
    }
  }
  v.message = string_member(x, "message");
  v.implementation_defined = strings_of(member(x, "implementationDefined"));
  v.stderr_tail = string_member(x, "stderrTail").value_or("");
  return v;
}

Value scenario_to_json(const ScenarioCase& c) {
  Value o = Value::object();
  o.add("mode", str(c.mode));
  o.add("file", str(c.file));
  o.add("id", str(c.id));
  o.add("clients", string_list(c.clients));
  if (!c.client_config.empty()) o.add("clientConfig", str(c.client_config));
  if (!c.schema.empty()) o.add("schema", str(c.schema));
  Value entries = Value::array();
  for (const auto& e : c.entries) {
    Value x = Value::object();
    x.add("implementation", str(e.implementation));
    x.add("status", str(e.status));
    x.add("answer", str(e.answer));
    if (e.expectation) x.add("expectation", str(*e.expectation));
    if (e.report_row) x.add("reportRow", *e.report_row);
    if (e.server_answer) x.add("serverAnswer", str(*e.server_answer));
    x.add("notes", string_list(e.notes));
    if (!e.batch.empty()) x.add("batch", str(e.batch));
    entries.push(std::move(x));
  }
  o.add("entries", std::move(entries));
  return o;
}

// Called after the schema check: every required member is there with its type.
ScenarioCase scenario_from_json(const Value& o) {
  ScenarioCase c;
  c.mode = string_member(o, "mode").value_or("");
  c.file = string_member(o, "file").value_or("");
  c.id = string_member(o, "id").value_or("");
  c.clients = strings_of(member(o, "clients"));
  c.client_config = string_member(o, "clientConfig").value_or("");
  c.schema = string_member(o, "schema").value_or("");
  if (const Value* entries = member(o, "entries"); entries && entries->is_array()) {
    for (const auto& x : entries->items()) {
      ScenarioEntry e;
      e.implementation = string_member(x, "implementation").value_or("");
      e.status = string_member(x, "status").value_or("");
      e.answer = string_member(x, "answer").value_or("");
      e.expectation = string_member(x, "expectation");
      if (const Value* row = member(x, "reportRow")) e.report_row = *row;
      e.server_answer = string_member(x, "serverAnswer");
      e.notes = strings_of(member(x, "notes"));
      e.batch = string_member(x, "batch").value_or("");
      c.entries.push_back(std::move(e));
    }
  }
  return c;
}

}  // namespace

std::string finding_hash(const std::string& root, const std::string& input) {
  return schema::sha256_hex(root + "\n" + input).substr(0, 40);
}

Finding finding_of(const core::PayloadResults& results) {
  Finding f;
  f.root = results.root;
  f.input = results.input;
  f.divergences = results.divergences;
  f.results = results.results;
  f.document = results.document;
  f.validations = results.validations;
  f.traits = layers::structural::analyse_input(results.input).names();
  return f;
}

core::Layers finding_layers(const Finding& f) {
  core::Layers layers;
  layers.canonical =
      !f.validations.empty() || std::any_of(f.divergences.begin(), f.divergences.end(),
                                            [](const auto& d) { return d.layer == core::kCanonicalLayer; });
  return layers;
}

std::string finding_file_name(const Finding& f) {
  std::string hash = finding_hash(f.root, f.input);
  for (const auto& d : f.divergences) {
    if (d.cls == core::DivergenceClass::kCrash || d.cls == core::DivergenceClass::kTimeout) {
      std::string impl = d.implementations.empty() ? "unknown" : d.implementations.front();
      for (char& c : impl) {
        if (c == '/') c = '_';
      }
      return std::string(d.cls == core::DivergenceClass::kCrash ? "crash-" : "timeout-") + impl + "-" + hash +
             ".json";
    }
  }
  return "diverge-" + hash + ".json";
}

Value finding_to_json(const Finding& f) {
  Value o = Value::object();
  o.add("format", str(kFindingFormat));
  o.add("crosscheckVersion", str(CROSSCHECK_VERSION));
  o.add("id", str(finding_hash(f.root, f.input)));
  o.add("root", str(f.root));
  Value input = Value::object();
  input.add("base64", str(base64_encode(f.input)));
  input.add("text", json::is_valid_utf8(f.input) ? str(f.input) : Value::null());
  input.add("bytes", Value::number(std::to_string(f.input.size())));
  o.add("input", std::move(input));
  Value traits = Value::array();
  for (const auto& t : f.traits) traits.push(str(t));
  o.add("traits", std::move(traits));
  Value divs = Value::array();
  for (const auto& d : f.divergences) {
    Value x = Value::object();
    x.add("class", str(core::class_name(d.cls)));
    x.add("layer", str(d.layer));
    Value impls = Value::array();
    for (const auto& i : d.implementations) impls.push(str(i));
    x.add("implementations", std::move(impls));
    x.add("detail", str(d.detail));
    x.add("implementationDefined", Value::boolean(d.implementation_defined));
    x.add("bucket", str(d.bucket));
    x.add("signature", str(d.signature));
    divs.push(std::move(x));
  }
  o.add("divergences", std::move(divs));
  Value results = Value::array();
  for (const auto& r : f.results) {
    Value x = Value::object();
    x.add("implementation", str(r.implementation));
    x.add("outcome", str(core::outcome_name(r.outcome)));
    x.add("diagnostics", diag_list(r.diagnostics));
    // An adapter's re-encoding is kept exactly: as text when it is UTF-8, else in encodedBase64.
    bool encoded_text = r.encoded && json::is_valid_utf8(*r.encoded);
    x.add("encoded", encoded_text ? str(*r.encoded) : Value::null());
    if (r.encoded && !encoded_text) x.add("encodedBase64", str(base64_encode(*r.encoded)));
    x.add("encodeError", r.encode_error ? str(*r.encode_error) : Value::null());
    x.add("message", r.message ? str(*r.message) : Value::null());
    x.add("stderrTail", r.stderr_tail.empty() ? Value::null() : str(r.stderr_tail));
    results.push(std::move(x));
  }
  o.add("results", std::move(results));
  if (!f.validations.empty() || !f.document.empty()) {
    o.add("document", str(f.document));
    Value validations = Value::array();
    for (const auto& v : f.validations) validations.push(validation_to_json(v));
    o.add("validations", std::move(validations));
  }
  o.add("seed", f.seed ? Value::number(std::to_string(*f.seed)) : Value::null());
  o.add("source", str(f.source));
  o.add("replay", str(f.replay));
  if (f.scenario) o.add("scenario", scenario_to_json(*f.scenario));
  if (f.reduction) {
    Value r = Value::object();
    r.add("from", str(f.reduction->from));
    r.add("calls", Value::number(std::to_string(f.reduction->calls)));
    r.add("bytesBefore", Value::number(std::to_string(f.reduction->bytes_before)));
    r.add("bytesAfter", Value::number(std::to_string(f.reduction->bytes_after)));
    o.add("reduction", std::move(r));
  }
  return o;
}

Result<Finding, std::string> finding_from_json(const Value& o) {
  if (auto format = string_member(o, "format"); format != kFindingFormat) {
    return std::string("/format: expected \"") + kFindingFormat + "\" (format version)" +
           (format ? ", found \"" + *format + "\" (written by another crosscheck version)" : ", found none");
  }
  if (auto v = json::shipped_schema(kFindingSchema).validate(o)) {
    return (v->pointer.empty() ? std::string("(the document)") : v->pointer) + ": " + v->message +
           " (schemas/" + kFindingSchema + ")";
  }
  Finding f;
  auto root = string_member(o, "root");
  if (!root) return std::string("field 'root': expected a string");
  f.root = *root;
  const Value* input = member(o, "input");
  auto b64 = input ? string_member(*input, "base64") : std::nullopt;
  auto bytes = b64 ? base64_decode(*b64) : std::nullopt;
  if (!bytes) return std::string("field 'input.base64': expected base64 of the payload");
  f.input = *bytes;
  if (const Value* traits = member(o, "traits"); traits && traits->is_array()) {
    for (const auto& t : traits->items()) {
      if (t.is_string()) f.traits.push_back(t.string_value());
    }
  }
  const Value* divs = member(o, "divergences");
  if (!divs || !divs->is_array()) return std::string("field 'divergences': expected an array");
  for (const auto& x : divs->items()) {
    core::Divergence d;
    auto cls = string_member(x, "class");
    auto parsed = cls ? core::parse_class(*cls) : std::nullopt;
    if (!parsed) return std::string("field 'divergences[].class': expected a divergence class");
    d.cls = *parsed;
    if (const Value* impls = member(x, "implementations"); impls && impls->is_array()) {
      for (const auto& i : impls->items()) {
        if (i.is_string()) d.implementations.push_back(i.string_value());
      }
    }
    d.layer = string_member(x, "layer").value_or(core::kStructuralLayer);  // older files: layer 1
    d.detail = string_member(x, "detail").value_or("");
    const Value* idef = member(x, "implementationDefined");
    d.implementation_defined = idef && idef->is_bool() && idef->as_bool();
    d.bucket = string_member(x, "bucket").value_or("");
    d.signature = string_member(x, "signature").value_or("");
    f.divergences.push_back(std::move(d));
  }
  const Value* results = member(o, "results");
  if (!results || !results->is_array()) return std::string("field 'results': expected an array");
  for (const auto& x : results->items()) {
    core::ImplResult r;
    r.implementation = string_member(x, "implementation").value_or("");
    auto outcome = string_member(x, "outcome");
    auto parsed = outcome ? core::parse_outcome(*outcome) : std::nullopt;
    if (!parsed) return std::string("field 'results[].outcome': expected an outcome");
    r.outcome = *parsed;
    if (const Value* diags = member(x, "diagnostics"); diags && diags->is_array()) {
      for (const auto& d : diags->items()) {
        r.diagnostics.push_back({string_member(d, "path").value_or(""), string_member(d, "code").value_or(""),
                                 string_member(d, "severity").value_or("")});
      }
    }
    r.encoded = string_member(x, "encoded");
    if (auto b64 = string_member(x, "encodedBase64")) {
      auto bytes = base64_decode(*b64);
      if (!bytes) return std::string("field 'results[].encodedBase64': expected base64");
      r.encoded = *bytes;
    }
    r.encode_error = string_member(x, "encodeError");
    r.message = string_member(x, "message");
    r.stderr_tail = string_member(x, "stderrTail").value_or("");
    f.results.push_back(std::move(r));
  }
  f.document = string_member(o, "document").value_or("");
  if (const Value* validations = member(o, "validations"); validations && validations->is_array()) {
    for (const auto& x : validations->items()) {
      auto v = validation_from_json(x);
      if (!v) return std::string("field 'validations[].verdict': expected a canonical verdict");
      f.validations.push_back(std::move(*v));
    }
  }
  if (const Value* seed = member(o, "seed"); seed && seed->is_number())
    f.seed = std::stoull(seed->number_text());
  f.source = string_member(o, "source").value_or("");
  f.replay = string_member(o, "replay").value_or("");
  if (const Value* c = member(o, "scenario")) f.scenario = scenario_from_json(*c);
  if (const Value* r = member(o, "reduction")) {
    // Optional (older files and originals have none); when present it must be whole.
    auto count = [&](std::string_view key) -> std::optional<std::uint64_t> {
      const Value* n = member(*r, key);
      if (!n || !n->is_number()) return std::nullopt;
      const std::string& t = n->number_text();
      if (t.empty() || t.size() > 19 || t.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
      return std::stoull(t);
    };
    auto from = string_member(*r, "from");
    auto calls = count("calls"), before = count("bytesBefore"), after = count("bytesAfter");
    if (!from || !calls || !before || !after) {
      return std::string(
          "field 'reduction': expected {\"from\": file name, \"calls\", \"bytesBefore\", \"bytesAfter\": "
          "non-negative integers}");
    }
    f.reduction = Reduction{*from, *calls, *before, *after};
  }
  return f;
}

FindingStore::FindingStore(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw Fatal("cannot create the output folder " + dir_ + ": " + ec.message());
  if (::access(dir_.c_str(), W_OK) != 0) throw Fatal("the output folder " + dir_ + " is not writable");
  // A kill -9 during write_file_atomically leaves ".<name>.tmp-<pid>" behind: remove those of
  // processes that are gone, so the folder holds complete findings only.
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    std::string name = entry.path().filename().string();
    std::size_t at = name.rfind(".tmp-");
    if (name.front() != '.' || at == std::string::npos) continue;
    pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + at + 5));
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) {
      std::filesystem::remove(entry.path(), ec);
    }
  }
}

std::string FindingStore::write(const Finding& finding) {
  std::string path = (std::filesystem::path(dir_) / finding_file_name(finding)).string();
  json::WriteOptions pretty;
  pretty.indent = 2;
  write_file_atomically(path, json::write(finding_to_json(finding), pretty) + "\n");
  return path;
}

Result<Finding, std::string> FindingStore::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot be read";
  std::stringstream ss;
  ss << in.rdbuf();
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(ss.str(), limits);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  auto f = finding_from_json(parsed.value());
  if (!f.ok()) return path + ": " + f.error();
  return f;
}

}  // namespace crosscheck::run
