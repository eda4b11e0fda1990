// lower.cpp: naming, $ref resolution and lowering of schema documents to the IR.
//
// The lowering follows the AHP generator (ahp-spec.md 2.3) as the installed Python SDK's embedded
// descriptors show it; tests/integration/schema_real_test.cpp compares the two node by node.
#include "schema/lower.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <set>
#include <unordered_set>
#include <utility>

#include "json/pointer.hpp"
#include "json/write.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::schema {

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

bool is_extension(std::string_view key) { return key.size() > 2 && key.substr(0, 2) == "x-"; }
bool is_annotation(std::string_view key) { return in(kAnnotationKeywords, key) || is_extension(key); }
bool is_validation(std::string_view key) { return in(kValidationKeywords, key); }
bool is_structural(std::string_view key) { return in(kStructuralKeywords, key); }

/// Thrown inside the builder, turned into the SchemaError result by build_ir.
struct Failure {
  SchemaError error;
};

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

std::string_view file_name(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view directory_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

std::string document_stem(std::string_view path) {
  std::string_view name = file_name(path);
  for (std::string_view suffix : {std::string_view(".schema.json"), std::string_view(".json")}) {
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      return std::string(name.substr(0, name.size() - suffix.size()));
    }
  }
  return std::string(name);
}

bool valid_public_name(std::string_view name) {
  return !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The sets of a `not` that only forbids properties: {required:[...]} gives one set,
/// {anyOf:[{required:[...]}, ...]} one set per branch. nullopt for any other form.
std::optional<std::vector<std::vector<std::string>>> forbidden_form(const json::Value& node) {
  auto required_only = [](const json::Value& n) -> const json::Value* {
    if (!n.is_object()) return nullptr;
    const json::Value* required = nullptr;
    for (const auto& [key, value] : last_members(n)) {
      if (is_annotation(key)) continue;
      if (key != "required") return nullptr;
      required = value;
    }
    return required;
  };
  auto names = [](const json::Value& required) {
    std::vector<std::string> out;
    for (const json::Value& item : required.items()) out.push_back(item.string_value());
    return out;
  };
  if (const json::Value* required = required_only(node)) {
    return std::vector<std::vector<std::string>>{names(*required)};
  }
  if (!node.is_object()) return std::nullopt;
  const json::Value* any_of = nullptr;
  for (const auto& [key, value] : last_members(node)) {
    if (is_annotation(key)) continue;
    if (key != "anyOf") return std::nullopt;
    any_of = value;
  }
  if (!any_of) return std::nullopt;
  std::vector<std::vector<std::string>> sets;
  for (const json::Value& branch : any_of->items()) {
    const json::Value* required = required_only(branch);
    if (!required) return std::nullopt;
    sets.push_back(names(*required));
  }
  return sets;
}

/// Only annotation and validation keywords (a `not` of this kind constrains nothing structurally).
bool validation_only(const json::Value& node) {
  if (!node.is_object()) return false;
  for (const json::Member& member : node.members()) {
    if (!is_annotation(member.key) && !is_validation(member.key)) return false;
  }
  return true;
}

/// Only if/then/else/not (and annotations): an allOf made of these is dropped.
bool conditional_only(const json::Value& node) {
  if (!node.is_object()) return false;
  bool any = false;
  for (const json::Member& member : node.members()) {
    if (is_annotation(member.key)) continue;
    if (member.key != "if" && member.key != "then" && member.key != "else" && member.key != "not")
      return false;
    any = true;
  }
  return any;
}

class Builder {
 public:
  Builder(std::vector<Document> documents, const Naming& naming) : naming_(naming) {
    std::sort(documents.begin(), documents.end(),
              [](const Document& a, const Document& b) { return a.path < b.path; });
    ir_.documents = std::move(documents);
    for (const Document& doc : ir_.documents) {
      if (!by_path_.emplace(doc.path, &doc).second) fail(doc.path, "", "each document path only once");
    }
  }

  Ir build() {
    for (const Document& doc : ir_.documents) scan(doc.body, doc, "");
    collect_named_nodes();
    assign_names();
    for (const auto& [key, name] : name_of_) {
      auto [doc, pointer] = locate(key);
      NamedType type;
      type.name = name;
      type.source = key;
      type.shape = lower(*find_node(doc->body, pointer), *doc, pointer, {});
      ir_.types.emplace(name, std::move(type));
    }
    finish_unions();
    assign_ids();
    build_roots();
    return std::move(ir_);
  }

 private:
  struct Flags {
    bool skip_ref = false;              ///< lowering the siblings of a $ref
    const std::string* type = nullptr;  ///< one member of a type array
  };
  struct ExplicitTag {
    std::shared_ptr<Shape> union_shape;
    std::string tag, document, pointer;
  };
  struct Constraint {
    std::shared_ptr<Shape> ref, union_shape;
  };

  // ---- scanning: keyword support, $ref resolution, document graph ----

  void scan(const json::Value& node, const Document& doc, const std::string& ptr) {
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

  void check_type(const json::Value& value, const Document& doc, const std::string& at) {
    auto one = [&](const json::Value& v, const std::string& where) {
      if (!v.is_string() || !in(kTypeNames, v.string_value())) {
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

  std::pair<const Document*, std::string> resolve_ref(const Document& doc, const std::string& at,
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

  std::pair<const Document*, std::string> locate(const std::string& key) const {
    std::size_t hash = key.find('#');
    return {by_path_.at(key.substr(0, hash)), key.substr(hash + 1)};
  }

  // ---- naming ----

  static bool is_root_node(const json::Value& body) {
    if (!body.is_object()) return false;
    for (std::string_view k : {"type", "const", "enum", "oneOf", "anyOf", "allOf"}) {
      if (body.contains(k)) return true;
    }
    return false;
  }

  void collect_named_nodes() {
    for (const Document& doc : ir_.documents) {
      const std::string root_key = key_of(doc.path, "");
      if (is_root_node(doc.body) || (naming_.names && naming_.names->count(root_key)))
        roots_.insert(root_key);
      if (!doc.body.is_object()) continue;
      if (const json::Value* defs = doc.body.find("$defs")) {
        for (const json::Member& def : defs->members()) {
          defs_.push_back(key_of(doc.path, child("/$defs", def.key)));
        }
      }
    }
    if (naming_.names) {
      for (const auto& [key, name] : *naming_.names) {
        std::size_t hash = key.find('#');
        auto it = hash == std::string::npos ? by_path_.end() : by_path_.find(key.substr(0, hash));
        bool found = it != by_path_.end() && find_node(it->second->body, key.substr(hash + 1)) != nullptr;
        if (!found) {
          if (naming_.strict) {
            fail(naming_.names_document, child("/sdkGeneration/stableNames", key),
                 "a key \"<document path>#<JSON pointer>\" naming a node of the schema set");
          }
          continue;
        }
        stable_keys_.push_back(key);
      }
    }
  }

  void claim(const std::string& name, const std::string& key, const std::string& document,
             const std::string& pointer) {
    auto [it, inserted] = owner_.emplace(name, key);
    if (!inserted && it->second != key) {
      fail(document, pointer, "a unique public name, but " + quoted(name) + " also names " + it->second);
    }
    name_of_[key] = name;
  }

  std::string unique(std::string name) {
    if (!owner_.count(name)) return name;
    for (int i = 2;; ++i) {
      std::string candidate = name + std::to_string(i);
      if (!owner_.count(candidate)) return candidate;
    }
  }

  void assign_names() {
    for (const std::string& key : stable_keys_) {
      const std::string& name = naming_.names->at(key);
      const std::string where = child("/sdkGeneration/stableNames", key);
      if (!valid_public_name(name)) fail(naming_.names_document, where, "a public name (letters, digits, _)");
      claim(name, key, naming_.names_document, where);
    }
    for (const std::string& key : roots_) {
      if (name_of_.count(key)) continue;
      auto [doc, pointer] = locate(key);
      claim(root_public_name(doc->path), key, doc->path, "");
    }
    auto rule_name = [](const std::string& path, const std::string& pointer) {
      std::string name = pascal_case(document_stem(path));
      std::string_view rest = pointer;
      while (!rest.empty()) {
        rest.remove_prefix(1);
        std::size_t slash = rest.find('/');
        std::string_view token = rest.substr(0, slash);
        if (token != "$defs" && token != "properties") name += pascal_case(token);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
      }
      return name;
    };
    std::vector<std::string> rest(defs_.begin(), defs_.end());
    for (const std::string& key : ref_targets_) {
      if (std::find(defs_.begin(), defs_.end(), key) == defs_.end()) rest.push_back(key);
    }
    for (const std::string& key : rest) {
      if (name_of_.count(key)) continue;
      auto [doc, pointer] = locate(key);
      std::string name = pointer.empty() ? root_public_name(doc->path) : rule_name(doc->path, pointer);
      if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "T" + name;
      claim(unique(name), key, doc->path, pointer);
    }
  }

  std::string name_for(const std::string& key) const { return name_of_.at(key); }

  // ---- lowering ----

  std::shared_ptr<Shape> make(ShapeKind kind, const Document& doc, const std::string& ptr) {
    auto shape = std::make_shared<Shape>();
    shape->kind = kind;
    shape->source = key_of(doc.path, ptr);
    return shape;
  }

  bool has_structural(const json::Value& node, const Flags& flags, std::string_view except = {}) const {
    for (const json::Member& member : node.members()) {
      if (!is_structural(member.key) || member.key == except) continue;
      if (flags.skip_ref && member.key == "$ref") continue;
      return true;
    }
    return false;
  }

  std::shared_ptr<Shape> lower(const json::Value& node, const Document& doc, const std::string& ptr,
                               Flags flags) {
    if (node.is_bool()) return make(node.as_bool() ? ShapeKind::kAny : ShapeKind::kNever, doc, ptr);

    if (!flags.skip_ref) {
      if (const json::Value* ref = node.find("$ref")) {
        auto [target, pointer] = resolve_ref(doc, child(ptr, "$ref"), ref->string_value());
        auto shape = make(ShapeKind::kRef, doc, ptr);
        shape->ref = name_for(key_of(target->path, pointer));
        // Annotation and validation siblings change nothing structurally.
        if (!has_structural(node, flags, "$ref")) return shape;
        // Structural siblings restrict the referenced type: Intersection[Ref, constraint].
        auto constraint = lower(node, doc, ptr, Flags{true, flags.type});
        auto both = make(ShapeKind::kIntersection, doc, ptr);
        both->variants = {shape, constraint};
        if (constraint->kind == ShapeKind::kUnion) constraints_.push_back({shape, constraint});
        return both;
      }
    }

    const json::Value* type = node.find("type");
    if (!flags.type && type && type->is_array()) {
      // A type array is an anyOf of one copy of the node per type.
      auto shape = make(ShapeKind::kUnion, doc, ptr);
      shape->mode = UnionMode::kAnyOf;
      for (const json::Value& one : type->items()) {
        shape->variants.push_back(lower(node, doc, ptr, Flags{flags.skip_ref, &one.string_value()}));
      }
      return shape;
    }
    std::optional<std::string> type_name;
    if (flags.type) {
      type_name = *flags.type;
    } else if (type) {
      type_name = type->string_value();
    }

    for (std::string_view keyword : {"const", "enum"}) {
      const json::Value* value = node.find(keyword);
      if (!value) continue;
      for (const json::Member& member : node.members()) {
        if (is_structural(member.key) && member.key != keyword && member.key != "type" &&
            !(flags.skip_ref && member.key == "$ref")) {
          fail(doc.path, child(ptr, member.key),
               "only \"type\" beside " + quoted(keyword) + ", not " + quoted(member.key));
        }
      }
      if (keyword == "const") {
        auto shape = make(ShapeKind::kLiteral, doc, ptr);
        shape->literal = *value;
        return shape;
      }
      auto shape = make(ShapeKind::kEnum, doc, ptr);
      shape->enum_values = value->items();
      shape->open_strings = std::all_of(shape->enum_values.begin(), shape->enum_values.end(),
                                        [](const json::Value& v) { return v.is_string(); });
      return shape;
    }

    const bool is_object = type_name ? *type_name == "object"
                                     : (node.contains("properties") || node.contains("required") ||
                                        node.contains("additionalProperties"));
    std::vector<std::vector<std::string>> forbidden;
    std::vector<std::shared_ptr<Shape>> parts;

    if (const json::Value* negated = node.find("not")) {
      if (auto sets = forbidden_form(*negated)) {
        if (is_object) forbidden.insert(forbidden.end(), sets->begin(), sets->end());
      } else if (!validation_only(*negated) && has_structural(node, flags, "not")) {
        fail(doc.path, child(ptr, "not"),
             "a \"not\" of the form {required:[...]} or {anyOf:[{required:[...]}, ...]}, or of validation "
             "keywords only");
      }
    }

    const json::Value* tag = node.find("x-sdk-discriminator");
    if (tag && !node.contains("oneOf"))
      fail(doc.path, child(ptr, "x-sdk-discriminator"), "it only beside \"oneOf\"");
    for (std::string_view keyword : {"oneOf", "anyOf", "allOf"}) {
      const json::Value* branches = node.find(keyword);
      if (!branches) continue;
      const std::string at = child(ptr, keyword);
      if (keyword == "allOf") {
        // Conditionals are not enforced structurally: an allOf of only if/then/else/not is dropped,
        // keeping the property-forbidding `not`s of an object.
        if (std::all_of(branches->items().begin(), branches->items().end(), conditional_only)) {
          if (is_object) {
            for (const json::Value& branch : branches->items()) {
              const json::Value* negated = branch.find("not");
              if (!negated) continue;
              if (auto sets = forbidden_form(*negated))
                forbidden.insert(forbidden.end(), sets->begin(), sets->end());
            }
          }
          continue;
        }
        for (std::size_t i = 0; i < branches->items().size(); ++i) {
          parts.push_back(lower(branches->items()[i], doc, at + "/" + std::to_string(i), {}));
        }
        continue;
      }
      auto shape = make(ShapeKind::kUnion, doc, ptr);
      shape->mode = keyword == "oneOf" ? UnionMode::kOneOf : UnionMode::kAnyOf;
      for (std::size_t i = 0; i < branches->items().size(); ++i) {
        shape->variants.push_back(lower(branches->items()[i], doc, at + "/" + std::to_string(i), {}));
      }
      if (keyword == "oneOf") {
        if (tag) {
          explicit_tags_.push_back({shape, tag->string_value(), doc.path, ptr});
        } else {
          inferred_.push_back(shape);
        }
      }
      parts.push_back(shape);
    }

    std::shared_ptr<Shape> base;
    if (is_object) {
      base = lower_object(node, doc, ptr, std::move(forbidden));
    } else if (type_name) {
      base = lower_type(*type_name, node, doc, ptr);
    }
    if (parts.empty()) return base ? base : make(ShapeKind::kAny, doc, ptr);  // validation-only node
    if (!base && parts.size() == 1) return parts.front();
    // A base type beside a composition, or several allOf branches: all must hold.
    auto shape = make(ShapeKind::kIntersection, doc, ptr);
    if (base) shape->variants.push_back(base);
    shape->variants.insert(shape->variants.end(), parts.begin(), parts.end());
    return shape;
  }

  std::shared_ptr<Shape> lower_type(const std::string& type, const json::Value& node, const Document& doc,
                                    const std::string& ptr) {
    if (type == "string") return make(ShapeKind::kString, doc, ptr);
    if (type == "boolean") return make(ShapeKind::kBoolean, doc, ptr);
    if (type == "null") return make(ShapeKind::kNull, doc, ptr);
    if (type == "number") return make(ShapeKind::kNumber, doc, ptr);
    if (type == "integer") {
      auto shape = make(ShapeKind::kInteger, doc, ptr);
      if (const json::Value* minimum = node.find("minimum")) shape->minimum = minimum->number_text();
      if (const json::Value* maximum = node.find("maximum")) shape->maximum = maximum->number_text();
      return shape;
    }
    // "array" ("object" is lowered by lower_object)
    auto shape = make(ShapeKind::kArray, doc, ptr);
    const json::Value* items = node.find("items");
    shape->items = items ? lower(*items, doc, child(ptr, "items"), {}) : make(ShapeKind::kAny, doc, ptr);
    return shape;
  }

  std::shared_ptr<Shape> lower_object(const json::Value& node, const Document& doc, const std::string& ptr,
                                      std::vector<std::vector<std::string>> forbidden) {
    auto shape = make(ShapeKind::kObject, doc, ptr);
    std::set<std::string> required;
    if (const json::Value* names = node.find("required")) {
      for (const json::Value& name : names->items()) required.insert(name.string_value());
    }
    std::map<std::string, const json::Value*> properties;
    if (const json::Value* props = node.find("properties")) {
      for (const auto& [name, value] : last_members(*props)) properties[name] = value;
    }
    // Required names not under properties are required Any members: presence is what counts.
    for (const std::string& name : required) properties.emplace(name, nullptr);
    for (const auto& [name, value] : properties) {  // std::map: sorted by wire name (byte order)
      Property property;
      property.wire_name = name;
      property.required = required.count(name) > 0;
      const std::string at = child(child(ptr, "properties"), name);
      property.shape =
          value ? lower(*value, doc, at, {}) : make(ShapeKind::kAny, doc, child(ptr, "required"));
      shape->properties.push_back(std::move(property));
    }
    if (const json::Value* additional = node.find("additionalProperties")) {
      if (additional->is_bool()) {
        shape->additional_allowed = additional->as_bool();
      } else {
        shape->additional_shape = lower(*additional, doc, child(ptr, "additionalProperties"), {});
      }
    }
    for (auto& set : forbidden) {
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
    }
    std::sort(forbidden.begin(), forbidden.end());
    forbidden.erase(std::unique(forbidden.begin(), forbidden.end()), forbidden.end());
    shape->forbidden_property_sets = std::move(forbidden);
    return shape;
  }

  // ---- unions: discriminators and constrained unions ----

  const Shape* resolve(const Shape* shape) const {
    for (int guard = 0; shape && shape->kind == ShapeKind::kRef && guard < 1000; ++guard) {
      const NamedType* type = ir_.find_type(shape->ref);
      shape = type ? type->shape.get() : nullptr;
    }
    return shape && shape->kind == ShapeKind::kRef ? nullptr : shape;
  }

  /// Properties of a union branch in order (all, or only the required ones), following refs and
  /// intersections. The SDKs look tags up the same way and ignore `required`.
  void tag_properties(const Shape* shape, bool required_only,
                      std::vector<std::pair<std::string, const Shape*>>& out,
                      std::unordered_set<const Shape*>& seen) const {
    shape = resolve(shape);
    if (!shape || !seen.insert(shape).second) return;
    if (shape->kind == ShapeKind::kIntersection) {
      for (const ShapePtr& variant : shape->variants) tag_properties(variant.get(), required_only, out, seen);
    } else if (shape->kind == ShapeKind::kObject) {
      for (const Property& property : shape->properties) {
        if (property.required || !required_only)
          out.emplace_back(property.wire_name, resolve(property.shape.get()));
      }
    }
  }

  static bool string_literal(const Shape* shape) {
    return shape && shape->kind == ShapeKind::kLiteral && shape->literal.is_string();
  }

  /// Property -> string literal of a branch: the first literal found wins, as in the SDKs' lookup.
  std::map<std::string, std::string> literal_tags(const Shape* branch) const {
    std::vector<std::pair<std::string, const Shape*>> properties;
    std::unordered_set<const Shape*> seen;
    tag_properties(branch, /*required_only=*/false, properties, seen);
    std::map<std::string, std::string> out;
    for (const auto& [name, shape] : properties) {
      if (string_literal(shape)) out.emplace(name, shape->literal.string_value());
    }
    return out;
  }

  void finish_unions() {
    for (const ExplicitTag& item : explicit_tags_) check_explicit(item);
    for (const auto& shape : inferred_) infer(*shape);
    for (const Constraint& item : constraints_) complete(item);
  }

  void check_explicit(const ExplicitTag& item) {
    std::set<std::string> known;
    bool fallback = false;
    for (std::size_t i = 0; i < item.union_shape->variants.size(); ++i) {
      const std::string at = item.pointer + "/oneOf/" + std::to_string(i);
      std::vector<std::pair<std::string, const Shape*>> properties;
      std::unordered_set<const Shape*> seen;
      tag_properties(item.union_shape->variants[i].get(), /*required_only=*/true, properties, seen);
      const Shape* tag = nullptr;
      for (const auto& [name, shape] : properties) {
        if (name != item.tag) continue;
        if (!tag || (string_literal(shape) && !string_literal(tag))) tag = shape;
      }
      if (!tag) {
        fail(item.document, at,
             "the x-sdk-discriminator property " + quoted(item.tag) + " required in every branch");
      }
      if (tag && tag->kind == ShapeKind::kLiteral && tag->literal.is_string() &&
          !tag->literal.string_value().empty()) {
        if (!known.insert(tag->literal.string_value()).second) {
          fail(item.document, at,
               "a unique " + quoted(item.tag) + " literal, " + quoted(tag->literal.string_value()) +
                   " is used by an earlier branch");
        }
      } else if (tag && tag->kind == ShapeKind::kString && !fallback) {
        fallback = true;  // the extension branch: unknown tags are kept as unknown variants
      } else {
        fail(
            item.document, at,
            quoted(item.tag) + " as a non-empty string literal, or as a plain string in one fallback branch");
      }
    }
    item.union_shape->discriminator = item.tag;
  }

  /// A property with a string literal in every branch, all distinct (alphabetically first if several).
  void infer(Shape& shape) {
    if (shape.variants.empty()) return;
    std::vector<std::map<std::string, std::string>> tags;
    for (const ShapePtr& variant : shape.variants) tags.push_back(literal_tags(variant.get()));
    for (const auto& [name, value] : tags.front()) {
      std::set<std::string> values;
      bool ok = true;
      for (const auto& branch : tags) {
        auto it = branch.find(name);
        if (it == branch.end() || !values.insert(it->second).second) {
          ok = false;
          break;
        }
      }
      if (ok) {
        shape.discriminator = name;
        return;
      }
    }
  }

  /// {$ref: U, oneOf: [subset]}: every known variant of U missing from the subset is appended as
  /// Intersection[variant, Never], so that its tag is known (error) rather than unknown (warning).
  void complete(const Constraint& item) {
    const Shape* target = resolve(item.ref.get());
    if (!target || target->kind != ShapeKind::kUnion) return;
    Shape& shape = *item.union_shape;
    std::set<std::string> present;
    auto identity = [&](const ShapePtr& variant) -> std::optional<std::string> {
      if (shape.discriminator) {
        auto tags = literal_tags(variant.get());
        auto it = tags.find(*shape.discriminator);
        if (it != tags.end()) return "tag:" + it->second;
        return std::nullopt;
      }
      if (variant->kind == ShapeKind::kRef) return "ref:" + variant->ref;
      return std::nullopt;
    };
    for (const ShapePtr& variant : shape.variants) {
      if (auto id = identity(variant)) present.insert(*id);
    }
    const std::string document = shape.source.substr(0, shape.source.find('#'));
    const std::string pointer = shape.source.substr(shape.source.find('#') + 1);
    for (const ShapePtr& variant : target->variants) {
      auto id = identity(variant);
      if (!id || present.count(*id)) continue;
      auto excluded = std::make_shared<Shape>();
      excluded->kind = ShapeKind::kIntersection;
      excluded->source = shape.source;
      auto never = std::make_shared<Shape>();
      never->kind = ShapeKind::kNever;
      never->source = shape.source;
      excluded->variants = {clone(*variant), never};
      shape.variants.push_back(excluded);
    }
  }

  static std::shared_ptr<Shape> clone(const Shape& shape) {
    auto copy = std::make_shared<Shape>(shape);
    if (copy->items) copy->items = clone(*copy->items);
    for (Property& property : copy->properties) property.shape = clone(*property.shape);
    if (copy->additional_shape) copy->additional_shape = clone(*copy->additional_shape);
    for (ShapePtr& variant : copy->variants) variant = clone(*variant);
    return copy;
  }

  // ---- ids and roots ----

  void assign_ids() {
    std::uint32_t next = 0;
    std::unordered_set<const Shape*> seen;
    std::function<void(const ShapePtr&)> visit = [&](const ShapePtr& shape) {
      if (!shape || !seen.insert(shape.get()).second) return;
      // Every shape was created non-const by this builder; ids are set once, before publication.
      const_cast<Shape&>(*shape).id = next++;
      visit(shape->items);
      for (const Property& property : shape->properties) visit(property.shape);
      visit(shape->additional_shape);
      for (const ShapePtr& variant : shape->variants) visit(variant);
    };
    for (const auto& [name, type] : ir_.types) visit(type.shape);
    ir_.node_count = next;
  }

  void build_roots() {
    std::map<std::string, std::string> snake_owner;
    for (const std::string& key : roots_) {
      auto [doc, pointer] = locate(key);
      Root root;
      root.public_name = name_of_.at(key);
      root.snake_name = snake_case(root.public_name);
      root.document = doc->path;
      root.pointer = pointer;
      auto [it, inserted] = snake_owner.emplace(root.snake_name, root.public_name);
      if (!inserted) {
        fail(doc->path, "",
             "a unique snake_case root name, but " + quoted(root.snake_name) + " also names " + it->second);
      }
      // The closure is document-level: every document reachable through $refs (conditionals included).
      std::set<std::string> closure{doc->path};
      std::deque<std::string> queue{doc->path};
      while (!queue.empty()) {
        std::string path = queue.front();
        queue.pop_front();
        auto edges = edges_.find(path);
        if (edges == edges_.end()) continue;
        for (const std::string& next : edges->second) {
          if (closure.insert(next).second) queue.push_back(next);
        }
      }
      std::string lines;
      for (const std::string& path : closure) lines += path + " " + by_path_.at(path)->sha256 + "\n";
      root.closure_documents.assign(closure.begin(), closure.end());
      root.closure_hash = sha256_hex(lines);
      ir_.roots.push_back(std::move(root));
    }
    std::sort(ir_.roots.begin(), ir_.roots.end(),
              [](const Root& a, const Root& b) { return a.snake_name < b.snake_name; });
  }

  const Naming& naming_;
  Ir ir_;
  std::map<std::string, const Document*> by_path_;
  std::set<std::string> ref_targets_;                   // "doc#pointer" of every $ref target
  std::map<std::string, std::set<std::string>> edges_;  // document -> documents it refers to
  std::set<std::string> roots_;                         // "doc#" of named roots
  std::vector<std::string> defs_;                       // "doc#/$defs/x" in document order
  std::vector<std::string> stable_keys_;                // stableNames keys that name a node
  std::map<std::string, std::string> name_of_;          // key -> public name
  std::map<std::string, std::string> owner_;            // public name -> key
  std::vector<ExplicitTag> explicit_tags_;
  std::vector<std::shared_ptr<Shape>> inferred_;
  std::vector<Constraint> constraints_;
};

}  // namespace

bool supported_keyword(std::string_view keyword) {
  return is_extension(keyword) || is_structural(keyword) || in(kAnnotationKeywords, keyword) ||
         is_validation(keyword);
}

std::string pascal_case(std::string_view text) {
  std::string out;
  bool start = true;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      start = true;
      continue;
    }
    out.push_back(start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    start = false;
  }
  return out;
}

std::string root_public_name(std::string_view document_path) {
  static const std::map<std::string, std::string, std::less<>> kSpecial = {
      {"session-start", "SessionStartEvent"},
      {"session-end", "SessionEndEvent"},
      {"tool-before", "ToolBeforeEvent"},
      {"tool-after", "ToolAfterEvent"},
      {"schema", "WireMessage"},
  };
  std::string stem = document_stem(document_path);
  auto it = kSpecial.find(stem);
  return it != kSpecial.end() ? it->second : pascal_case(stem);
}

Result<Ir, SchemaError> build_ir(std::vector<Document> documents, const Naming& naming) {
  try {
    Builder builder(std::move(documents), naming);
    return builder.build();
  } catch (Failure& failure) {
    return std::move(failure.error);
  }
}

}  // namespace crosscheck::schema
