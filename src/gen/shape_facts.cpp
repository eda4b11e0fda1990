// shape_facts.cpp: ref targets, tags, minimum depths and subtree checks (see shape_facts.hpp).
#include "gen/shape_facts.hpp"

#include <algorithm>
#include <unordered_set>

namespace crosscheck::gen {

using schema::Shape;
using schema::ShapeKind;

namespace {

void push_children(const Shape& s, std::vector<const Shape*>& stack) {
  if (s.items) stack.push_back(s.items.get());
  for (const auto& p : s.properties) {
    if (p.shape) stack.push_back(p.shape.get());
  }
  if (s.additional_shape) stack.push_back(s.additional_shape.get());
  for (const auto& v : s.variants) {
    if (v) stack.push_back(v.get());
  }
}

std::size_t add_one(std::size_t d) { return d == ShapeFacts::kUnsatisfiable ? d : d + 1; }

}  // namespace

ShapeFacts::ShapeFacts(const schema::Ir& ir) : ir_(ir), decoder_(ir) {
  std::unordered_set<const Shape*> seen;
  std::vector<const Shape*> stack;
  for (const auto& [name, type] : ir.types) {
    if (type.shape) stack.push_back(type.shape.get());
  }
  while (!stack.empty()) {
    const Shape* s = stack.back();
    stack.pop_back();
    if (!seen.insert(s).second) continue;
    all_.push_back(s);
    push_children(*s, stack);
  }
  // Reachable from the roots, depth first in root order: a stable order for reports.
  seen.clear();
  for (const auto& root : ir.roots) {
    if (auto shape = ir.root_shape(root)) stack.push_back(shape.get());
    while (!stack.empty()) {
      const Shape* s = stack.back();
      stack.pop_back();
      if (!seen.insert(s).second) continue;
      reachable_.push_back(s);
      if (s->kind == ShapeKind::kRef) {
        if (const Shape* t = target(*s)) stack.push_back(t);
      }
      std::vector<const Shape*> children;
      push_children(*s, children);
      stack.insert(stack.end(), children.rbegin(), children.rend());
    }
  }
  compute_min_depths();
}

const Shape* ShapeFacts::target(const Shape& ref) const { return decoder_.ref_target(ref); }

const std::vector<const std::string*>& ShapeFacts::tags(const Shape& union_node) const {
  return decoder_.variant_tags(union_node);
}

std::size_t ShapeFacts::min_depth(const Shape& shape) const {
  auto it = min_depth_.find(&shape);
  return it == min_depth_.end() ? kUnsatisfiable : it->second;
}

template <class Get>
std::size_t ShapeFacts::intersection_depth(const Shape& s, const Get& get) const {
  // Conjuncts share one value: the deepest conjunct is a lower bound, and object conjuncts merge
  // (a member one conjunct requires takes the deepest shape any conjunct gives it), which matters
  // for allOf[CommonNotification, {params: {event}}] where neither alone needs the event. Still a
  // lower bound (union conjuncts count as their least deep arm), which is all the generator needs.
  std::vector<const Shape*> objects, stack{&s};
  std::size_t d = 0;
  for (int hops = 0; !stack.empty() && hops < 256; ++hops) {
    const Shape* c = stack.back();
    stack.pop_back();
    if (!c) return kUnsatisfiable;
    if (c->kind == ShapeKind::kIntersection) {
      for (const auto& v : c->variants) stack.push_back(v.get());
    } else if (c->kind == ShapeKind::kRef) {
      stack.push_back(target(*c));
    } else if (c->kind == ShapeKind::kObject) {
      objects.push_back(c);
    } else {
      d = std::max(d, get(c));
    }
  }
  if (d == kUnsatisfiable || objects.empty()) return d;
  std::size_t inner = 0;
  for (const Shape* o : objects) {
    for (const auto& p : o->properties) {
      if (!p.required) continue;
      for (const Shape* other : objects) {
        for (const auto& q : other->properties) {
          if (q.wire_name == p.wire_name) inner = std::max(inner, get(q.shape.get()));
        }
      }
    }
  }
  return std::max(d, add_one(inner));
}

void ShapeFacts::compute_min_depths() {
  // Bellman-Ford style: start from "unsatisfiable" everywhere and lower until nothing changes.
  // Each round can only lower values, and values are bounded below, so this terminates; a ref
  // cycle without a finite way out stays unsatisfiable.
  for (const Shape* s : all_) min_depth_[s] = kUnsatisfiable;
  auto get = [&](const Shape* s) { return s ? min_depth_[s] : kUnsatisfiable; };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Shape* s : all_) {
      std::size_t d = kUnsatisfiable;
      switch (s->kind) {
        case ShapeKind::kNever:
          break;
        case ShapeKind::kArray:
          d = 1;  // the empty array
          break;
        case ShapeKind::kObject: {
          std::size_t inner = 0;
          for (const auto& p : s->properties) {
            if (p.required) inner = std::max(inner, get(p.shape.get()));
          }
          d = add_one(inner);
          break;
        }
        case ShapeKind::kRef: {
          const Shape* t = target(*s);
          d = t ? get(t) : kUnsatisfiable;
          break;
        }
        case ShapeKind::kUnion: {
          // As the generator chooses: a tagged union's arm without a literal tag is never taken.
          const auto& tags = this->tags(*s);
          for (std::size_t i = 0; i < s->variants.size(); ++i) {
            if (s->discriminator && (i >= tags.size() || !tags[i])) continue;
            d = std::min(d, get(s->variants[i].get()));
          }
          break;
        }
        case ShapeKind::kIntersection:
          d = intersection_depth(*s, get);
          break;
        default:
          d = 0;
      }
      if (d < min_depth_[s]) {
        min_depth_[s] = d;
        changed = true;
      }
    }
  }
}

CheckStatus ShapeFacts::check(const Shape& shape, const json::Value& value) const {
  return decoder_.check_subtree(shape, value);
}

ShapeFacts::SubtreeChecker::SubtreeChecker(const ShapeFacts& facts) : checker_(facts.decoder_) {}

ShapeFacts::SubtreeChecker::~SubtreeChecker() = default;

CheckStatus ShapeFacts::SubtreeChecker::check(const Shape& shape, const json::Value& value) {
  return checker_.check(shape, value);
}

}  // namespace crosscheck::gen
