// shape_walk.cpp: positions of a value under its shape (see shape_walk.hpp).
#include "gen/shape_walk.hpp"

#include <unordered_map>

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
  Walker(const ShapeFacts& facts, std::vector<WalkNode>& out) : facts_(facts), checker_(facts), out_(out) {}

  /// Fills in out_[self] (steps, pointer, value, declared already set), then lists its children
  /// after it. Nodes are built in place and reached by index: out_ may grow while children are added.
  void visit(std::size_t self) {
    for (std::size_t i = 0; i < out_[self].declared.size(); ++i)
      collect(out_[self], out_[self].declared[i], 0);
    const WalkNode& node = out_[self];
    const Value& value = *node.value;
    if (node.steps.size() >= kMaxLevels || !(value.is_object() || value.is_array())) return;
    // Children of an opaque position, or of one with no object or array shape, are opaque.
    const bool opaque = node.opaque || (node.objects.empty() && node.arrays.empty());
    if (value.is_object()) {
      const auto& members = value.members();
      // The decoder reads each key's last occurrence; earlier duplicates are not positions.
      std::unordered_map<std::string_view, std::size_t> last;
      if (members.size() > kLinearKeys) {
        for (std::size_t i = 0; i < members.size(); ++i) last[members[i].key] = i;
      }
      for (std::size_t i = 0; i < members.size(); ++i) {
        const json::Member& m = members[i];
        if (members.size() > kLinearKeys ? last[m.key] != i : repeated_later(members, i)) continue;
        WalkNode& child = add_child(self, i, m.value);
        json::append_pointer_token(child.pointer, m.key);
        if (!opaque) {
          for (const Shape* o : out_[self].objects) {
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
        visit(out_.size() - 1);
      }
    } else {
      for (std::size_t i = 0; i < value.items().size(); ++i) {
        WalkNode& child = add_child(self, i, value.items()[i]);
        child.pointer += "/" + std::to_string(i);
        if (!opaque) {
          for (const Shape* a : out_[self].arrays) {
            if (a->items) child.declared.push_back(a->items.get());
          }
        }
        child.opaque = child.declared.empty();
        visit(out_.size() - 1);
      }
    }
  }

 private:
  static constexpr std::size_t kLinearKeys = 16;  // up to this many members, no hash map for duplicates

  static bool repeated_later(const std::vector<json::Member>& members, std::size_t i) {
    for (std::size_t j = i + 1; j < members.size(); ++j) {
      if (members[j].key == members[i].key) return true;
    }
    return false;
  }

  /// A new node after the others for item or member `index` of out_[parent]; valid until the next add.
  WalkNode& add_child(std::size_t parent, std::size_t index, const Value& value) {
    WalkNode& child = out_.emplace_back();
    const WalkNode& p = out_[parent];
    child.steps = p.steps;
    child.steps.push_back(index);
    child.pointer = p.pointer;
    child.value = &value;
    child.via_untagged = p.via_untagged;
    return child;
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
          if (shape->variants[i] && checker_.check(*shape->variants[i], value) != CheckStatus::kError)
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
  ShapeFacts::SubtreeChecker checker_;  // one memo for the whole walk: the value does not change
  std::vector<WalkNode>& out_;
};

}  // namespace

namespace {

/// Values in `value` down to kMaxLevels below it: room for the walk's list up front (a node is a few
/// hundred bytes; growing the list moved every node several times).
std::size_t count_values(const Value& value, std::size_t level) {
  std::size_t n = 1;
  if (level >= kMaxLevels) return n;
  if (value.is_object()) {
    for (const auto& m : value.members()) n += count_values(m.value, level + 1);
  } else if (value.is_array()) {
    for (const auto& item : value.items()) n += count_values(item, level + 1);
  }
  return n;
}

}  // namespace

std::vector<WalkNode> walk(const ShapeFacts& facts, const Shape& shape, const Value& value) {
  std::vector<WalkNode> out;
  out.reserve(count_values(value, 0));
  WalkNode& root = out.emplace_back();
  root.value = &value;
  root.declared.push_back(&shape);
  Walker(facts, out).visit(0);
  return out;
}

Value& locate(Value& root, const Steps& steps) {
  Value* at = &root;
  for (std::size_t index : steps) at = at->is_object() ? &at->members()[index].value : &at->items()[index];
  return *at;
}

}  // namespace crosscheck::gen
