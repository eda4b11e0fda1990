// answer_text.cpp: the reference adapter's answers as text (answer_text.hpp).
#include "reference_adapter/detail/answer_text.hpp"

#include <algorithm>

#include "core/impl_result.hpp"
#include "exec/reference_validation.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::reference_adapter::detail {

// A JSON string literal for `s`: printable ASCII but '"' and '\\' as it is (what json::write does
// with it too), anything else through json::quote.
void append_string(std::string& out, std::string_view s) {
  bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f && c != '"' && c != '\\';
  });
  if (!plain) {
    out += json::quote(s);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

void append_error(std::string& out, std::string_view id, std::string_view message, std::string_view outcome) {
  out += "{\"id\":";
  out += id;
  out += ",\"outcome\":\"";
  out += outcome;
  out += "\",\"diagnostics\":[],\"encoded\":null,\"encodeError\":null,\"message\":";
  append_string(out, message);
  out += '}';
}

std::string id_text(const json::Value* id) { return id ? json::write(*id) : std::string("null"); }

void append_decode(std::string& out, const schema::Ir& ir, Engine& engine, std::string_view id,
                   std::string_view root_name, std::string_view input) {
  const schema::Root* root = ir.find_root(root_name);
  // An unknown root is "unsupported" whatever the input: the answer must not depend on the order
  // in which the request's faults are checked (the SDK adapters check the root first too).
  if (!root) return append_error(out, id, "no root named " + std::string(root_name), "unsupported");
  auto bytes = base64_decode(input);
  if (!bytes) return append_error(out, id, "invalid base64");
  decoder::DecodeResult result;
  if (engine.echo_input) {
    result.accepted = true;
    result.encoded = std::move(*bytes);
  } else {
    result = engine.decoder.decode(*root, *bytes);
  }
  out += "{\"id\":";
  out += id;
  out += result.accepted ? ",\"outcome\":\"accepted\",\"diagnostics\":["
                         : ",\"outcome\":\"rejected\",\"diagnostics\":[";
  for (std::size_t i = 0; i < result.diagnostics.size(); ++i) {
    const decoder::Diagnostic& d = result.diagnostics[i];
    out += i == 0 ? "{\"path\":" : ",{\"path\":";
    append_string(out, d.path);
    out += ",\"code\":";
    append_string(out, d.code);
    out += ",\"severity\":";
    append_string(out, decoder::severity_name(d.severity));
    out += '}';
  }
  out += "],\"encoded\":";
  if (result.encoded) {
    out += '"';
    base64_encode_to(out, *result.encoded);
    out += '"';
  } else {
    out += "null";
  }
  out += ",\"encodeError\":null,\"message\":null}";
}

// Each error carries the failed keyword too (optional in the protocol): the self-test's faulty
// proxy emulates a validator that skips one keyword from it (selftest/faulty_adapter.py).
void append_verdict(std::string& out, std::string_view id, const char* outcome,
                    const std::vector<std::string>& paths, const std::vector<std::string>& keywords,
                    const std::optional<std::string>& message) {
  out += "{\"id\":";
  out += id;
  out += ",\"outcome\":\"";
  out += outcome;
  out += "\",\"errors\":[";
  for (std::size_t i = 0; i < paths.size(); ++i) {
    out += i == 0 ? "{\"path\":" : ",{\"path\":";
    append_string(out, paths[i]);
    if (i < keywords.size()) {
      out += ",\"keyword\":";
      append_string(out, keywords[i]);
    }
    out += '}';
  }
  out += "],\"message\":";
  if (message) {
    append_string(out, *message);
  } else {
    out += "null";
  }
  out += '}';
}

void append_validate(std::string& out, const schema::Ir& ir, std::string_view id, std::string_view document,
                     std::string_view input) {
  auto bytes = base64_decode(input);
  if (!bytes) return append_verdict(out, id, "error", {}, {}, std::string("invalid base64"));
  core::ValidateResult r = exec::validate_reference(ir, document, *bytes);
  append_verdict(out, id, core::verdict_name(r.verdict), r.error_paths, r.error_keywords, r.message);
}

}  // namespace crosscheck::reference_adapter::detail
