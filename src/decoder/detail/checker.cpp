// checker.cpp: the two passes of the structural check (see checker.hpp for the why).
#include "decoder/detail/checker.hpp"

#include <algorithm>

#include "json/equal.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"

namespace crosscheck::decoder::detail {

using json::Value;
using schema::Shape;
using schema::ShapeKind;

namespace {

Status worse(Status a, Status b) { return a > b ? a : b; }

/// Most integers on the wire are short plain tokens; only the rest need exact decimal arithmetic.
bool safe_integer(const std::string& text) {
  std::size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
  if (digits <= 15 && text.find_first_of(".eE") == std::string::npos) return true;
  return json::is_safe_integer(text);
}

std::string shorten(std::string text) {
  constexpr std::size_t kMax = 80;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

std::string describe(const Value& value) {
  switch (value.kind()) {
    case json::Kind::kNumber:
      return "number " + shorten(value.number_text());
    case json::Kind::kString:
      return "string " + shorten(json::quote(value.string_value()));
    case json::Kind::kBool:
      return value.as_bool() ? "true" : "false";
    default:
      return json::kind_name(value.kind());
  }
}

}  // namespace

std::size_t Checker::Memo::index_of(const Key& key) const {
  // Fibonacci hashing of both addresses; the top bits index the table.
  auto a = reinterpret_cast<std::uintptr_t>(key.node), b = reinterpret_cast<std::uintptr_t>(key.value);
  std::uint64_t h = (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL);
  h ^= h >> 29;
  return static_cast<std::size_t>(h * 0x9E3779B97F4A7C15ULL >> 32) & (slots_.size() - 1);
}

/// Memo arrays kept for the next check on this thread. `memo_pool_alive` is trivially destructible,
/// so a Memo destroyed after the pool (a static checker at exit) sees it cleared and keeps nothing.
namespace {
thread_local bool memo_pool_alive = false;
}  // namespace

struct Checker::Memo::Pool {
  std::vector<std::vector<Slot>> arrays;
  std::vector<std::uint32_t> generations;
  ~Pool() { memo_pool_alive = false; }
};

Checker::Memo::Pool& Checker::Memo::pool() {
  thread_local Pool pool;
  memo_pool_alive = true;
  return pool;
}

namespace {
/// Larger arrays (from a payload with very many composite pairs) are not kept.
constexpr std::size_t kPooledSlotsMax = std::size_t{1} << 16;
constexpr std::size_t kPooledArraysMax = 4;
}  // namespace

Checker::Memo::Memo() {
  Pool& pool = Memo::pool();
  if (pool.arrays.empty()) return;
  slots_ = std::move(pool.arrays.back());
  generation_ = pool.generations.back() + 1;
  pool.arrays.pop_back();
  pool.generations.pop_back();
  if (generation_ == 0) {  // wrapped: every stamp could match again
    for (Slot& slot : slots_) slot.generation = 0;
    generation_ = 1;
  }
}

Checker::Memo::~Memo() {
  if (!memo_pool_alive || slots_.empty() || slots_.size() > kPooledSlotsMax) return;
  Pool& pool = Memo::pool();
  if (pool.arrays.size() >= kPooledArraysMax) return;
  pool.arrays.push_back(std::move(slots_));
  pool.generations.push_back(generation_);
}

Status* Checker::Memo::find(const Key& key) {
  if (slots_.empty()) return nullptr;
  for (std::size_t i = index_of(key);; i = (i + 1) & (slots_.size() - 1)) {
    Slot& slot = slots_[i];
    if (slot.generation != generation_) return nullptr;
    if (slot.key == key) return &slot.status;
  }
}

Status* Checker::Memo::find_or_insert(const Key& key, bool& fresh) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  for (std::size_t i = index_of(key);; i = (i + 1) & (slots_.size() - 1)) {
    Slot& slot = slots_[i];
    if (slot.generation != generation_) {
      slot.key = key;
      slot.generation = generation_;
      slot.status = Status::kInProgress;
      ++size_;
      fresh = true;
      return &slot.status;
    }
    if (slot.key == key) {
      fresh = false;
      return &slot.status;
    }
  }
}

void Checker::Memo::grow() {
  ++growths_;
  std::vector<Slot> old = std::move(slots_);
  std::uint32_t old_generation = generation_;
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  generation_ = 1;
  for (const Slot& slot : old) {
    if (slot.generation != old_generation) continue;
    std::size_t i = index_of(slot.key);
    while (slots_[i].generation == generation_) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = slot;
    slots_[i].generation = generation_;
  }
}

Checker::Checker(const SchemaIndex& index, CoverageSink* coverage, std::size_t max_depth,
                 std::size_t max_diagnostics)
    : index_(index),
      coverage_(coverage),
      max_depth_(max_depth),
      max_diagnostics_(max_diagnostics),
      stop_early_(coverage == nullptr && index.cycle_free()) {}

Status Checker::run(const Shape& shape, const Value& value, std::vector<Diagnostic>& out) {
  Status result = status(shape, value, 0, true);
  if (result != Status::kClean) {
    out_ = &out;
    path_.clear();
    emit(shape, value, 0);
    out_ = nullptr;
  }
  return result;
}

// --- pass 1 -----------------------------------------------------------------------------------

Status Checker::status(const Shape& node, const Value& value, std::size_t depth, bool memoize) {
  if (!memoize && !is_composite(node.kind)) return evaluate(node, value, depth);
  // A pair met again while it is still being checked is a reference cycle that consumes no input:
  // the SDKs would recurse until their stack gives out; here it is an error.
  Key key{&node, &value};
  bool fresh = false;
  Status* slot = memo_.find_or_insert(key, fresh);
  if (!fresh) return *slot == Status::kInProgress ? Status::kError : *slot;
  std::size_t growths = memo_.growths();
  Status result = evaluate(node, value, depth);
  if (memo_.growths() != growths) slot = memo_.find(key);  // the evaluation moved the table
  *slot = result;
  return result;
}

bool Checker::too_deep(const Value& value, std::size_t depth) const {
  return (value.is_array() || value.is_object()) && depth >= max_depth_;
}

Status Checker::evaluate(const Shape& node, const Value& value, std::size_t depth) {
  switch (node.kind) {
    case ShapeKind::kLiteral: {
      bool equal = json::semantically_equal(value, node.literal);
      visit(node, equal);
      return equal ? Status::kClean : Status::kError;
    }
    case ShapeKind::kEnum: {
      Status result = leaf(node, value, nullptr);
      visit(node, result == Status::kClean);
      return result;
    }
    case ShapeKind::kArray: {
      if (!value.is_array() || too_deep(value, depth)) return Status::kError;
      Status result = Status::kClean;
      for (const Value& item : value.items()) {
        result = worse(result, status(*node.items, item, depth + 1, false));
        if (settled(result)) break;
      }
      return result;
    }
    case ShapeKind::kObject:
      return evaluate_object(node, value, depth);
    case ShapeKind::kIntersection: {
      Status result = Status::kClean;
      for (const auto& variant : node.variants) {
        result = worse(result, status(*variant, value, depth, false));
        if (settled(result)) break;
      }
      return result;
    }
    case ShapeKind::kRef: {
      const Shape* target = index_.target(node);
      return target ? status(*target, value, depth, false) : Status::kError;
    }
    case ShapeKind::kUnion:
      return evaluate_union(node, value, depth);
    default:
      return leaf(node, value, nullptr);
  }
}

Status Checker::evaluate_object(const Shape& node, const Value& value, std::size_t depth) {
  if (!value.is_object() || too_deep(value, depth)) return Status::kError;
  bool own_ok = true;  // forbidden sets and required members: this node's own outcome
  for (const auto& set : node.forbidden_property_sets) {
    bool all_present = true;
    for (const auto& name : set) all_present = all_present && value.contains(name);
    if (all_present) own_ok = false;
  }
  if (!own_ok && stop_early_) return Status::kError;
  Status result = Status::kClean;
  bool has_required = false;
  std::size_t frame = push_property_values(node, value);
  if (stop_early_) {
    // The members' checks cannot save a node whose required member is absent: look first (a union
    // tries object variants that mostly fail here).
    for (std::size_t p = 0; p < node.properties.size(); ++p) {
      if (node.properties[p].required && !members_[frame + p]) {
        members_top_ = frame;
        return Status::kError;
      }
    }
  }
  for (std::size_t p = 0; p < node.properties.size(); ++p) {
    const auto& property = node.properties[p];
    has_required = has_required || property.required;
    if (const Value* member = members_[frame + p]) {
      result = worse(result, status(*property.shape, *member, depth + 1, false));
      if (settled(result)) break;
    } else if (property.required) {
      own_ok = false;
    }
  }
  members_top_ = frame;
  if (node.additional_shape && node.additional_shape->kind != ShapeKind::kAny && !settled(result)) {
    for (const auto& [key, member] : undeclared_members(node, value)) {
      result = worse(result, status(*node.additional_shape, *member, depth + 1, false));
      if (settled(result)) break;
    }
  }
  if (has_required || !node.forbidden_property_sets.empty()) visit(node, own_ok);
  return own_ok ? result : Status::kError;
}

Status Checker::evaluate_union(const Shape& node, const Value& value, std::size_t depth) {
  if (node.discriminator) {
    int selected = select_tagged(node, value);
    if (selected < 0) {
      visit(node, false);
      return selected == -1 ? Status::kWarning : Status::kError;
    }
    const Shape& branch = *node.variants[static_cast<std::size_t>(selected)];
    Status result = status(branch, value, depth, true);
    visit(branch, result != Status::kError);
    visit(node, result != Status::kError);
    return result;
  }
  std::size_t matches = 0;
  Status first = Status::kError;
  for (const auto& variant : node.variants) {
    Status s = status(*variant, value, depth, true);
    visit(*variant, s != Status::kError);
    if (s != Status::kError && matches++ == 0) first = s;
    if (matches > 0 && node.mode == schema::UnionMode::kAnyOf && stop_early_) break;  // first decides
  }
  Status result = first;
  if (matches == 0 || (matches > 1 && node.mode == schema::UnionMode::kOneOf)) result = Status::kError;
  visit(node, result != Status::kError);
  return result;
}

Status Checker::leaf(const Shape& node, const Value& value, Problem* problem) const {
  // Pass 1 asks only for the status (problem == nullptr) and meets many failing leaves in the union
  // variants it tries: the message is built only when pass 2 asks for it.
  auto fail = [&](const char* code, auto&& message) {
    if (problem) *problem = Problem{code, Severity::kError, message()};
    return Status::kError;
  };
  auto expected = [&](const char* what) {
    return fail("invalid_type", [&] { return std::string("expected ") + what + ", got " + describe(value); });
  };
  switch (node.kind) {
    case ShapeKind::kAny:
      return Status::kClean;
    case ShapeKind::kNever:
      return fail("invalid_type", [&] { return "no value is allowed here, got " + describe(value); });
    case ShapeKind::kNull:
      return value.is_null() ? Status::kClean : expected("null");
    case ShapeKind::kBoolean:
      return value.is_bool() ? Status::kClean : expected("boolean");
    case ShapeKind::kString:
      return value.is_string() ? Status::kClean : expected("string");
    case ShapeKind::kNumber:
      return value.is_number() ? Status::kClean : expected("number");
    case ShapeKind::kInteger: {
      if (!value.is_number() || !safe_integer(value.number_text())) {
        return expected("an integer within +-9007199254740991");
      }
      const std::string& n = value.number_text();
      if ((node.minimum && json::compare_numbers(n, *node.minimum) < 0) ||
          (node.maximum && json::compare_numbers(n, *node.maximum) > 0)) {
        return fail("invalid_type", [&] {
          return "integer " + shorten(n) + " is outside [" + node.minimum.value_or("") + ", " +
                 node.maximum.value_or("") + "]";
        });
      }
      return Status::kClean;
    }
    case ShapeKind::kLiteral:
      return json::semantically_equal(value, node.literal) ? Status::kClean : fail("literal_mismatch", [&] {
        return "expected " + shorten(json::write(node.literal)) + ", got " + describe(value);
      });
    case ShapeKind::kEnum: {
      for (const auto& known : node.enum_values) {
        if (json::semantically_equal(value, known)) return Status::kClean;
      }
      if (node.open_strings && value.is_string()) {
        if (problem) {
          *problem = Problem{"unknown_enum", Severity::kWarning,
                             "unknown enum value " + shorten(json::quote(value.string_value())) + " kept"};
        }
        return Status::kWarning;
      }
      return expected("one of the enum's values");
    }
    default:
      return Status::kClean;  // containers are not leaves
  }
}

// --- pass 2 -----------------------------------------------------------------------------------

void Checker::add(const char* code, Severity severity, std::string message) {
  if (out_->size() >= max_diagnostics_) return;
  out_->push_back(Diagnostic{path_, code, severity, std::move(message)});
}

void Checker::emit(const Shape& node, const Value& value, std::size_t depth) {
  if (out_->size() >= max_diagnostics_) return;
  Key key{&node, &value};
  if (const Status* known = memo_.find(key); known && *known == Status::kClean) return;
  if (is_composite(node.kind)) {
    // The pairs on the stack with this value are the top ones (a child's are pushed above its
    // parent's and popped before them): a cycle is found among those.
    for (auto it = emitting_.rbegin(); it != emitting_.rend() && it->value == &value; ++it) {
      if (it->node == &node) {
        add("invalid_type", Severity::kError,
            "schema reference cycle at this value (the schema never consumes input)");
        return;
      }
    }
    emitting_.push_back(key);
  }
  switch (node.kind) {
    case ShapeKind::kArray: {
      if (!value.is_array()) {
        add("invalid_type", Severity::kError, "expected array, got " + describe(value));
      } else if (too_deep(value, depth)) {
        add("invalid_json", Severity::kError,
            "nesting deeper than " + std::to_string(max_depth_) + " levels");
      } else {
        std::size_t size = path_.size();
        for (std::size_t i = 0; i < value.items().size(); ++i) {
          path_ += '/';
          path_ += std::to_string(i);
          emit(*node.items, value.items()[i], depth + 1);
          path_.resize(size);
        }
      }
      break;
    }
    case ShapeKind::kObject:
      emit_object(node, value, depth);
      break;
    case ShapeKind::kIntersection:
      for (const auto& variant : node.variants) emit(*variant, value, depth);
      break;
    case ShapeKind::kRef:
      if (const Shape* target = index_.target(node)) {
        emit(*target, value, depth);
      } else {
        add("invalid_type", Severity::kError, "the schema refers to an unknown type " + node.ref);
      }
      break;
    case ShapeKind::kUnion:
      emit_union(node, value, depth);
      break;
    default: {
      Problem problem;
      if (leaf(node, value, &problem) != Status::kClean)
        add(problem.code, problem.severity, std::move(problem.message));
    }
  }
  if (is_composite(node.kind)) emitting_.pop_back();
}

void Checker::emit_object(const Shape& node, const Value& value, std::size_t depth) {
  if (!value.is_object()) {
    add("invalid_type", Severity::kError, "expected object, got " + describe(value));
    return;
  }
  if (too_deep(value, depth)) {
    add("invalid_json", Severity::kError, "nesting deeper than " + std::to_string(max_depth_) + " levels");
    return;
  }
  for (const auto& set : node.forbidden_property_sets) {
    bool all_present = true;
    for (const auto& name : set) all_present = all_present && value.contains(name);
    if (!all_present) continue;
    std::string names;
    for (const auto& name : set) names += (names.empty() ? "" : ", ") + name;
    add("invalid_type", Severity::kError, "forbidden combination of members present: " + names);
  }
  std::size_t size = path_.size();
  std::size_t frame = push_property_values(node, value);
  for (std::size_t p = 0; p < node.properties.size(); ++p) {
    const auto& property = node.properties[p];
    const Value* member = members_[frame + p];
    if (!member && !property.required) continue;
    json::append_pointer_token(path_, property.wire_name);
    if (member) {
      emit(*property.shape, *member, depth + 1);
    } else {
      add("missing_required", Severity::kError, "required member is absent");
    }
    path_.resize(size);
  }
  members_top_ = frame;
  if (node.additional_shape && node.additional_shape->kind != ShapeKind::kAny) {
    for (const auto& [key, member] : undeclared_members(node, value)) {
      json::append_pointer_token(path_, key);
      emit(*node.additional_shape, *member, depth + 1);
      path_.resize(size);
    }
  }
}

void Checker::emit_union(const Shape& node, const Value& value, std::size_t depth) {
  if (node.discriminator) {
    const std::string& name = *node.discriminator;
    int selected = select_tagged(node, value);
    if (selected == -2) {
      std::size_t size = path_.size();
      json::append_pointer_token(path_, name);
      add("invalid_type", Severity::kError, "expected a string discriminator \"" + name + "\"");
      path_.resize(size);
    } else if (selected == -1) {
      add("unknown_variant", Severity::kWarning,
          "unknown " + name + " variant " + shorten(json::quote(value.find(name)->string_value())) + " kept");
    } else {
      const Shape& branch = *node.variants[static_cast<std::size_t>(selected)];
      emit(branch, value, depth);
      if (status(branch, value, depth, true) == Status::kError) {
        add("invalid_known_variant", Severity::kError, "the known " + name + " variant's body is invalid");
      }
    }
    return;
  }
  const Shape* first = nullptr;
  std::size_t matches = 0;
  for (const auto& variant : node.variants) {
    if (status(*variant, value, depth, true) == Status::kError) continue;
    if (matches++ == 0) first = variant.get();
    if (node.mode == schema::UnionMode::kAnyOf) break;  // only a oneOf counts its matches
  }
  if (matches == 0) {
    add("no_union_match", Severity::kError,
        "the value matches none of the union's " + std::to_string(node.variants.size()) + " variants");
  } else if (matches > 1 && node.mode == schema::UnionMode::kOneOf) {
    add("ambiguous_union", Severity::kError,
        "the value matches " + std::to_string(matches) + " variants of a oneOf");
  } else {
    emit(*first, value, depth);  // the selected variant's warnings
  }
}

// --- helpers ----------------------------------------------------------------------------------

std::vector<std::pair<std::string_view, const Value*>> Checker::undeclared_members(const Shape& node,
                                                                                   const Value& value) const {
  // As a map: each key once, at its first position, with its last value; linear even for objects
  // with a million members.
  const PropertyTable* table = index_.properties(node);
  auto declared = [&](std::string_view key) {
    if (table) return table->find(node.properties, key) >= 0;
    return std::any_of(node.properties.begin(), node.properties.end(),
                       [&](const schema::Property& p) { return p.wire_name == key; });
  };
  std::vector<std::pair<std::string_view, const Value*>> out;
  std::unordered_map<std::string_view, std::size_t> index;
  for (const auto& member : value.members()) {
    if (declared(member.key)) continue;
    auto [it, fresh] = index.try_emplace(member.key, out.size());
    if (fresh) {
      out.emplace_back(member.key, &member.value);
    } else {
      out[it->second].second = &member.value;
    }
  }
  return out;
}

std::size_t Checker::push_property_values(const Shape& node, const Value& value) {
  std::size_t frame = members_top_, count = node.properties.size();
  if (frame + count > members_capacity_) {
    std::size_t capacity = std::max<std::size_t>(64, (frame + count) * 2);
    auto grown = std::make_unique<const Value*[]>(capacity);
    std::copy_n(members_.get(), frame, grown.get());
    members_ = std::move(grown);
    members_capacity_ = capacity;
  }
  const Value** slots = members_.get() + frame;
  std::fill_n(slots, count, nullptr);
  members_top_ = frame + count;
  if (const PropertyTable* table = index_.properties(node)) {
    // One pass over the members, in order: the last member of a name wins, as in Value::find.
    for (const auto& member : value.members()) {
      int p = table->find(node.properties, member.key);
      if (p >= 0) slots[p] = &member.value;
    }
  } else {
    for (std::size_t p = 0; p < count; ++p) slots[p] = value.find(node.properties[p].wire_name);
  }
  return frame;
}

int Checker::select_tagged(const Shape& node, const Value& value) const {
  const std::string& name = *node.discriminator;
  const Value* tag = value.is_object() ? value.find(name) : nullptr;
  if (!tag || !tag->is_string()) return -2;
  const auto& tags = index_.tags(node);
  for (std::size_t i = 0; i < tags.size(); ++i) {
    if (tags[i] && *tags[i] == tag->string_value()) return static_cast<int>(i);
  }
  return -1;
}

void Checker::visit(const Shape& node, bool matched) const {
  if (coverage_) coverage_->visit(node, matched);
}

}  // namespace crosscheck::decoder::detail
