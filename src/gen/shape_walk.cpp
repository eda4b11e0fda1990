// shape_walk.cpp: positions of a value under its shape (see shape_walk.hpp).
#include "gen/shape_walk.hpp"

#include <unordered_map>

#include "decoder/checker.hpp"
#include "json/pointer.hpp"

namespace crosscheck::gen {

using json::Value;
using schema::Shape;
using schema::ShapeKind;

namespace {

constexpr int kMaxHops = 64;             // refs and intersections followed on one value
constexpr std::size_t kMaxLevels = 512;  // positions listed below the root: bounds the recursion

class Walker {
 public:
  Walker(const ShapeFacts& facts, std::vector<WalkNode>& out) : facts_(facts), out_(out) {}

  void visit(WalkNode node) {
    for (const Shape* s : node.declared) collect(node, s, 0);
    const Value& value = *node.value;
    const bool opaque = node.opaque || (node.objects.empty() && node.arrays.empty());
    const std::size_t self = out_.size();
    out_.push_back(std::move(node));
    // Children are built from a copy of what they need: out_ may reallocate below.
    const WalkNode parent = out_[self];
    if (parent.steps.size() >= kMaxLevels) return;
    if (value.is_object()) {
      // The decoder reads each key's last occurrence; earlier duplicates are not positions.
      std::unordered_map<std::string_view, std::size_t> last;
      for (std::size_t i = 0; i < value.members().size(); ++i) last[value.members()[i].key] = i;
      for (std::size_t i = 0; i < value.members().size(); ++i) {
        const json::Member& m = value.members()[i];
        if (last[m.key] != i) continue;
        WalkNode child = make_child(parent, i, m.value);
        detail_pointer(child.pointer, m.key);
        if (!opaque) {
          for (const Shape* o : parent.objects) {
            const Shape* declared = nullptr;
            for (const auto& p : o->properties) {
              if (p.wire_name == m.key) declared = p.shape.get();
            }
            if (!declared && o->additional_shape && o->additional_shape->kind != ShapeKind::kAny)
              declared = o->additional_shape.get();
            if (declared) child.declared.push_back(declared);
          }
        }
        child.opaque = child.declared.empty();
        visit(std::move(child));
      }
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.items().size(); ++i) {
        WalkNode child = make_child(parent, i, value.items()[i]);
        child.pointer += "/" + std::to_string(i);
        if (!opaque) {
          for (const Shape* a : parent.arrays) {
            if (a->items) child.declared.push_back(a->items.get());
          }
        }
        child.opaque = child.declared.empty();
        visit(std::move(child));
      }
    }
  }

 private:
  static WalkNode make_child(const WalkNode& parent, std::size_t index, const Value& value) {
    WalkNode child;
    child.steps = parent.steps;
    child.steps.push_back(index);
    child.pointer = parent.pointer;
    child.value = &value;
    child.via_untagged = parent.via_untagged;
    return child;
  }

  static void detail_pointer(std::string& pointer, std::string_view key) {
    json::append_pointer_token(pointer, key);
  }

  void collect(WalkNode& node, const Shape* shape, int hops) {
    if (!shape || hops > kMaxHops) return;
    const Value& value = *node.value;
    switch (shape->kind) {
      case ShapeKind::kRef:
        collect(node, facts_.target(*shape), hops + 1);
        return;
      case ShapeKind::kIntersection:
        for (const auto& v : shape->variants) collect(node, v.get(), hops + 1);
        return;
      case ShapeKind::kUnion: {
        if (shape->discriminator) {
          int selected = -2;
          const Value* tag = value.is_object() ? value.find(*shape->discriminator) : nullptr;
          if (tag && tag->is_string()) {
            selected = -1;
            const auto& tags = facts_.tags(*shape);
            for (std::size_t i = 0; i < tags.size() && selected < 0; ++i) {
              if (tags[i] && *tags[i] == tag->string_value()) selected = static_cast<int>(i);
            }
          }
          node.tagged.push_back(TaggedUnionAt{shape, selected});
          if (selected >= 0)
            collect(node, shape->variants[static_cast<std::size_t>(selected)].get(), hops + 1);
          return;
        }
        UntaggedUnionAt at{shape, {}};
        for (std::size_t i = 0; i < shape->variants.size(); ++i) {
          if (shape->variants[i] && facts_.check(*shape->variants[i], value) != CheckStatus::kError)
            at.matched.push_back(i);
        }
        node.untagged.push_back(at);
        if (!at.matched.empty()) {
          node.via_untagged = true;
          collect(node, shape->variants[at.matched.front()].get(), hops + 1);
        }
        return;
      }
      case ShapeKind::kAny:
        node.any = true;
        return;
      default:
        break;
    }
    node.leaves.push_back(shape);
    switch (shape->kind) {
      case ShapeKind::kObject:
        node.objects.push_back(shape);
        return;
      case ShapeKind::kArray:
        node.arrays.push_back(shape);
        return;
      case ShapeKind::kEnum:
        node.enums.push_back(shape);
        return;
      case ShapeKind::kInteger:
        node.integers.push_back(shape);
        return;
      case ShapeKind::kNumber:
        node.numbers.push_back(shape);
        return;
      case ShapeKind::kString:
        node.strings.push_back(shape);
        return;
      case ShapeKind::kLiteral:
        node.literals.push_back(shape);
        return;
      case ShapeKind::kNull:
        node.nulls.push_back(shape);
        return;
      default:
        return;
    }
  }

  const ShapeFacts& facts_;
  std::vector<WalkNode>& out_;
};

}  // namespace

std::vector<WalkNode> walk(const ShapeFacts& facts, const Shape& shape, const Value& value) {
  std::vector<WalkNode> out;
  WalkNode root;
  root.value = &value;
  root.declared.push_back(&shape);
  Walker(facts, out).visit(std::move(root));
  return out;
}

Value& locate(Value& root, const std::vector<std::size_t>& steps) {
  Value* at = &root;
  for (std::size_t index : steps) at = at->is_object() ? &at->members()[index].value : &at->items()[index];
  return *at;
}

}  // namespace crosscheck::gen
