// schema_index.cpp: one walk over the IR to resolve refs, discriminator tags and member names ahead of time.
#include "decoder/detail/schema_index.hpp"

#include <algorithm>
#include <unordered_set>

namespace crosscheck::decoder::detail {

using schema::Shape;
using schema::ShapeKind;

PropertyTable::PropertyTable(const std::vector<schema::Property>& properties) {
  if (properties.empty()) return;
  std::size_t size = 4;
  while (size < properties.size() * 2) size *= 2;
  slots_.assign(size, Slot{});
  mask_ = size - 1;
  for (std::size_t p = 0; p < properties.size(); ++p) {
    Words words = words_of(properties[p].wire_name);
    std::size_t i = hash(words) & mask_;
    while (slots_[i].property >= 0) {
      // Properties are unique by name in the IR; a repeat keeps the first, as a linear scan would.
      if (properties[static_cast<std::size_t>(slots_[i].property)].wire_name == properties[p].wire_name)
        break;
      i = (i + 1) & mask_;
    }
    if (slots_[i].property < 0) slots_[i] = Slot{words, static_cast<std::int32_t>(p)};
  }
}

SchemaIndex::SchemaIndex(const schema::Ir& ir) {
  roots_ = ir.roots.data();
  for (const auto& root : ir.roots) {
    auto type = ir.types.find(root.public_name);
    root_shapes_.push_back(type == ir.types.end() ? nullptr : type->second.shape.get());
  }

  // Every node first (refs resolved on the way), then the tags of every discriminated union (they
  // follow refs).
  std::vector<const Shape*> stack;
  std::unordered_set<const Shape*> seen;
  for (const auto& [name, type] : ir.types) {
    if (type.shape) stack.push_back(type.shape.get());
  }
  std::vector<const Shape*> unions, composites;
  dense_.resize(ir.node_count);
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!seen.insert(s).second) continue;
    if (is_composite(s->kind)) composites.push_back(s);
    if (s->kind == ShapeKind::kRef) {
      auto it = ir.types.find(s->ref);
      if (it != ir.types.end() && it->second.shape) add_info(*s).target = it->second.shape.get();
    }
    if (s->kind == ShapeKind::kObject) add_info(*s).properties = PropertyTable(s->properties);
    if (s->kind == ShapeKind::kUnion && s->discriminator) {
      add_info(*s);
      unions.push_back(s);
    }
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
    std::vector<const std::string*> tags;
    for (const auto& v : u->variants) tags.push_back(v ? tag_of(*v, *u->discriminator, budget) : nullptr);
    const_cast<Info*>(info_of(*u))->tags = std::move(tags);
  }
  cycle_free_ = no_composite_cycle(composites);
}

bool SchemaIndex::no_composite_cycle(const std::vector<const Shape*>& composites) const {
  // Depth-first with colours over the edges that consume no input: ref -> target, union and
  // intersection -> variants. Iterative: a long chain of refs must not exhaust the stack.
  enum : std::uint8_t { kOnPath = 1, kDone = 2 };
  std::unordered_map<const Shape*, std::uint8_t> colour;
  auto successors = [&](const Shape& s) {
    std::vector<const Shape*> out;
    if (s.kind == ShapeKind::kRef) {
      if (const Shape* t = target(s)) out.push_back(t);
    } else if (is_composite(s.kind)) {
      for (const auto& v : s.variants) {
        if (v) out.push_back(v.get());
      }
    }
    return out;
  };
  struct Frame {
    const Shape* node;
    std::vector<const Shape*> next;
    std::size_t at = 0;
  };
  for (const Shape* start : composites) {
    if (colour[start] != 0) continue;
    std::vector<Frame> path;
    colour[start] = kOnPath;
    path.push_back(Frame{start, successors(*start)});
    while (!path.empty()) {
      Frame& top = path.back();
      if (top.at == top.next.size()) {
        colour[top.node] = kDone;
        path.pop_back();
        continue;
      }
      const Shape* next = top.next[top.at++];
      std::uint8_t& c = colour[next];
      if (c == kOnPath) return false;
      if (c == kDone) continue;
      c = kOnPath;
      path.push_back(Frame{next, successors(*next)});
    }
  }
  return true;
}

SchemaIndex::Info& SchemaIndex::add_info(const Shape& shape) {
  if (const Info* known = info_of(shape)) return const_cast<Info&>(*known);
  std::size_t at = infos_.size();
  infos_.emplace_back();
  if (shape.id < dense_.size() && dense_[shape.id].node == nullptr) {
    dense_[shape.id] = Dense{&shape, at};
  } else {
    by_address_.emplace(&shape, at);
  }
  return infos_.back();
}

const SchemaIndex::Info* SchemaIndex::info_by_address(const Shape& shape) const {
  if (by_address_.empty()) return nullptr;
  auto it = by_address_.find(&shape);
  return it == by_address_.end() ? nullptr : &infos_[it->second];
}

const std::vector<const std::string*>& SchemaIndex::tags(const Shape& union_node) const {
  static const std::vector<const std::string*> kNone;
  const Info* info = info_of(union_node);
  return info ? info->tags : kNone;
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
