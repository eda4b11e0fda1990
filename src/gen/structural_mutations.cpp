// structural_mutations.cpp: the schema-guided mutation families (see mutation_context.hpp).
#include <set>

#include "gen/any_value.hpp"
#include "gen/mutation_context.hpp"
#include "gen/shape_generator.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {

using json::Value;
using schema::Shape;
using schema::ShapeKind;

namespace {

constexpr std::size_t kMaxTries = 48;  // verified candidates per family call

bool has_typed_additional(const WalkNode& node) {
  for (const Shape* o : node.objects) {
    if (o->additional_shape && o->additional_shape->kind != ShapeKind::kAny) return true;
  }
  return false;
}

bool is_required(const WalkNode& node, const std::string& name) {
  for (const Shape* o : node.objects) {
    for (const auto& p : o->properties) {
      if (p.wire_name == name && p.required) return true;
    }
  }
  return false;
}

bool is_discriminator(const WalkNode& node, const std::string& name) {
  for (const auto& t : node.tagged) {
    if (*t.node->discriminator == name) return true;
  }
  return false;
}

/// Declared properties of the node's object conjuncts, each name once, in name order.
std::vector<const schema::Property*> properties(const WalkNode& node) {
  std::vector<const schema::Property*> out;
  std::set<std::string> seen;
  for (const Shape* o : node.objects) {
    for (const auto& p : o->properties) {
      if (seen.insert(p.wire_name).second) out.push_back(&p);
    }
  }
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->wire_name < b->wire_name; });
  return out;
}

/// Index of the last member named `key` (the one the decoder reads), or -1.
long member_index(const Value& object, std::string_view key) {
  for (std::size_t i = object.members().size(); i > 0; --i) {
    if (object.members()[i - 1].key == key) return static_cast<long>(i - 1);
  }
  return -1;
}

void remove_member(Value& object, std::string_view key) {
  std::erase_if(object.members(), [&](const json::Member& m) { return m.key == key; });
}

std::string fresh_name(const Value& object, Rng& rng) {
  for (;;) {
    std::string name = unknown_member_name(rng.next());
    if (!object.contains(name)) return name;
  }
}

}  // namespace

std::optional<Mutant> mutate_unknown_member(MutationContext& ctx) {
  // Schema objects first (closed ones included), opaque objects when there is none. Objects with a
  // typed additionalProperties are left out: there an undeclared member is checked, not unknown.
  auto targets = ctx.targets([](const WalkNode& n) {
    return n.value->is_object() && !n.objects.empty() && !has_typed_additional(n);
  });
  if (targets.empty())
    targets = ctx.targets([](const WalkNode& n) { return n.value->is_object() && n.opaque; });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  Value copy = ctx.value;
  Value& object = locate(copy, node.steps);
  const std::string name = fresh_name(object, ctx.rng);
  Value content = random_any(ctx.rng, 2);
  auto& members = object.members();
  const auto at = static_cast<long>(ctx.rng.below(members.size() + 1));
  members.insert(members.begin() + at, json::Member{name, content});
  return ctx.make(
      json::write(copy),
      "added unknown member '" + name + "' = " + json::write(content) + " at " + where(node.pointer),
      child_pointer(node.pointer, name));
}

std::optional<Mutant> mutate_unknown_enum(MutationContext& ctx) {
  auto targets = ctx.targets_direct_first([](const WalkNode& n) {
    if (n.opaque || !n.value->is_string() || n.enums.empty() || !n.literals.empty()) return false;
    return std::all_of(n.enums.begin(), n.enums.end(), [](const Shape* e) { return e->open_strings; });
  });
  Best best;
  const std::string unknown = "x-cc-unknown-" + std::to_string(ctx.rng.below(1000));
  for (std::size_t i = 0; i < targets.size() && i < kMaxTries; ++i) {
    const WalkNode& node = ctx.nodes()[targets[i]];
    Value copy = ctx.value;
    locate(copy, node.steps) = Value::string(unknown);
    auto result = ctx.check(copy);
    const bool strong = result.accepted && has_diagnostic(result, node.pointer, "unknown_enum");
    if (best.offer(strong, [&] {
          return ctx.make(json::write(copy),
                          "unknown enum value \"" + unknown + "\" at " + where(node.pointer), node.pointer);
        }))
      break;
  }
  return best.take();
}

std::optional<Mutant> mutate_unknown_tag(MutationContext& ctx) {
  auto targets = ctx.targets_direct_first([](const WalkNode& n) {
    return !n.opaque &&
           std::any_of(n.tagged.begin(), n.tagged.end(), [](const auto& t) { return t.selected >= 0; });
  });
  Best best;
  const std::string unknown = "x-cc.unknown." + std::to_string(ctx.rng.below(1000));
  for (std::size_t i = 0; i < targets.size() && i < kMaxTries; ++i) {
    const WalkNode& node = ctx.nodes()[targets[i]];
    const std::string& name = *node.tagged.front().node->discriminator;
    Value copy = ctx.value;
    Value& object = locate(copy, node.steps);
    for (auto& m : object.members()) {
      if (m.key == name) m.value = Value::string(unknown);
    }
    auto result = ctx.check(copy);
    const bool strong = result.accepted && has_diagnostic(result, node.pointer, "unknown_variant");
    if (best.offer(strong, [&] {
          return ctx.make(json::write(copy),
                          "unknown " + name + " tag \"" + unknown + "\" at " + where(node.pointer),
                          node.pointer);
        }))
      break;
  }
  return best.take();
}

std::optional<Mutant> mutate_broken_known_variant(MutationContext& ctx) {
  auto targets = ctx.targets_direct_first([](const WalkNode& n) {
    return !n.opaque &&
           std::any_of(n.tagged.begin(), n.tagged.end(), [](const auto& t) { return t.selected >= 0; });
  });
  Best best;
  std::size_t tries = 0;
  for (std::size_t t = 0; t < targets.size() && tries < kMaxTries; ++t) {
    const WalkNode& node = ctx.nodes()[targets[t]];
    // Edits that break the body but keep the tag: drop a required member, or confuse a member's type.
    struct Edit {
      std::string name;
      bool drop;
    };
    std::vector<Edit> edits;
    for (const auto* p : properties(node)) {
      if (is_discriminator(node, p->wire_name) || !node.value->contains(p->wire_name)) continue;
      if (is_required(node, p->wire_name)) edits.push_back({p->wire_name, true});
      edits.push_back({p->wire_name, false});
    }
    ctx.rotate(edits);
    for (const Edit& edit : edits) {
      if (++tries > kMaxTries) break;
      Value copy = ctx.value;
      Value& object = locate(copy, node.steps);
      std::string what;
      if (edit.drop) {
        remove_member(object, edit.name);
        what = "dropped required '" + edit.name + "'";
      } else {
        Value& member = object.members()[static_cast<std::size_t>(member_index(object, edit.name))].value;
        member = confuse(member);
        what = "'" + edit.name + "' as " + json::write(member);
      }
      auto result = ctx.check(copy);
      // A body that still decodes (the member was opaque, or another arm took it) is not broken:
      // never offer it, whatever order the walk visits positions in.
      if (result.accepted) continue;
      const bool strong = has_diagnostic(result, node.pointer, "invalid_known_variant");
      if (best.offer(strong, [&] {
            return ctx.make(json::write(copy), "known tag, broken body at " + node.pointer + ": " + what,
                            node.pointer);
          }))
        return best.take();
    }
  }
  return best.take();
}

std::optional<Mutant> mutate_ambiguous_union(MutationContext& ctx) {
  // A value matching two arms of a oneOf: the current value merged with an instance of another
  // arm (objects ignore members they do not declare), or the other arm's instance itself.
  auto targets = ctx.targets([](const WalkNode& n) {
    return !n.opaque && std::any_of(n.untagged.begin(), n.untagged.end(),
                                    [](const auto& u) { return u.node->mode == schema::UnionMode::kOneOf; });
  });
  GenOptions options;
  options.max_depth = 4;
  Best best;
  std::size_t tries = 0;
  for (std::size_t t = 0; t < targets.size() && tries < kMaxTries; ++t) {
    const WalkNode& node = ctx.nodes()[targets[t]];
    for (const auto& at : node.untagged) {
      if (at.node->mode != schema::UnionMode::kOneOf) continue;
      const Shape& u = *at.node;
      std::vector<std::size_t> arms;
      for (std::size_t j = 0; j < u.variants.size(); ++j) {
        if (ctx.facts.satisfiable(*u.variants[j])) arms.push_back(j);
      }
      ctx.rotate(arms);
      for (std::size_t j : arms) {
        if (++tries > kMaxTries) break;
        ShapeGenerator generator(ctx.facts, options, ctx.rng, false);
        std::optional<Value> other = generator.generate({u.variants[j].get()}, options.max_depth);
        if (!other) continue;
        std::vector<Value> candidates;
        if (node.value->is_object() && other->is_object()) {
          Value merged = *node.value;
          for (const auto& m : other->members()) {
            if (!merged.contains(m.key)) merged.add(m.key, m.value);
          }
          candidates.push_back(std::move(merged));
        }
        candidates.push_back(std::move(*other));
        for (Value& candidate : candidates) {
          std::size_t matches = 0;
          for (const auto& v : u.variants) matches += ctx.facts.check(*v, candidate) != CheckStatus::kError;
          if (matches < 2) continue;
          Value copy = ctx.value;
          locate(copy, node.steps) = std::move(candidate);
          auto result = ctx.check(copy);
          const bool strong = has_diagnostic(result, node.pointer, "ambiguous_union");
          if (best.offer(strong, [&] {
                return ctx.make(json::write(copy),
                                "value matching " + std::to_string(matches) + " oneOf arms (with arm " +
                                    std::to_string(j) + ") at " + node.pointer,
                                node.pointer);
              }))
            return best.take();
        }
      }
    }
  }
  return best.take();
}

namespace {

/// forbidden-property and forbidden-null: adds the missing members of a forbidden set, with values
/// or as null.
std::optional<Mutant> add_forbidden_members(MutationContext& ctx, bool as_null) {
  auto targets = ctx.targets_direct_first([](const WalkNode& n) {
    return !n.opaque && n.value->is_object() &&
           std::any_of(n.objects.begin(), n.objects.end(),
                       [](const Shape* o) { return !o->forbidden_property_sets.empty(); });
  });
  GenOptions options;
  options.max_depth = 3;
  Best best;
  std::size_t tries = 0;
  for (std::size_t t = 0; t < targets.size() && tries < kMaxTries; ++t) {
    const WalkNode& node = ctx.nodes()[targets[t]];
    std::vector<const std::vector<std::string>*> sets;
    for (const Shape* o : node.objects) {
      for (const auto& set : o->forbidden_property_sets) sets.push_back(&set);
    }
    ctx.rotate(sets);
    for (const auto* set : sets) {
      if (++tries > kMaxTries) break;
      Value copy = ctx.value;
      Value& object = locate(copy, node.steps);
      std::string added;
      for (const std::string& name : *set) {
        if (object.contains(name)) continue;
        Value member = Value::null();
        if (!as_null) {
          // A value of the member's declared shape when there is one: only the combination is wrong.
          std::vector<const Shape*> declared;
          for (const Shape* o : node.objects) {
            for (const auto& p : o->properties) {
              if (p.wire_name == name) declared.push_back(p.shape.get());
            }
          }
          ShapeGenerator generator(ctx.facts, options, ctx.rng, false);
          std::optional<Value> generated;
          if (!declared.empty()) generated = generator.generate(declared, options.max_depth);
          member = generated ? std::move(*generated) : Value::string(random_string(ctx.rng));
        }
        added += (added.empty() ? "" : ", ") + name + "=" + json::write(member);
        object.add(name, std::move(member));
      }
      auto result = ctx.check(copy);
      const bool strong = !result.accepted && has_diagnostic(result, node.pointer, "invalid_type");
      if (best.offer(strong, [&] {
            return ctx.make(json::write(copy), "forbidden members " + added + " at " + where(node.pointer),
                            node.pointer);
          }))
        return best.take();
    }
  }
  return best.take();
}

}  // namespace

std::optional<Mutant> mutate_forbidden_property(MutationContext& ctx) {
  return add_forbidden_members(ctx, false);
}

std::optional<Mutant> mutate_forbidden_null(MutationContext& ctx) { return add_forbidden_members(ctx, true); }

std::optional<Mutant> mutate_absent_null(MutationContext& ctx) {
  auto targets =
      ctx.targets([](const WalkNode& n) { return !n.opaque && n.value->is_object() && !n.objects.empty(); });
  for (std::size_t index : targets) {
    const WalkNode& node = ctx.nodes()[index];
    std::vector<const schema::Property*> optional;
    for (const auto* p : properties(node)) {
      if (!is_required(node, p->wire_name)) optional.push_back(p);
    }
    if (optional.empty()) continue;
    const std::string& name = ctx.rng.pick(optional)->wire_name;
    Value copy = ctx.value;
    Value& object = locate(copy, node.steps);
    std::string what;
    const Value* present = object.find(name);
    if (!present) {
      object.add(name, Value::null());
      what = "absent -> null";
    } else if (present->is_null()) {
      remove_member(object, name);
      what = "null -> absent";
    } else {
      object.members()[static_cast<std::size_t>(member_index(object, name))].value = Value::null();
      what = "value -> null";
    }
    const std::string path = child_pointer(node.pointer, name);
    return ctx.make(json::write(copy), "optional member " + path + ": " + what, path);
  }
  return std::nullopt;
}

std::optional<Mutant> mutate_drop_required(MutationContext& ctx) {
  auto targets = ctx.targets_direct_first(
      [](const WalkNode& n) { return !n.opaque && n.value->is_object() && !n.objects.empty(); });
  Best best;
  std::size_t tries = 0;
  for (std::size_t t = 0; t < targets.size() && tries < kMaxTries; ++t) {
    const WalkNode& node = ctx.nodes()[targets[t]];
    std::vector<std::string> names;
    for (const auto* p : properties(node)) {
      if (is_required(node, p->wire_name) && node.value->contains(p->wire_name))
        names.push_back(p->wire_name);
    }
    ctx.rotate(names);
    for (const std::string& name : names) {
      if (++tries > kMaxTries) break;
      Value copy = ctx.value;
      remove_member(locate(copy, node.steps), name);
      const std::string path = child_pointer(node.pointer, name);
      auto result = ctx.check(copy);
      const bool strong = has_diagnostic(result, path, "missing_required");
      if (best.offer(strong,
                     [&] { return ctx.make(json::write(copy), "dropped required member " + path, path); }))
        return best.take();
    }
  }
  return best.take();
}

std::optional<Mutant> mutate_type_confusion(MutationContext& ctx) {
  auto targets = ctx.targets([](const WalkNode& n) { return !unconstrained(n); });
  Best best;
  for (std::size_t i = 0; i < targets.size() && i < kMaxTries; ++i) {
    const WalkNode& node = ctx.nodes()[targets[i]];
    Value copy = ctx.value;
    Value& at = locate(copy, node.steps);
    const std::string before = json::write(at);
    at = confuse(at);
    auto result = ctx.check(copy);
    if (best.offer(!result.accepted, [&] {
          return ctx.make(
              json::write(copy),
              "type confusion at " + node.pointer + ": " + before.substr(0, 40) + " -> " + json::write(at),
              node.pointer);
        }))
      break;
  }
  return best.take();
}

std::optional<Mutant> mutate_empty_container(MutationContext& ctx) {
  auto targets = ctx.targets([](const WalkNode& n) {
    return !n.opaque && ((n.value->is_object() && !n.value->members().empty()) ||
                         (n.value->is_array() && !n.value->items().empty()));
  });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  Value copy = ctx.value;
  Value& at = locate(copy, node.steps);
  at = at.is_object() ? Value::object() : Value::array();
  return ctx.make(
      json::write(copy),
      "emptied " + std::string(at.is_object() ? "object" : "array") + " at " + where(node.pointer),
      node.pointer);
}

std::optional<Mutant> mutate_duplicate_key(MutationContext& ctx) {
  auto targets =
      ctx.targets([](const WalkNode& n) { return n.value->is_object() && !n.value->members().empty(); });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  Value copy = ctx.value;
  Value& object = locate(copy, node.steps);
  auto& members = object.members();
  const std::size_t i = ctx.rng.below(members.size());
  const std::string key = members[i].key;
  Value other = ctx.rng.chance(0.5) ? confuse(members[i].value) : random_any(ctx.rng, 1);
  // Before: last wins, the meaning is unchanged. After: the other value wins.
  const bool after = ctx.rng.chance(0.5);
  const std::string what = json::write(other);
  members.insert(members.begin() + static_cast<long>(after ? i + 1 : i), json::Member{key, std::move(other)});
  const std::string path = child_pointer(node.pointer, key);
  return ctx.make(
      json::write(copy),
      "duplicate member " + path + " with " + what + (after ? " after" : " before") + " the original", path);
}

}  // namespace crosscheck::gen
