// lower_refs.cpp: the first pass over the documents: every keyword checked against the supported
// list, every $ref resolved (relative, inside the schema set, a JSON Pointer fragment), and the
// graph of which document refers to which (the roots' closures, lower.cpp).
#include <string>

#include "schema/detail/lower_builder.hpp"
#include "schema/detail/lower_support.hpp"

namespace crosscheck::schema::lowering {

namespace {

std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string_view directory_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

}  // namespace

void Builder::scan(const json::Value& node, const Document& doc, const std::string& ptr) {
  if (node.is_bool()) return;
  if (!node.is_object()) {
    fail(doc.path, ptr,
         std::string("a schema (an object or a boolean), got ") + json::kind_name(node.kind()));
  }
  for (const json::Member& member : node.members()) {
    const std::string& key = member.key;
    const json::Value& value = member.value;
    const std::string at = child(ptr, key);
    if (is_extension(key)) {
      if (key == "x-sdk-discriminator" && (!value.is_string() || value.string_value().empty())) {
        fail(doc.path, at, "a property name (non-empty string)");
      }
      continue;
    }
    if (!supported_keyword(key)) {
      fail(doc.path, at, "a keyword the IR can express, not " + quoted(key));
    }
    if (key == "$defs" || key == "properties") {
      if (!value.is_object()) fail(doc.path, at, "an object of schemas");
      for (const json::Member& entry : value.members()) scan(entry.value, doc, child(at, entry.key));
    } else if (key == "additionalProperties" || key == "propertyNames" || key == "items" ||
               key == "contains" || key == "not" || key == "if" || key == "then" || key == "else") {
      scan(value, doc, at);
    } else if (key == "oneOf" || key == "anyOf" || key == "allOf") {
      if (!value.is_array() || value.items().empty()) fail(doc.path, at, "a non-empty array of schemas");
      for (std::size_t i = 0; i < value.items().size(); ++i) {
        scan(value.items()[i], doc, at + "/" + std::to_string(i));
      }
    } else if (key == "$ref") {
      if (!value.is_string()) fail(doc.path, at, "a string");
      auto [target, pointer] = resolve_ref(doc, at, value.string_value());
      ref_targets_.insert(key_of(target->path, pointer));
      edges_[doc.path].insert(target->path);
    } else if (key == "required") {
      if (!value.is_array()) fail(doc.path, at, "an array of property names");
      for (std::size_t i = 0; i < value.items().size(); ++i) {
        if (!value.items()[i].is_string()) fail(doc.path, at + "/" + std::to_string(i), "a property name");
      }
    } else if (key == "type") {
      check_type(value, doc, at);
    } else if (key == "enum") {
      if (!value.is_array() || value.items().empty()) fail(doc.path, at, "a non-empty array of values");
    } else if (key == "minimum" || key == "maximum") {
      if (!value.is_number()) fail(doc.path, at, "a number");
    }
  }
}

void Builder::check_type(const json::Value& value, const Document& doc, const std::string& at) {
  auto one = [&](const json::Value& v, const std::string& where) {
    if (!v.is_string() || !is_type_name(v.string_value())) {
      fail(doc.path, where,
           "a JSON Schema type name (null, boolean, integer, number, string, array, object)");
    }
  };
  if (value.is_array()) {
    if (value.items().empty()) fail(doc.path, at, "a type name or a non-empty array of type names");
    for (std::size_t i = 0; i < value.items().size(); ++i)
      one(value.items()[i], at + "/" + std::to_string(i));
  } else {
    one(value, at);
  }
}

std::pair<const Document*, std::string> Builder::resolve_ref(const Document& doc, const std::string& at,
                                                             const std::string& ref) {
  const std::string shown = quoted(ref);
  if (ref.find("://") != std::string::npos || ref.rfind("//", 0) == 0 || ref.rfind("urn:", 0) == 0) {
    fail(doc.path, at,
         "a relative $ref inside the schema set, got " + shown + " (network references are not followed)");
  }
  std::size_t hash = ref.find('#');
  std::string file = ref.substr(0, hash);
  std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
  std::string target_path = doc.path;
  if (!file.empty()) {
    if (file.front() == '/') fail(doc.path, at, "a relative $ref, got the absolute path " + shown);
    std::string_view rest = file;
    while (!rest.empty()) {
      std::size_t slash = rest.find('/');
      std::string_view segment = rest.substr(0, slash);
      if (segment == "..") {
        fail(doc.path, at,
             "a $ref that stays inside the schema directory, got " + shown + " (\"..\" escapes)");
      }
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
    std::string_view dir = directory_of(doc.path);
    target_path = dir.empty() ? file : std::string(dir) + "/" + file;
  }
  auto it = by_path_.find(target_path);
  if (it == by_path_.end()) {
    fail(doc.path, at,
         "a $ref to a document of the schema set, got " + shown + " (no document " + target_path + ")");
  }
  std::string pointer = percent_decode(fragment);
  if (!pointer.empty() && pointer.front() != '/') {
    fail(doc.path, at,
         "a $ref fragment that is a JSON Pointer, got " + shown + " (anchors are not supported)");
  }
  if (!find_node(it->second->body, pointer)) {
    fail(doc.path, at,
         "a $ref to an existing node, got " + shown + " (" + target_path + " has no node " +
             (pointer.empty() ? std::string("at its root") : pointer) + ")");
  }
  return {it->second, pointer};
}

std::pair<const Document*, std::string> Builder::locate(const std::string& key) const {
  std::size_t hash = key.find('#');
  return {by_path_.at(key.substr(0, hash)), key.substr(hash + 1)};
}

}  // namespace crosscheck::schema::lowering
