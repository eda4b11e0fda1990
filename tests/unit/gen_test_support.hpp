// gen_test_support.hpp: the real schema bundle for the generator tests and properties, loaded once
// per process. A missing bundle is a failure with the fix ("run ./setup install"), never a skip.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "json/value.hpp"
#include "schema/loader.hpp"

namespace crosscheck::gen::testing {

struct RealSchema {
  std::unique_ptr<schema::Ir> ir;  ///< nullptr when the bundle is missing or broken
  std::string error;               ///< why, with the fix
};

inline const RealSchema& real_schema() {
  static const RealSchema loaded = [] {
    RealSchema out;
    std::optional<std::string> path = schema::default_schema_path();
    if (!path) {
      out.error = "no schema bundle recorded (.deps/schema-path): run ./setup install";
      return out;
    }
    auto ir = schema::load_schema(*path);
    if (!ir.ok()) {
      out.error = "loading " + *path + " failed: " + ir.error().message() + " (run ./setup install)";
      return out;
    }
    out.ir = std::make_unique<schema::Ir>(std::move(ir).value());
    return out;
  }();
  return loaded;
}

/// RFC 6901 tokens of `pointer` ("" -> none), unescaped.
inline std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < pointer.size()) {
    const std::size_t next = pointer.find('/', at + 1);
    std::string token(
        pointer.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1));
    std::string unescaped;
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size()) {
        unescaped.push_back(token[i + 1] == '1' ? '/' : '~');
        ++i;
      } else {
        unescaped.push_back(token[i]);
      }
    }
    out.push_back(unescaped);
    at = next == std::string_view::npos ? pointer.size() : next;
  }
  return out;
}

/// The value at `pointer` (objects: the last member with the key, as the SDKs read it), or nullptr.
inline const json::Value* at_pointer(const json::Value& root, std::string_view pointer) {
  const json::Value* at = &root;
  for (const std::string& token : pointer_tokens(pointer)) {
    if (at->is_object()) {
      at = at->find(token);
    } else if (at->is_array()) {
      std::size_t index = 0;
      for (char c : token) index = index * 10 + static_cast<std::size_t>(c - '0');
      at = index < at->items().size() ? &at->items()[index] : nullptr;
    } else {
      at = nullptr;
    }
    if (!at) return nullptr;
  }
  return at;
}

/// The C++ canonical validator over real_schema(), built once; the caller checks real_schema().ir
/// first (a missing bundle is that test's failure).
inline const canonical::CanonicalValidator& real_validator() {
  static const std::unique_ptr<canonical::CanonicalValidator> validator = [] {
    const auto& real = real_schema();
    if (!real.ir) return std::unique_ptr<canonical::CanonicalValidator>();
    auto v = canonical::CanonicalValidator::from_ir(*real.ir);
    if (!v.ok()) return std::unique_ptr<canonical::CanonicalValidator>();
    return std::make_unique<canonical::CanonicalValidator>(std::move(v.value()));
  }();
  return *validator;
}

}  // namespace crosscheck::gen::testing
