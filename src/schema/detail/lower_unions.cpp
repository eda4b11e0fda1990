// lower_unions.cpp: once every type is lowered: each x-sdk-discriminator checked, a discriminator
// inferred for each other oneOf, and each $ref-constrained union completed with the variants it
// excludes.
#include <optional>

#include "schema/detail/lower_builder.hpp"
#include "schema/detail/lower_support.hpp"

namespace crosscheck::schema::lowering {

const Shape* Builder::resolve(const Shape* shape) const {
  for (int guard = 0; shape && shape->kind == ShapeKind::kRef && guard < 1000; ++guard) {
    const NamedType* type = ir_.find_type(shape->ref);
    shape = type ? type->shape.get() : nullptr;
  }
  return shape && shape->kind == ShapeKind::kRef ? nullptr : shape;
}

void Builder::tag_properties(const Shape* shape, bool required_only,
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

bool Builder::string_literal(const Shape* shape) {
  return shape && shape->kind == ShapeKind::kLiteral && shape->literal.is_string();
}

std::map<std::string, std::string> Builder::literal_tags(const Shape* branch) const {
  std::vector<std::pair<std::string, const Shape*>> properties;
  std::unordered_set<const Shape*> seen;
  tag_properties(branch, /*required_only=*/false, properties, seen);
  std::map<std::string, std::string> out;
  for (const auto& [name, shape] : properties) {
    if (string_literal(shape)) out.emplace(name, shape->literal.string_value());
  }
  return out;
}

void Builder::finish_unions() {
  for (const ExplicitTag& item : explicit_tags_) check_explicit(item);
  for (const auto& shape : inferred_) infer(*shape);
  for (const Constraint& item : constraints_) complete(item);
}

void Builder::check_explicit(const ExplicitTag& item) {
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
      fail(item.document, at,
           quoted(item.tag) + " as a non-empty string literal, or as a plain string in one fallback branch");
    }
  }
  item.union_shape->discriminator = item.tag;
}

void Builder::infer(Shape& shape) {
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

void Builder::complete(const Constraint& item) {
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

std::shared_ptr<Shape> Builder::clone(const Shape& shape) {
  auto copy = std::make_shared<Shape>(shape);
  if (copy->items) copy->items = clone(*copy->items);
  for (Property& property : copy->properties) property.shape = clone(*property.shape);
  if (copy->additional_shape) copy->additional_shape = clone(*copy->additional_shape);
  for (ShapePtr& variant : copy->variants) variant = clone(*variant);
  return copy;
}

}  // namespace crosscheck::schema::lowering
