// shape_generator.cpp: valid values for conjunctions of shapes (see shape_generator.hpp).
#include "gen/shape_generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "gen/any_value.hpp"
#include "json/equal.hpp"

namespace crosscheck::gen {

using json::Value;
using schema::Shape;
using schema::ShapeKind;

namespace {

constexpr std::size_t kAttempts = 6;         // redraws of one conjunction before giving up
constexpr std::size_t kMaxSteps = 20000;     // generate() calls per top-level attempt
constexpr std::size_t kMaxExpansions = 256;  // refs and intersections flattened per conjunction
constexpr std::int64_t kSafe = 9007199254740991;
constexpr double kUnknownMemberProbability = 0.1;
constexpr double kTypedExtraProbability = 0.4;  // typed additionalProperties deserve exercise
constexpr double kShuffleProbability = 0.3;     // member order: tags are not always first

/// The JSON kinds a leaf accepts, as a bit set over json::Kind.
unsigned kinds_of(const Shape& s) {
  auto bit = [](json::Kind k) { return 1u << static_cast<unsigned>(k); };
  switch (s.kind) {
    case ShapeKind::kAny:
      return 0x3f;
    case ShapeKind::kNever:
      return 0;
    case ShapeKind::kNull:
      return bit(json::Kind::kNull);
    case ShapeKind::kBoolean:
      return bit(json::Kind::kBool);
    case ShapeKind::kInteger:
    case ShapeKind::kNumber:
      return bit(json::Kind::kNumber);
    case ShapeKind::kString:
      return bit(json::Kind::kString);
    case ShapeKind::kLiteral:
      return bit(s.literal.kind());
    case ShapeKind::kEnum: {
      unsigned k = 0;
      for (const auto& v : s.enum_values) k |= bit(v.kind());
      return k;
    }
    case ShapeKind::kArray:
      return bit(json::Kind::kArray);
    case ShapeKind::kObject:
      return bit(json::Kind::kObject);
    default:
      return 0x3f;
  }
}

/// An inclusive integer bound from its schema spelling, clamped to the safe range.
std::int64_t bound(const std::string& text, bool lower) {
  if (json::compare_numbers(text, "9007199254740991") > 0) return kSafe;
  if (json::compare_numbers(text, "-9007199254740991") < 0) return -kSafe;
  const long double v = std::strtold(text.c_str(), nullptr);
  return static_cast<std::int64_t>(lower ? std::ceil(v) : std::floor(v));
}

std::size_t nesting(const Value& v) {
  std::size_t inner = 0;
  if (v.is_array()) {
    for (const auto& item : v.items()) inner = std::max(inner, nesting(item));
  } else if (v.is_object()) {
    for (const auto& m : v.members()) inner = std::max(inner, nesting(m.value));
  } else {
    return 0;
  }
  return inner + 1;
}

}  // namespace

struct ShapeGenerator::Flat {
  std::vector<const Shape*> leaves;
  std::vector<const Shape*> unions;  // not yet resolved
  std::size_t expansions = 0;
};

ShapeGenerator::ShapeGenerator(const ShapeFacts& facts, const GenOptions& options, Rng& rng, bool minimal)
    : facts_(facts), options_(options), rng_(rng), minimal_(minimal) {}

std::optional<Value> ShapeGenerator::generate(const std::vector<const Shape*>& conj, std::size_t budget) {
  for (std::size_t i = 0; i < kAttempts; ++i) {
    if (++steps_ > kMaxSteps) return std::nullopt;
    bool risky = false;
    std::optional<Value> value = attempt(conj, budget, risky);
    if (!value) continue;
    bool ok = true;
    if (risky) {
      // Clean, not just accepted: a warning means an arm was shadowed (an open enum before a
      // string in an anyOf) and the value would read as unknown data.
      for (const Shape* s : conj) ok = ok && facts_.check(*s, *value) == CheckStatus::kClean;
    }
    // min_depth is a lower bound (a union arm can deepen a member another conjunct declares), so
    // a value that overshoots the budget is redrawn while redraws are left.
    if (ok && i + 1 < kAttempts && nesting(*value) > budget && min_depth_of(conj) <= budget) continue;
    if (ok) return value;
  }
  return std::nullopt;
}

std::optional<Value> ShapeGenerator::attempt(const std::vector<const Shape*>& conj, std::size_t budget,
                                             bool& risky) {
  Flat flat;
  risky = conj.size() > 1;
  for (const Shape* s : conj) {
    if (!flatten(flat, s, risky)) return std::nullopt;
  }
  // Unions last, one at a time: each chosen arm may fix the tag of the next.
  while (!flat.unions.empty()) {
    const Shape* u = flat.unions.front();
    flat.unions.erase(flat.unions.begin());
    const Shape* arm = choose_arm(*u, flat, budget);
    if (!arm) return std::nullopt;
    if (!u->discriminator) risky = true;  // the arm must match exactly once
    if (!flatten(flat, arm, risky)) return std::nullopt;
  }
  return build(flat, budget, risky);
}

bool ShapeGenerator::flatten(Flat& flat, const Shape* shape, bool& risky) {
  if (!shape || ++flat.expansions > kMaxExpansions) return false;
  switch (shape->kind) {
    case ShapeKind::kRef:
      return flatten(flat, facts_.target(*shape), risky);
    case ShapeKind::kIntersection:
      risky = true;
      for (const auto& v : shape->variants) {
        if (!flatten(flat, v.get(), risky)) return false;
      }
      return true;
    case ShapeKind::kUnion:
      flat.unions.push_back(shape);
      return true;
    case ShapeKind::kNever:
      return false;
    default:
      flat.leaves.push_back(shape);
      return true;
  }
}

namespace {

/// The string literal `shape` pins (refs followed), or nullptr.
const std::string* literal_tag(const ShapeFacts& facts, const Shape* shape) {
  for (int hops = 0; shape && hops < 16; ++hops) {
    if (shape->kind == ShapeKind::kLiteral)
      return shape->literal.is_string() ? &shape->literal.string_value() : nullptr;
    if (shape->kind != ShapeKind::kRef) return nullptr;
    shape = facts.target(*shape);
  }
  return nullptr;
}

}  // namespace

const Shape* ShapeGenerator::choose_arm(const Shape& u, const Flat& flat, std::size_t budget) {
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < u.variants.size(); ++i) {
    if (u.variants[i] && facts_.satisfiable(*u.variants[i])) candidates.push_back(i);
  }
  if (u.discriminator) {
    const std::string& name = *u.discriminator;
    const auto& tags = facts_.tags(u);
    // An arm without a literal tag (an extension fallback) can only be reached through an unknown
    // tag, which warns: valid instances never take it.
    std::erase_if(candidates, [&](std::size_t i) { return i >= tags.size() || !tags[i]; });
    const std::string* fixed = nullptr;
    for (const Shape* leaf : flat.leaves) {
      if (leaf->kind != ShapeKind::kObject) continue;
      for (const auto& p : leaf->properties) {
        if (p.wire_name == name && !fixed) fixed = literal_tag(facts_, p.shape.get());
      }
    }
    if (fixed) {
      std::erase_if(candidates, [&](std::size_t i) { return *tags[i] != *fixed; });
      candidates.resize(std::min<std::size_t>(candidates.size(), 1));  // the decoder takes the first
    } else {
      // Other pending unions over the same tag must be able to take the same tag.
      std::vector<std::size_t> agreed = candidates;
      for (const Shape* other : flat.unions) {
        if (!other->discriminator || *other->discriminator != name) continue;
        std::set<std::string> possible;
        const auto& other_tags = facts_.tags(*other);
        for (std::size_t j = 0; j < other->variants.size() && j < other_tags.size(); ++j) {
          if (other_tags[j] && facts_.satisfiable(*other->variants[j])) possible.insert(*other_tags[j]);
        }
        std::erase_if(agreed, [&](std::size_t i) { return !possible.count(*tags[i]); });
      }
      if (!agreed.empty()) candidates = std::move(agreed);
    }
  }
  if (candidates.empty()) return nullptr;
  // Depth: arms that fit the budget; at the limit (or in minimal mode) the least deep ones.
  std::size_t least = ShapeFacts::kUnsatisfiable;
  for (std::size_t i : candidates) least = std::min(least, facts_.min_depth(*u.variants[i]));
  std::vector<std::size_t> fitting;
  for (std::size_t i : candidates) {
    const std::size_t d = facts_.min_depth(*u.variants[i]);
    if (minimal_ ? d == least : d <= budget) fitting.push_back(i);
  }
  if (fitting.empty()) {
    for (std::size_t i : candidates) {
      if (facts_.min_depth(*u.variants[i]) == least) fitting.push_back(i);
    }
  }
  return u.variants[rng_.pick(fitting)].get();
}

std::size_t ShapeGenerator::min_depth_of(const std::vector<const Shape*>& conj) const {
  std::size_t d = 0;
  for (const Shape* s : conj) d = std::max(d, facts_.min_depth(*s));
  return d;
}

std::optional<Value> ShapeGenerator::build(const Flat& flat, std::size_t budget, bool& risky) {
  unsigned kinds = 0x3f;
  std::vector<const Shape*> objects, arrays, integers, enums, literals;
  std::size_t constraining = 0;
  for (const Shape* leaf : flat.leaves) {
    kinds &= kinds_of(*leaf);
    if (leaf->kind != ShapeKind::kAny) ++constraining;
    switch (leaf->kind) {
      case ShapeKind::kObject:
        objects.push_back(leaf);
        break;
      case ShapeKind::kArray:
        arrays.push_back(leaf);
        break;
      case ShapeKind::kInteger:
        integers.push_back(leaf);
        break;
      case ShapeKind::kEnum:
        enums.push_back(leaf);
        break;
      case ShapeKind::kLiteral:
        literals.push_back(leaf);
        break;
      default:
        break;
    }
  }
  if (kinds == 0) return std::nullopt;
  if (constraining > 1) risky = true;
  if (!literals.empty()) return literals.front()->literal;
  if (!enums.empty()) {
    std::vector<const Value*> values;
    for (const Value& v : enums.front()->enum_values) {
      if (!(kinds & (1u << static_cast<unsigned>(v.kind())))) continue;
      const bool in_all = std::all_of(enums.begin() + 1, enums.end(), [&](const Shape* e) {
        return std::any_of(e->enum_values.begin(), e->enum_values.end(),
                           [&](const Value& w) { return json::semantically_equal(v, w); });
      });
      if (in_all) values.push_back(&v);
    }
    if (values.empty()) return std::nullopt;
    return *values[rng_.below(values.size())];
  }
  // The kind: the only one allowed, or (all leaves `any`) anything.
  std::vector<json::Kind> allowed;
  for (unsigned k = 0; k < 6; ++k) {
    if (kinds & (1u << k)) allowed.push_back(static_cast<json::Kind>(k));
  }
  if (allowed.size() > 1) {
    return random_any(rng_, minimal_ ? 0 : std::min<std::size_t>(budget, 2));
  }
  switch (allowed.front()) {
    case json::Kind::kNull:
      return Value::null();
    case json::Kind::kBool:
      return Value::boolean(rng_.chance(0.5));
    case json::Kind::kNumber:
      return Value::number(integers.empty() ? random_number(rng_) : build_integer(integers));
    case json::Kind::kString:
      return Value::string(random_string(rng_));
    case json::Kind::kArray:
      return build_array(arrays, budget);
    case json::Kind::kObject:
      return build_object(objects, budget);
  }
  return std::nullopt;
}

std::string ShapeGenerator::build_integer(const std::vector<const Shape*>& integers) {
  std::int64_t lo = -kSafe, hi = kSafe;
  for (const Shape* s : integers) {
    if (s->minimum) lo = std::max(lo, bound(*s->minimum, true));
    if (s->maximum) hi = std::min(hi, bound(*s->maximum, false));
  }
  if (lo > hi) return std::to_string(lo);  // empty range: the check rejects it and we redraw
  return random_integer(rng_, lo, hi);
}

std::optional<Value> ShapeGenerator::build_array(const std::vector<const Shape*>& arrays,
                                                 std::size_t budget) {
  Value out = Value::array();
  std::vector<const Shape*> items;
  for (const Shape* a : arrays) {
    if (a->items) items.push_back(a->items.get());
  }
  if (minimal_ || budget == 0 || min_depth_of(items) > budget - 1) return out;
  for (std::uint64_t n = rng_.below(options_.max_array_items + 1); n > 0; --n) {
    // An item that fails is left out: fewer items are just as valid.
    if (auto item = generate(items, budget - 1)) out.push(std::move(*item));
  }
  return out;
}

std::optional<Value> ShapeGenerator::build_object(const std::vector<const Shape*>& objects,
                                                  std::size_t budget) {
  struct Slot {
    std::vector<const Shape*> shapes;
    bool required = false;
    bool present = false;
  };
  std::map<std::string, Slot> slots;
  std::vector<const Shape*> typed;  // typed additionalProperties of the conjuncts
  for (const Shape* o : objects) {
    for (const auto& p : o->properties) {
      Slot& slot = slots[p.wire_name];
      slot.shapes.push_back(p.shape.get());
      slot.required = slot.required || p.required;
    }
    if (o->additional_shape && o->additional_shape->kind != ShapeKind::kAny)
      typed.push_back(o->additional_shape.get());
  }
  // A member one conjunct declares is an additional member of another.
  for (const Shape* o : objects) {
    if (!o->additional_shape || o->additional_shape->kind == ShapeKind::kAny) continue;
    for (auto& [name, slot] : slots) {
      const std::string& key = name;  // clang 14 cannot capture a structured binding
      const bool declared = std::any_of(o->properties.begin(), o->properties.end(),
                                        [&](const schema::Property& p) { return p.wire_name == key; });
      if (!declared) slot.shapes.push_back(o->additional_shape.get());
    }
  }
  const std::size_t inner = budget == 0 ? 0 : budget - 1;
  for (auto& [name, slot] : slots) {
    const std::size_t need = min_depth_of(slot.shapes);
    slot.present = slot.required || (!minimal_ && need != ShapeFacts::kUnsatisfiable && need <= inner &&
                                     rng_.chance(options_.optional_probability));
  }
  // Forbidden sets are never complete: drop an optional member of any set that would be.
  for (const Shape* o : objects) {
    for (const auto& set : o->forbidden_property_sets) {
      std::vector<std::string> optional_present;
      bool complete = true;
      for (const auto& name : set) {
        auto it = slots.find(name);
        if (it == slots.end() || !it->second.present) {
          complete = false;
          break;
        }
        if (!it->second.required) optional_present.push_back(name);
      }
      if (!complete) continue;
      if (optional_present.empty()) return std::nullopt;
      slots[rng_.pick(optional_present)].present = false;
    }
  }
  std::vector<json::Member> members;
  for (auto& [name, slot] : slots) {
    if (!slot.present) continue;
    std::optional<Value> value = generate(slot.shapes, inner);
    if (!value) {
      if (slot.required) return std::nullopt;
      continue;
    }
    members.push_back(json::Member{name, std::move(*value)});
  }
  if (!minimal_ && budget > 0 &&
      rng_.chance(typed.empty() ? kUnknownMemberProbability : kTypedExtraProbability)) {
    std::string name = unknown_member_name(rng_.next());
    if (!slots.count(name)) {
      std::optional<Value> value =
          typed.empty() ? std::optional<Value>(random_any(rng_, std::min<std::size_t>(inner, 2)))
                        : generate(typed, inner);
      if (value) members.push_back(json::Member{std::move(name), std::move(*value)});
    }
  }
  if (!minimal_ && rng_.chance(kShuffleProbability)) rng_.shuffle(members);
  return Value::object(std::move(members));
}

}  // namespace crosscheck::gen
