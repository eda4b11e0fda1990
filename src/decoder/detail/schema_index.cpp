// schema_index.cpp: one walk over the IR to resolve refs and discriminator tags ahead of time.
#include "decoder/detail/schema_index.hpp"

#include <algorithm>
#include <unordered_set>

namespace crosscheck::decoder::detail {

using schema::Shape;
using schema::ShapeKind;

SchemaIndex::SchemaIndex(const schema::Ir& ir) : ir_(ir) {
  // Refs first (tags follow them), then the tags of every discriminated union.
  std::vector<const Shape*> stack;
  std::unordered_set<const Shape*> seen;
  for (const auto& [name, type] : ir.types) {
    if (type.shape) stack.push_back(type.shape.get());
  }
  std::vector<const Shape*> unions;
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!seen.insert(s).second) continue;
    if (s->kind == ShapeKind::kRef) {
      auto it = ir.types.find(s->ref);
      if (it != ir.types.end() && it->second.shape) targets_.emplace(s, it->second.shape.get());
    }
    if (s->kind == ShapeKind::kUnion && s->discriminator) unions.push_back(s);
    if (s->items) stack.push_back(s->items.get());
    for (const auto& p : s->properties) {
      if (p.shape) stack.push_back(p.shape.get());
    }
    if (s->additional_shape) stack.push_back(s->additional_shape.get());
    for (const auto& v : s->variants) {
      if (v) stack.push_back(v.get());
    }
  }
  // Enough steps to follow any acyclic chain of refs and intersections; a cycle just has no tag.
  int budget = static_cast<int>(std::min<std::size_t>(seen.size() + 2, std::size_t{1} << 20));
  for (const Shape* u : unions) {
    auto& tags = tags_[u];
    for (const auto& v : u->variants) tags.push_back(v ? tag_of(*v, *u->discriminator, budget) : nullptr);
  }
}

const Shape* SchemaIndex::target(const Shape& ref) const {
  auto it = targets_.find(&ref);
  return it == targets_.end() ? nullptr : it->second;
}

const std::vector<const std::string*>& SchemaIndex::tags(const Shape& union_node) const {
  static const std::vector<const std::string*> kNone;
  auto it = tags_.find(&union_node);
  return it == tags_.end() ? kNone : it->second;
}

const std::string* SchemaIndex::tag_of(const Shape& variant, const std::string& name, int budget) const {
  if (budget <= 0) return nullptr;
  switch (variant.kind) {
    case ShapeKind::kRef: {
      const Shape* t = target(variant);
      return t ? tag_of(*t, name, budget - 1) : nullptr;
    }
    case ShapeKind::kIntersection:
      for (const auto& conjunct : variant.variants) {
        if (const std::string* tag = conjunct ? tag_of(*conjunct, name, budget - 1) : nullptr) return tag;
      }
      return nullptr;
    case ShapeKind::kObject:
      for (const auto& property : variant.properties) {
        if (property.wire_name != name || !property.shape) continue;
        const Shape& shape = *property.shape;
        if (shape.kind == ShapeKind::kLiteral && shape.literal.is_string())
          return &shape.literal.string_value();
      }
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace crosscheck::decoder::detail
