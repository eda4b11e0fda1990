// schema_coverage.cpp: node bookkeeping for schema coverage, and which pairs cannot happen.
#include "coverage/schema_coverage.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "decoder/decoder.hpp"

namespace crosscheck::campaign {
namespace {

using schema::Shape;
using schema::ShapeKind;

constexpr std::uint8_t kAccepted = 1, kRejected = 2;

bool outcome_deciding(const Shape& s) {
  switch (s.kind) {
    case ShapeKind::kUnion:
    case ShapeKind::kEnum:
    case ShapeKind::kLiteral:
      return true;
    case ShapeKind::kObject:
      return !s.forbidden_property_sets.empty() ||
             std::any_of(s.properties.begin(), s.properties.end(), [](const auto& p) { return p.required; });
    default:
      return false;
  }
}

/// What the decoder's checker (src/decoder/detail/checker.cpp) can do from each node: which nodes it
/// evaluates next, and whether a failure there is absorbed (only an untagged union's arm: another arm may
/// match).
class CheckerGraph {
 public:
  explicit CheckerGraph(const schema::Ir& ir) : decoder_(ir) {
    std::vector<const Shape*> stack;
    for (const auto& [name, type] : ir.types)
      if (type.shape) stack.push_back(type.shape.get());
    std::unordered_set<const Shape*> seen;
    while (!stack.empty()) {
      const Shape* s = stack.back();
      stack.pop_back();
      if (!s || !seen.insert(s).second) continue;
      all_.push_back(s);
      if (s->items) stack.push_back(s->items.get());
      for (const auto& p : s->properties) stack.push_back(p.shape.get());
      if (s->additional_shape) stack.push_back(s->additional_shape.get());
      for (const auto& v : s->variants) stack.push_back(v.get());
    }
  }

  struct Edge {
    const Shape* to;
    bool absorbing;
  };
  /// The nodes the checker may evaluate right below `s` (on the same value or a member or item of it).
  std::vector<Edge> next(const Shape& s) const {
    std::vector<Edge> out;
    switch (s.kind) {
      case ShapeKind::kArray:
        if (s.items) out.push_back({s.items.get(), false});
        break;
      case ShapeKind::kObject:
        for (const auto& p : s.properties)
          if (p.shape) out.push_back({p.shape.get(), false});
        if (s.additional_shape && s.additional_shape->kind != ShapeKind::kAny)
          out.push_back({s.additional_shape.get(), false});
        break;
      case ShapeKind::kIntersection:
        for (const auto& v : s.variants)
          if (v) out.push_back({v.get(), false});
        break;
      case ShapeKind::kRef:
        if (const Shape* t = decoder_.ref_target(s)) out.push_back({t, false});
        break;
      case ShapeKind::kUnion:
        if (s.discriminator) {
          // Checker::select_tagged: the first arm whose literal tag equals the member's value.
          const auto& tags = decoder_.variant_tags(s);
          std::unordered_set<std::string> taken;
          for (std::size_t i = 0; i < s.variants.size() && i < tags.size(); ++i) {
            if (tags[i] && taken.insert(*tags[i]).second && s.variants[i])
              out.push_back({s.variants[i].get(), false});
          }
        } else {
          for (const auto& v : s.variants)
            if (v) out.push_back({v.get(), true});
        }
        break;
      default:
        break;
    }
    return out;
  }

  /// Could some value make the checker answer anything but an error at `s`? A least fixed point that
  /// over-approximates (intersections and oneOf count as satisfiable when each part is), so "false"
  /// is a proof: every visit of `s` fails there.
  std::unordered_map<const Shape*, bool> may_pass() const {
    std::unordered_map<const Shape*, bool> ok;
    for (const Shape* s : all_) ok[s] = false;
    auto get = [&](const Shape* s) { return s && ok[s]; };
    for (bool changed = true; changed;) {
      changed = false;
      for (const Shape* s : all_) {
        if (ok[s]) continue;
        bool pass = false;
        switch (s->kind) {
          case ShapeKind::kNever:
            break;
          case ShapeKind::kEnum:
            pass = !s->enum_values.empty() || s->open_strings;
            break;
          case ShapeKind::kObject: {
            pass = true;
            std::unordered_set<std::string> required;
            for (const auto& p : s->properties) {
              if (!p.required) continue;
              required.insert(p.wire_name);
              pass = pass && get(p.shape.get());
            }
            // A forbidden set made only of required members: every object breaks one rule or the other.
            for (const auto& set : s->forbidden_property_sets)
              if (std::all_of(set.begin(), set.end(), [&](const auto& n) { return required.count(n) > 0; }))
                pass = false;
            break;
          }
          case ShapeKind::kIntersection:
            pass = std::all_of(s->variants.begin(), s->variants.end(),
                               [&](const auto& v) { return get(v.get()); });
            break;
          case ShapeKind::kRef:
            pass = get(decoder_.ref_target(*s));
            break;
          case ShapeKind::kUnion:
            // An unknown tag is a warning, not an error.
            pass = s->discriminator.has_value() || std::any_of(s->variants.begin(), s->variants.end(),
                                                               [&](const auto& v) { return get(v.get()); });
            break;
          default:
            pass = true;  // any, null, boolean, numbers, strings, literals, arrays (the empty one)
        }
        if (pass) {
          ok[s] = true;
          changed = true;
        }
      }
    }
    return ok;
  }

 private:
  decoder::Decoder decoder_;  // its ref targets and tags, as the check resolves them
  std::vector<const Shape*> all_;
};

std::string percent_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", p);
  return buf;
}

std::string count_text(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

SchemaCoverage::SchemaCoverage(const schema::Ir& ir)
    : by_id_(ir.node_count, nullptr), flags_(ir.node_count, 0), impossible_(ir.node_count, 0) {
  // Only nodes a root can reach count: a definition no root uses can never be exercised.
  std::vector<bool> seen(ir.node_count, false);
  std::function<void(const schema::ShapePtr&, bool)> walk = [&](const schema::ShapePtr& s, bool arm) {
    if (!s || s->id >= seen.size() || seen[s->id]) return;
    seen[s->id] = true;
    // Union arms are tracked whatever their kind: reaching an arm is what decides a union.
    if (arm || outcome_deciding(*s)) {
      by_id_[s->id] = s.get();
      ++tracked_count_;
    }
    for (const auto& p : s->properties) walk(p.shape, false);
    walk(s->items, false);
    walk(s->additional_shape, false);
    for (const auto& v : s->variants) walk(v, s->kind == schema::ShapeKind::kUnion);
    if (s->kind == schema::ShapeKind::kRef) {
      if (const schema::NamedType* t = ir.find_type(s->ref)) walk(t->shape, false);
    }
  };
  for (const auto& root : ir.roots) {
    if (const schema::NamedType* t = ir.find_type(root.public_name)) walk(t->shape, false);
  }

  // The impossible pairs: walk what the checker can evaluate from each root. A node that no value
  // passes, met before any untagged union's arm on the way (whose failure another arm could absorb),
  // fails the payload: everything evaluated on the way through it is seen only by rejected payloads.
  CheckerGraph graph(ir);
  auto may_pass = graph.may_pass();
  enum Way : std::uint8_t { kHard = 1, kSoft = 2, kDoomed = 4 };  // how a node was reached
  std::unordered_map<const Shape*, std::uint8_t> ways;
  std::vector<std::pair<const Shape*, Way>> stack;
  for (const auto& root : ir.roots) {
    if (const schema::NamedType* t = ir.find_type(root.public_name); t && t->shape)
      stack.emplace_back(t->shape.get(), kHard);
  }
  while (!stack.empty()) {
    auto [s, way] = stack.back();
    stack.pop_back();
    if (way == kHard && !may_pass[s]) way = kDoomed;
    std::uint8_t& seen_ways = ways[s];
    if (seen_ways & way) continue;
    seen_ways |= way;
    for (const auto& e : graph.next(*s)) stack.emplace_back(e.to, way == kHard && e.absorbing ? kSoft : way);
  }
  for (std::size_t id = 0; id < by_id_.size(); ++id) {
    const Shape* s = by_id_[id];
    if (!s) continue;
    auto it = ways.find(s);
    if (it == ways.end())
      impossible_[id] = kAccepted | kRejected;
    else if (!(it->second & (kHard | kSoft)))
      impossible_[id] = kAccepted;
  }
}

void SchemaCoverage::Probe::visit(const schema::Shape& node, bool) { nodes.push_back(node.id); }

bool SchemaCoverage::finish(const Probe& probe, bool accepted) {
  bool fresh = false;
  std::uint8_t bit = accepted ? kAccepted : kRejected;
  for (std::uint32_t id : probe.nodes) {
    if (id >= by_id_.size() || !by_id_[id]) continue;
    if (!(flags_[id] & bit)) {
      flags_[id] |= bit;
      fresh = true;
    }
  }
  return fresh;
}

std::size_t SchemaCoverage::reached_accepted() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i) n += by_id_[i] && (flags_[i] & kAccepted);
  return n;
}

std::size_t SchemaCoverage::reached_rejected() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i) n += by_id_[i] && (flags_[i] & kRejected);
  return n;
}

std::size_t SchemaCoverage::possible_accepted() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i)
    n += by_id_[i] && (!(impossible_[i] & kAccepted) || (flags_[i] & kAccepted));
  return n;
}

std::size_t SchemaCoverage::possible_rejected() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flags_.size(); ++i)
    n += by_id_[i] && (!(impossible_[i] & kRejected) || (flags_[i] & kRejected));
  return n;
}

double SchemaCoverage::percent() const { return figures().percent(); }

double SchemaCoverage::percent_all() const { return figures().percent_all(); }

std::vector<std::string> SchemaCoverage::never_accepted() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && !(flags_[i] & kAccepted) && !(impossible_[i] & kAccepted))
      out.push_back(by_id_[i]->source);
  }
  return out;
}

std::vector<std::string> SchemaCoverage::never_rejected() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && !(flags_[i] & kRejected) && !(impossible_[i] & kRejected))
      out.push_back(by_id_[i]->source);
  }
  return out;
}

std::vector<std::string> SchemaCoverage::never_visited() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && impossible_[i] == (kAccepted | kRejected) && !flags_[i])
      out.push_back(by_id_[i]->source);
  }
  return out;
}

std::vector<std::string> SchemaCoverage::always_rejected() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (by_id_[i] && impossible_[i] == kAccepted && !(flags_[i] & kAccepted))
      out.push_back(by_id_[i]->source);
  }
  return out;
}

run::CoverageFigures SchemaCoverage::figures() const {
  run::CoverageFigures f;
  f.tracked = tracked_count_;
  f.reached_accepted = reached_accepted();
  f.reached_rejected = reached_rejected();
  f.possible_accepted = possible_accepted();
  f.possible_rejected = possible_rejected();
  return f;
}

run::CoverageFile SchemaCoverage::to_file() const {
  run::CoverageFile c;
  c.figures = figures();
  for (std::size_t i = 0; i < flags_.size(); ++i) {
    if (!by_id_[i]) continue;
    if (flags_[i]) c.flags[i] = flags_[i];
    // An impossible pair that was reached is possible after all: only the unreached ones are listed.
    if (auto b = static_cast<std::uint8_t>(impossible_[i] & ~flags_[i])) c.impossible_flags[i] = b;
  }
  c.never_accepted = never_accepted();
  c.never_rejected = never_rejected();
  c.never_visited = never_visited();
  c.always_rejected = always_rejected();
  return c;
}

std::string SchemaCoverage::describe() const {
  std::size_t possible = possible_accepted() + possible_rejected(), all = 2 * tracked_count_;
  return percent_text(percent()) + "% of the " + count_text(possible) +
         " (node, outcome) pairs a payload can reach (" + percent_text(percent_all()) + "% of all " +
         count_text(all) + "; " + count_text(all - possible) +
         " cannot happen): " + count_text(reached_accepted()) + "/" + count_text(possible_accepted()) +
         " nodes reached in an accepted payload, " + count_text(reached_rejected()) + "/" +
         count_text(possible_rejected()) + " in a rejected one";
}

void SchemaCoverage::restore(const run::CoverageFile& saved) {
  for (const auto& [id, bits] : saved.flags)
    if (id < flags_.size() && by_id_[id]) flags_[id] |= bits & 3;
}

}  // namespace crosscheck::campaign
