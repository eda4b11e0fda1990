// ir.cpp: IR look-ups, statistics and the snake_case naming shared by roots and adapters.
// (Ir::to_json lives in ir_json.cpp.)
#include "schema/ir.hpp"

#include <cctype>
#include <unordered_set>

namespace crosscheck::schema {

const char* shape_kind_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kAny:
      return "any";
    case ShapeKind::kNever:
      return "never";
    case ShapeKind::kNull:
      return "null";
    case ShapeKind::kBoolean:
      return "boolean";
    case ShapeKind::kInteger:
      return "integer";
    case ShapeKind::kNumber:
      return "number";
    case ShapeKind::kString:
      return "string";
    case ShapeKind::kLiteral:
      return "literal";
    case ShapeKind::kEnum:
      return "enum";
    case ShapeKind::kArray:
      return "array";
    case ShapeKind::kObject:
      return "object";
    case ShapeKind::kUnion:
      return "union";
    case ShapeKind::kIntersection:
      return "intersection";
    case ShapeKind::kRef:
      return "ref";
  }
  return "?";
}

const Root* Ir::find_root(std::string_view name) const {
  for (const Root& root : roots) {
    if (root.snake_name == name || root.public_name == name) return &root;
  }
  return nullptr;
}

const NamedType* Ir::find_type(std::string_view name) const {
  auto it = types.find(name);
  return it == types.end() ? nullptr : &it->second;
}

ShapePtr Ir::root_shape(const Root& root) const {
  const NamedType* type = find_type(root.public_name);
  return type ? type->shape : nullptr;
}

namespace {

void count_nodes(const Shape& shape, std::unordered_set<const Shape*>& seen, IrStats& stats) {
  if (!seen.insert(&shape).second) return;
  ++stats.nodes;
  ++stats.nodes_by_kind[shape_kind_name(shape.kind)];
  if (shape.items) count_nodes(*shape.items, seen, stats);
  for (const Property& property : shape.properties) {
    if (property.shape) count_nodes(*property.shape, seen, stats);
  }
  if (shape.additional_shape) count_nodes(*shape.additional_shape, seen, stats);
  for (const ShapePtr& variant : shape.variants) {
    if (variant) count_nodes(*variant, seen, stats);
  }
}

}  // namespace

IrStats Ir::stats() const {
  IrStats stats;
  stats.types = types.size();
  stats.roots = roots.size();
  std::unordered_set<const Shape*> seen;
  for (const auto& [name, type] : types) {
    if (type.shape) count_nodes(*type.shape, seen, stats);
  }
  return stats;
}

std::string snake_case(std::string_view public_name) {
  // An underscore goes before an upper-case letter that follows a lower-case letter or digit, or
  // that ends an acronym ("HTTPServer" -> "http_server"); separators become underscores.
  std::string out;
  const std::size_t n = public_name.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(public_name[i]);
    if (!std::isalnum(c)) {
      if (!out.empty() && out.back() != '_') out.push_back('_');
      continue;
    }
    if (std::isupper(c) && i > 0 && !out.empty() && out.back() != '_') {
      const unsigned char prev = static_cast<unsigned char>(public_name[i - 1]);
      const bool next_lower = i + 1 < n && std::islower(static_cast<unsigned char>(public_name[i + 1]));
      if (std::islower(prev) || std::isdigit(prev) || (std::isupper(prev) && next_lower)) out.push_back('_');
    }
    out.push_back(static_cast<char>(std::tolower(c)));
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace crosscheck::schema
