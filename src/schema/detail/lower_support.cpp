// lower_support.cpp: the keyword lists and the helpers the lowering's parts share (lower_support.hpp).
#include "schema/detail/lower_support.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "json/pointer.hpp"
#include "json/write.hpp"
#include "schema/lower.hpp"

namespace crosscheck::schema {
namespace lowering {
namespace {

constexpr std::string_view kAnnotationKeywords[] = {
    "$schema", "$id", "$comment", "$defs", "title", "description", "deprecated", "examples", "default"};
// Validation-only keywords: accepted, never enforced by structural parsing.
constexpr std::string_view kValidationKeywords[] = {
    "minLength",     "maxLength",        "pattern",          "format",      "minimum",
    "maximum",       "exclusiveMinimum", "exclusiveMaximum", "multipleOf",  "minItems",
    "maxItems",      "uniqueItems",      "contains",         "minContains", "maxContains",
    "minProperties", "maxProperties",    "propertyNames",    "if",          "then",
    "else"};
constexpr std::string_view kStructuralKeywords[] = {"$ref",
                                                    "type",
                                                    "const",
                                                    "enum",
                                                    "oneOf",
                                                    "anyOf",
                                                    "allOf",
                                                    "not",
                                                    "properties",
                                                    "required",
                                                    "additionalProperties",
                                                    "items"};
constexpr std::string_view kTypeNames[] = {"null",   "boolean", "integer", "number",
                                           "string", "array",   "object"};

template <std::size_t N>
bool in(const std::string_view (&set)[N], std::string_view key) {
  return std::find(std::begin(set), std::end(set), key) != std::end(set);
}

}  // namespace

bool is_extension(std::string_view key) { return key.size() > 2 && key.substr(0, 2) == "x-"; }
bool is_annotation(std::string_view key) { return in(kAnnotationKeywords, key) || is_extension(key); }
bool is_validation(std::string_view key) { return in(kValidationKeywords, key); }
bool is_structural(std::string_view key) { return in(kStructuralKeywords, key); }
bool is_type_name(std::string_view name) { return in(kTypeNames, name); }

[[noreturn]] void fail(std::string document, std::string pointer, std::string expected) {
  throw Failure{SchemaError{std::move(document), std::move(pointer), std::move(expected)}};
}

std::string child(const std::string& pointer, std::string_view token) {
  return pointer + "/" + json::pointer_token(token);
}

std::string quoted(std::string_view text) { return json::quote(text); }

std::string key_of(std::string_view path, std::string_view pointer) {
  return std::string(path) + "#" + std::string(pointer);
}

/// Members of an object by key, the last duplicate winning (as everywhere in AHP).
std::vector<std::pair<std::string, const json::Value*>> last_members(const json::Value& object) {
  std::vector<std::pair<std::string, const json::Value*>> out;
  for (const json::Member& member : object.members()) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == member.key; });
    if (it != out.end()) {
      it->second = &member.value;
    } else {
      out.emplace_back(member.key, &member.value);
    }
  }
  return out;
}

/// The node at `pointer` (RFC 6901, already unescaped from any URI encoding), or nullptr.
const json::Value* find_node(const json::Value& root, std::string_view pointer) {
  if (pointer.empty()) return &root;
  if (pointer.front() != '/') return nullptr;
  const json::Value* node = &root;
  std::size_t pos = 1;
  while (true) {
    std::size_t end = pointer.find('/', pos);
    std::string_view raw =
        pointer.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token.push_back(raw[i + 1] == '0' ? '~' : '/');
        ++i;
      } else if (raw[i] == '~') {
        return nullptr;
      } else {
        token.push_back(raw[i]);
      }
    }
    if (node->is_object()) {
      node = node->find(token);
    } else if (node->is_array()) {
      if (token.empty() || token.size() > 9 || !std::all_of(token.begin(), token.end(), ::isdigit) ||
          (token.size() > 1 && token[0] == '0')) {
        return nullptr;
      }
      std::size_t index = std::stoul(token);
      node = index < node->items().size() ? &node->items()[index] : nullptr;
    } else {
      node = nullptr;
    }
    if (!node) return nullptr;
    if (end == std::string_view::npos) return node;
    pos = end + 1;
  }
}

}  // namespace lowering

bool supported_keyword(std::string_view keyword) {
  // is_annotation() takes the x-* extensions too.
  return lowering::is_annotation(keyword) || lowering::is_structural(keyword) ||
         lowering::is_validation(keyword);
}

}  // namespace crosscheck::schema
