// lower_shapes.cpp: a schema node to its shape, by the generator's rules (ahp-spec.md 2.3): $ref
// and its structural siblings, type arrays, const and enum, compositions, objects and the other
// types; a `not` only as the property-forbidding forms.
#include <algorithm>
#include <map>
#include <optional>

#include "schema/detail/lower_builder.hpp"
#include "schema/detail/lower_support.hpp"

namespace crosscheck::schema::lowering {

namespace {

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

}  // namespace

std::shared_ptr<Shape> Builder::make(ShapeKind kind, const Document& doc, const std::string& ptr) {
  auto shape = std::make_shared<Shape>();
  shape->kind = kind;
  shape->source = key_of(doc.path, ptr);
  return shape;
}

bool Builder::has_structural(const json::Value& node, const Flags& flags, std::string_view except) const {
  for (const json::Member& member : node.members()) {
    if (!is_structural(member.key) || member.key == except) continue;
    if (flags.skip_ref && member.key == "$ref") continue;
    return true;
  }
  return false;
}

std::shared_ptr<Shape> Builder::lower(const json::Value& node, const Document& doc, const std::string& ptr,
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

std::shared_ptr<Shape> Builder::lower_type(const std::string& type, const json::Value& node,
                                           const Document& doc, const std::string& ptr) {
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

std::shared_ptr<Shape> Builder::lower_object(const json::Value& node, const Document& doc,
                                             const std::string& ptr,
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
    property.shape = value ? lower(*value, doc, at, {}) : make(ShapeKind::kAny, doc, child(ptr, "required"));
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

}  // namespace crosscheck::schema::lowering
