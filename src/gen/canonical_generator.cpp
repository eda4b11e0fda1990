// canonical_generator.cpp: drawing canonically valid values from the compiled schema nodes.
//
// A value for a list of schema nodes (all of which must accept it) is drawn in three steps:
// flatten the nodes through $ref, allOf, one drawn branch of each anyOf/oneOf and one drawn side of
// each if/then/else (the condition itself joins the list when the "then" side is drawn); draw a
// value from the plain keywords of the flattened list (const, enum, type, the string, number,
// array and object keywords, members from every node's properties and additionalProperties); then
// check the value with the validator's own evaluation against the original nodes, and draw again
// when it fails (a oneOf matched twice, a `not`, an `else` whose condition held, a repeat under
// uniqueItems). Each level checks its own value, so a failure is retried where it happened.
#include "gen/canonical_generator.hpp"

#include <algorithm>
#include <unordered_map>

#include "gen/canonical_context.hpp"
#include "gen/format_text.hpp"
#include "gen/pattern_text.hpp"
#include "json/equal.hpp"
#include "json/schema_formats.hpp"
#include "json/schema_node.hpp"
#include "json/schema_regex.hpp"

namespace crosscheck::gen {

using json::SchemaNode;
using json::Value;

bool node_accepts(const SchemaNode& node, const Value& v) {
  json::Evaluation ev;
  ev.first_only = true;
  std::string path;
  return json::evaluate(node, v, path, ev);
}

std::size_t code_point_count(const std::string& wtf8) {
  std::size_t n = 0;
  for (unsigned char c : wtf8) n += (c & 0xC0) != 0x80;
  return n;
}

namespace {

constexpr std::size_t kLocalTries = 6;
constexpr int kRefGuard = 64;
constexpr std::uint64_t kCanonicalStream = 0x43414e00;  // "CAN": away from the structural streams

struct Flat {
  std::vector<const SchemaNode*> nodes;
  std::vector<const SchemaNode*> conditionals;  ///< if/then/else nodes whose side is not drawn yet
  std::vector<const SchemaNode*> defaulted;     ///< conditionals put on the else side for lack of facts
  std::vector<const std::vector<const SchemaNode*>*> unions;  ///< anyOf/oneOf branches not drawn yet
  std::vector<std::string> absent;  ///< members an else side keeps out (its condition requires them)
  bool impossible = false;
};

/// The member value the flattened list fixes for `key` (a const or one-value enum), or nullptr.
const Value* fixed_member(const Flat& f, const std::string& key);

/// Whether a value fitting `branch` could also fit the members and types `f` fixes already.
bool compatible(const SchemaNode* branch, const Flat& f, int guard = 0) {
  if (!branch || guard > kRefGuard) return true;
  if (branch->boolean) return *branch->boolean;
  if (!branch->types.empty()) {
    for (const SchemaNode* n : f.nodes) {
      if (n->types.empty()) continue;
      bool overlap = false;
      for (const std::string& t : branch->types)
        for (const std::string& u : n->types)
          overlap =
              overlap || t == u || (t == "integer" && u == "number") || (t == "number" && u == "integer");
      if (!overlap) return false;
    }
  }
  for (const auto& [k, s] : branch->properties) {
    const Value* have = fixed_member(f, k);
    if (have && !node_accepts(*s, *have)) return false;
  }
  if (!compatible(branch->ref, f, guard + 1)) return false;
  for (const SchemaNode* a : branch->all_of)
    if (!compatible(a, f, guard + 1)) return false;
  return true;
}

/// The one value `node` allows (const, a one-value enum, through $ref and allOf), or nullptr.
const Value* single_value(const SchemaNode* node, int guard = 0) {
  if (!node || node->boolean || guard > kRefGuard) return nullptr;
  if (node->const_value) return node->const_value;
  if (node->enum_values && node->enum_values->items().size() == 1) return &node->enum_values->items()[0];
  if (const Value* v = single_value(node->ref, guard + 1)) return v;
  for (const SchemaNode* a : node->all_of)
    if (const Value* v = single_value(a, guard + 1)) return v;
  return nullptr;
}

const Value* fixed_member(const Flat& f, const std::string& key) {
  for (const SchemaNode* n : f.nodes)
    if (auto it = n->property_index.find(key); it != n->property_index.end())
      if (const Value* v = single_value(it->second)) return v;
  return nullptr;
}

/// `n` and what it always brings along ($ref, allOf), into `out`.
void plain_closure(const SchemaNode* n, std::vector<const SchemaNode*>& out, int guard = 0) {
  if (!n || n->boolean || guard > kRefGuard) return;
  out.push_back(n);
  plain_closure(n->ref, out, guard + 1);
  for (const SchemaNode* a : n->all_of) plain_closure(a, out, guard + 1);
}

/// False when `cond` cannot hold on a value of `nodes`: some member it tests, at any depth, is
/// fixed by `nodes` to a value it refuses.
bool may_hold(const SchemaNode& cond, const std::vector<const SchemaNode*>& nodes, int guard = 0) {
  if (guard > 8) return true;
  for (const auto& [k, s] : cond.properties) {
    std::vector<const SchemaNode*> child;
    for (const SchemaNode* n : nodes)
      if (auto it = n->property_index.find(k); it != n->property_index.end())
        plain_closure(it->second, child);
    if (child.empty()) continue;
    const Value* have = nullptr;
    for (const SchemaNode* c : child) {
      if (c->const_value) have = c->const_value;
      if (!have && c->enum_values && c->enum_values->items().size() == 1) have = &c->enum_values->items()[0];
    }
    if (have && !node_accepts(*s, *have)) return false;
    if (!have && !s->boolean && !may_hold(*s, child, guard + 1)) return false;
    // `contains: {const: x}` cannot hold where every item must be one of values without x.
    if (const Value* wanted = s->boolean ? nullptr : single_value(s->contains)) {
      for (const SchemaNode* c : child)
        if (c->items && !node_accepts(*c->items, *wanted)) return false;
    }
  }
  for (const SchemaNode* a : cond.all_of)
    if (!a->boolean && !may_hold(*a, nodes, guard + 1)) return false;
  return true;
}

/// Which side of `conditional` a value of the flattened list can take: the condition tested
/// against the members the list already fixes (a const or one-value enum, and required).
/// 1: only then, 0: only else, -1: either.
int forced_side(const SchemaNode& conditional, const Flat& f) {
  const SchemaNode& cond = *conditional.if_schema;
  if (cond.boolean) return *cond.boolean ? 1 : 0;
  std::vector<std::string> required;
  for (const SchemaNode* n : f.nodes) required.insert(required.end(), n->required.begin(), n->required.end());
  auto is_required = [&](const std::string& k) {
    return std::find(required.begin(), required.end(), k) != required.end();
  };
  auto fixed = [&](const std::string& k) { return fixed_member(f, k); };
  bool certain = cond.types.empty() && !cond.ref && cond.all_of.empty() && cond.any_of.empty() &&
                 cond.one_of.empty() && !cond.not_schema && !cond.if_schema;
  // The then side is out where the condition cannot hold, or where what it then asks for cannot
  // (a `contains` of a value the items exclude).
  if (!may_hold(cond, f.nodes)) return 0;
  if (conditional.then_schema && !conditional.then_schema->boolean &&
      !may_hold(*conditional.then_schema, f.nodes))
    return 0;
  for (const auto& [k, s] : cond.properties) {
    const Value* have = fixed(k);
    certain = certain && have && is_required(k) && node_accepts(*s, *have);
  }
  for (const std::string& r : cond.required) certain = certain && is_required(r);
  return certain ? 1 : -1;
}

class Builder {
 public:
  Builder(const CanonicalOptions& options, Rng& rng, const IfChoices& choices)
      : options_(options), rng_(rng), choices_(choices) {}

  std::optional<Value> value(const std::vector<const SchemaNode*>& conj, std::size_t depth) {
    // Conditions seen to hold on a rejected draw: the next draws take their "then" side.
    IfChoices learned;
    for (std::size_t attempt = 0; attempt < kLocalTries; ++attempt) {
      Flat flat;
      for (const SchemaNode* n : conj) expand(n, flat, depth, 0);
      // Sides of the conditionals, one at a time: each side taken can fix members that decide the
      // next condition (the AHP event schemas chain dozens of ifs on one `boundary` or `type`).
      // Where the members drawn so far do not decide it, the condition usually tests something
      // deeper (params.event.type, decided by a oneOf below): the else side, mostly, and a rejected
      // draw on which the condition held teaches the next draw to take the then side.
      while ((!flat.unions.empty() || !flat.conditionals.empty()) && !flat.impossible) {
        if (!flat.unions.empty()) {
          // A branch that fits what the other nodes fix (a `contains` naming the item kind, an
          // allOf sibling's const), drawn among those; any branch when none seems to.
          const std::vector<const SchemaNode*>& branches = *flat.unions.front();
          flat.unions.erase(flat.unions.begin());
          std::vector<const SchemaNode*> fitting;
          for (const SchemaNode* b : branches)
            if (compatible(b, flat)) fitting.push_back(b);
          const std::vector<const SchemaNode*>& from = fitting.empty() ? branches : fitting;
          expand(from[rng_.below(from.size())], flat, depth, 1);
          continue;
        }
        const SchemaNode* c = flat.conditionals.front();
        flat.conditionals.erase(flat.conditionals.begin());
        int side = forced_side(*c, flat);
        if (side < 0) {
          if (auto it = learned.find(c); it != learned.end()) {
            side = it->second ? 1 : 0;
          } else {
            side = rng_.chance(0.25) ? 1 : 0;
            if (side == 0) flat.defaulted.push_back(c);
          }
        }
        take_side(c, side == 1, flat, depth);
      }
      if (flat.impossible) continue;
      std::optional<Value> v = draw(flat, depth);
      if (!v) continue;
      bool ok = true;
      for (const SchemaNode* n : conj) ok = ok && node_accepts(*n, *v);
      if (ok) return v;
      for (const SchemaNode* c : flat.defaulted)
        if (node_accepts(*c->if_schema, *v)) learned[c] = true;
    }
    return std::nullopt;
  }

 private:
  void expand(const SchemaNode* n, Flat& f, std::size_t depth, int guard) {
    if (!n || f.impossible) return;
    if (guard > kRefGuard) {
      f.impossible = true;
      return;
    }
    if (n->boolean) {
      if (!*n->boolean) f.impossible = true;
      return;
    }
    f.nodes.push_back(n);
    if (n->ref) expand(n->ref, f, depth, guard + 1);
    for (const SchemaNode* a : n->all_of) expand(a, f, depth, guard + 1);
    if (!n->any_of.empty()) f.unions.push_back(&n->any_of);
    if (!n->one_of.empty()) f.unions.push_back(&n->one_of);
    if (n->if_schema && (n->then_schema || n->else_schema)) {
      if (auto forced = choices_.find(n); forced != choices_.end()) {
        take_side(n, forced->second, f, depth);
      } else {
        f.conditionals.push_back(n);
      }
    }
  }

  void take_side(const SchemaNode* n, bool then_side, Flat& f, std::size_t depth) {
    if (then_side) {
      expand(n->if_schema, f, depth, 1);
      expand(n->then_schema, f, depth, 1);
    } else {
      expand(n->else_schema, f, depth, 1);  // that the condition fails is checked after the draw
      // A condition that is only `required: [m, ...]` fails when m is absent.
      const SchemaNode& cond = *n->if_schema;
      if (!cond.boolean && !cond.required.empty() && cond.properties.empty() && cond.types.empty())
        f.absent.push_back(cond.required.back());
    }
  }

  std::optional<Value> draw(const Flat& f, std::size_t depth) {
    for (const SchemaNode* n : f.nodes)
      if (n->const_value) return *n->const_value;
    const SchemaNode* first_enum = nullptr;
    for (const SchemaNode* n : f.nodes)
      if (n->enum_values && !first_enum) first_enum = n;
    if (first_enum) {
      std::vector<const Value*> candidates;
      for (const Value& c : first_enum->enum_values->items()) {
        bool everywhere = true;
        for (const SchemaNode* n : f.nodes) {
          if (!n->enum_values || n == first_enum) continue;
          bool found = false;
          for (const Value& o : n->enum_values->items()) found = found || json::semantically_equal(c, o);
          everywhere = everywhere && found;
        }
        if (everywhere) candidates.push_back(&c);
      }
      if (candidates.empty()) return std::nullopt;
      return *candidates[rng_.below(candidates.size())];
    }
    std::string type = pick_type(f);
    if (type == "null") return Value::null();
    if (type == "boolean") return Value::boolean(rng_.chance(0.5));
    if (type == "string") return draw_string(f);
    if (type == "integer" || type == "number") return draw_number(f, type == "integer");
    if (type == "array") return draw_array(f, depth);
    if (type == "object") return draw_object(f, depth);
    return std::nullopt;
  }

  std::string pick_type(const Flat& f) {
    static const std::vector<std::string> kAll = {"null",   "boolean", "object", "array",
                                                  "number", "string",  "integer"};
    std::vector<std::string> allowed = kAll;
    bool typed = false;
    for (const SchemaNode* n : f.nodes) {
      if (n->types.empty()) continue;
      typed = true;
      std::vector<std::string> kept;
      for (const std::string& t : allowed) {
        const bool listed =
            std::find(n->types.begin(), n->types.end(), t) != n->types.end() ||
            (t == "integer" && std::find(n->types.begin(), n->types.end(), "number") != n->types.end());
        if (listed) kept.push_back(t);
      }
      allowed = std::move(kept);
    }
    if (allowed.empty()) return "";
    if (!typed) {
      // Untyped: the keywords say what is meant; with none at all, a small scalar or object.
      for (const SchemaNode* n : f.nodes) {
        if (n->has_properties || !n->required.empty() || n->additional || n->min_properties ||
            n->property_names)
          return "object";
        if (n->items || n->contains || n->min_items) return "array";
        if (n->pattern || n->format != json::Format::kNone || n->min_length || n->max_length) return "string";
        if (n->minimum) return "integer";
      }
      static const std::vector<std::string> kSimple = {"string", "integer", "boolean", "object", "null"};
      return kSimple[rng_.below(kSimple.size())];
    }
    if (allowed.size() > 1) {
      // null and a plain "number" where integer is also allowed: less often (they are one value each).
      std::vector<std::string> preferred;
      for (const std::string& t : allowed)
        if (t != "null") preferred.push_back(t);
      if (!preferred.empty() && rng_.chance(0.85)) allowed = std::move(preferred);
    }
    return allowed[rng_.below(allowed.size())];
  }

  std::optional<Value> draw_string(const Flat& f) {
    std::vector<const json::EcmaPattern*> patterns;
    json::Format format = json::Format::kNone;
    std::size_t min_len = 0, max_len = SIZE_MAX;
    for (const SchemaNode* n : f.nodes) {
      if (n->pattern) patterns.push_back(&*n->pattern);
      if (n->format != json::Format::kNone) format = n->format;
      if (n->min_length) min_len = std::max(min_len, *n->min_length);
      if (n->max_length) max_len = std::min(max_len, *n->max_length);
    }
    if (min_len > max_len) return std::nullopt;
    std::optional<PatternText> drawer;
    if (!patterns.empty()) drawer = PatternText::parse(patterns[rng_.below(patterns.size())]->source());
    for (std::size_t attempt = 0; attempt < 16; ++attempt) {
      std::string s;
      if (drawer) {
        PatternText::Drawn d = drawer->draw(rng_);
        s = d.text;
        if (!d.ended) {
          if (format == json::Format::kUri) {
            s += uri_suffix(s, rng_);
          } else if (format == json::Format::kNone && rng_.chance(0.3)) {
            s += letters(rng_, 1 + static_cast<std::size_t>(rng_.below(4)));
          }
        }
      } else if (format == json::Format::kDateTime) {
        s = random_date_time(rng_);
      } else if (format == json::Format::kUri) {
        s = random_uri(rng_);
      } else {
        const std::size_t top = max_len == SIZE_MAX ? min_len + 12 : std::min(max_len, min_len + 12);
        const std::size_t n = min_len + static_cast<std::size_t>(rng_.below(top - min_len + 1));
        s = random_text(rng_, n, patterns.empty() && max_len == SIZE_MAX);
        if (!patterns.empty()) s = letters(rng_, n);  // a pattern outside the subset: retried below
      }
      const std::size_t len = code_point_count(s);
      if (len < min_len || len > max_len) continue;
      const std::wstring points = json::code_points_of(s);
      bool ok = true;
      for (const json::EcmaPattern* p : patterns) ok = ok && p->search(points);
      if (format == json::Format::kDateTime) ok = ok && json::date_time_valid(s);
      if (format == json::Format::kUri) ok = ok && json::uri_valid(s);
      if (ok) return Value::string(std::move(s));
    }
    return std::nullopt;
  }

  std::optional<Value> draw_number(const Flat& f, bool integer) {
    const Value* minimum = nullptr;
    for (const SchemaNode* n : f.nodes)
      if (n->minimum &&
          (!minimum || json::compare_numbers(n->minimum->number_text(), minimum->number_text()) > 0))
        minimum = n->minimum;
    std::int64_t base = 0;
    if (minimum) {
      const std::string& text = minimum->number_text();
      if (!json::is_integral(text) || !json::is_safe_integer(text)) {
        if (!integer || json::is_integral(text)) return Value::number(json::canonical_number(text));
        return std::nullopt;
      }
      base = std::stoll(json::canonical_number(text));
      if (rng_.chance(0.2)) return Value::number(std::to_string(base));
    } else if (rng_.chance(0.3)) {
      base = -static_cast<std::int64_t>(rng_.below(1000));
    }
    const std::int64_t n = base + static_cast<std::int64_t>(rng_.below(rng_.chance(0.8) ? 100 : 100000));
    if (!integer && rng_.chance(0.3)) return Value::number(std::to_string(n) + ".5");
    return Value::number(std::to_string(n));
  }

  std::optional<Value> draw_array(const Flat& f, std::size_t depth) {
    std::vector<const SchemaNode*> items, contains;
    std::size_t lo = 0, hi = SIZE_MAX;
    bool unique = false;
    for (const SchemaNode* n : f.nodes) {
      if (n->items) items.push_back(n->items);
      if (n->contains) contains.push_back(n->contains);
      if (n->min_items) lo = std::max(lo, *n->min_items);
      if (n->max_items) hi = std::min(hi, *n->max_items);
      unique = unique || n->unique_items;
    }
    // Each `contains` gets an item of its own (conditionals can add several: "contains flow",
    // "contains modify"), drawn before the others so that uniqueItems leaves room for it.
    lo = std::max(lo, contains.size());
    if (lo > hi) return std::nullopt;
    const std::size_t top = depth >= options_.max_depth ? lo : std::min(hi, lo + options_.max_array_items);
    const std::size_t count = lo + static_cast<std::size_t>(rng_.below(top - lo + 1));
    std::vector<Value> drawn;
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<const SchemaNode*> conj = items;
      if (i < contains.size()) conj.push_back(contains[i]);
      std::optional<Value> element;
      for (std::size_t attempt = 0; attempt < 4 && !element; ++attempt) {
        element = value(conj, depth + 1);
        if (!element) return std::nullopt;
        if (unique) {
          for (const Value& e : drawn)
            if (json::semantically_equal(e, *element)) element.reset();
        }
      }
      if (!element) return std::nullopt;
      drawn.push_back(std::move(*element));
    }
    rng_.shuffle(drawn);
    Value out = Value::array();
    for (Value& e : drawn) out.push(std::move(e));
    return out;
  }

  std::optional<Value> draw_object(const Flat& f, std::size_t depth) {
    std::vector<std::string> names;
    std::unordered_map<std::string, std::vector<const SchemaNode*>> listed;
    std::vector<std::string> required;
    std::vector<const SchemaNode*> name_rules;
    std::size_t min_properties = 0;
    bool open = true, typed_additional = false;
    for (const SchemaNode* n : f.nodes) {
      for (const auto& [key, s] : n->properties) {
        auto [it, fresh] = listed.try_emplace(key);
        if (fresh) names.push_back(key);
        it->second.push_back(n->property_index.at(key));
      }
      for (const std::string& r : n->required)
        if (std::find(required.begin(), required.end(), r) == required.end()) required.push_back(r);
      if (n->property_names) name_rules.push_back(n->property_names);
      if (n->min_properties) min_properties = std::max(min_properties, *n->min_properties);
      if (n->additional && n->additional->boolean && !*n->additional->boolean) open = false;
      if (n->additional && !n->additional->boolean) typed_additional = true;
    }
    // The schemas a member named `key` must fit: where a node lists it, that entry; elsewhere the
    // node's additionalProperties. nullopt when some node closes it out.
    auto member_schemas = [&](const std::string& key) -> std::optional<std::vector<const SchemaNode*>> {
      std::vector<const SchemaNode*> out;
      for (const SchemaNode* n : f.nodes) {
        if (auto it = n->property_index.find(key); it != n->property_index.end()) {
          out.push_back(it->second);
        } else if (n->additional) {
          if (n->additional->boolean && !*n->additional->boolean) return std::nullopt;
          out.push_back(n->additional);
        }
      }
      const Value name = Value::string(key);
      for (const SchemaNode* rule : name_rules)
        if (!node_accepts(*rule, name)) return std::nullopt;
      return out;
    };
    // `not: {required: [m]}` and `not: {anyOf: [{required: [m]}, ...]}` forbid members: leave them
    // out rather than drawing them and failing the check.
    std::vector<std::string> excluded;
    auto exclude = [&](const SchemaNode* s) {
      if (s && !s->required.empty() && s->properties.empty()) excluded.push_back(s->required.back());
    };
    for (const SchemaNode* n : f.nodes) {
      if (!n->not_schema) continue;
      exclude(n->not_schema);
      for (const SchemaNode* a : n->not_schema->any_of) exclude(a);
    }
    excluded.insert(excluded.end(), f.absent.begin(), f.absent.end());
    auto is_excluded = [&](const std::string& key) {
      return std::find(excluded.begin(), excluded.end(), key) != excluded.end();
    };
    const bool deep = depth >= options_.max_depth;
    std::vector<std::string> chosen;
    for (const std::string& key : names) {
      const bool is_required = std::find(required.begin(), required.end(), key) != required.end();
      if (is_required || (!deep && !is_excluded(key) && rng_.chance(options_.optional_probability)))
        chosen.push_back(key);
    }
    for (const std::string& key : required)
      if (!listed.count(key)) chosen.push_back(key);  // required but only typed by additionalProperties
    // Members beyond `properties`: map entries under a typed additionalProperties, a rare unknown
    // member where the object is open, and whatever minProperties still asks for.
    std::size_t extras = 0;
    if (!deep && open)
      extras = typed_additional ? static_cast<std::size_t>(rng_.below(3)) : (rng_.chance(0.1) ? 1 : 0);
    for (const std::string& key : names) {
      if (chosen.size() + extras >= min_properties) break;
      if (std::find(chosen.begin(), chosen.end(), key) == chosen.end() && !is_excluded(key))
        chosen.push_back(key);
    }
    if (chosen.size() + extras < min_properties) {
      if (!open) return std::nullopt;
      extras = min_properties - chosen.size();
    }
    Value out = Value::object();
    for (const std::string& key : chosen) {
      auto schemas = member_schemas(key);
      if (!schemas) return std::nullopt;
      std::optional<Value> member = value(*schemas, depth + 1);
      if (!member) return std::nullopt;
      out.add(key, std::move(*member));
    }
    for (std::size_t k = 0, tries = 0; k < extras && tries < 4 * extras + 4; ++tries) {
      std::string key = "x" + letters(rng_, 3);
      if (!name_rules.empty()) {
        std::optional<Value> drawn = value(name_rules, depth + 1);
        if (!drawn || !drawn->is_string()) continue;
        key = drawn->string_value();
      }
      if (listed.count(key) || out.find(key)) continue;
      auto schemas = member_schemas(key);
      if (!schemas) continue;
      std::optional<Value> member =
          schemas->empty() ? Value::string(letters(rng_, 4)) : value(*schemas, depth + 1);
      if (!member) continue;
      out.add(key, std::move(*member));
      ++k;
    }
    return out;
  }

  const CanonicalOptions& options_;
  Rng& rng_;
  const IfChoices& choices_;
};

}  // namespace

CanonicalGenerator::CanonicalGenerator(const canonical::CanonicalValidator& validator,
                                       CanonicalOptions options)
    : validator_(validator), options_(options) {}

std::optional<json::Value> CanonicalGenerator::valid(std::string_view document, std::uint64_t seed,
                                                     CanonicalReport* report) const {
  const SchemaNode* root = validator_.root(document);
  if (!root) return std::nullopt;
  CanonicalReport local;
  CanonicalReport& r = report ? *report : local;
  r = CanonicalReport{};
  std::optional<Value> last;
  const IfChoices none;
  for (std::size_t attempt = 0; attempt < options_.attempts; ++attempt) {
    ++r.attempts;
    Rng rng(mix_seed(seed, kCanonicalStream + attempt));
    Builder builder(options_, rng, none);
    std::optional<Value> v = builder.value({root}, 0);
    if (!v) continue;
    std::optional<json::Validation> verdict = validator_.validate_value(document, *v);
    if (verdict && verdict->valid && verdict->implementation_defined.empty()) {
      r.valid = true;
      return v;
    }
    last = std::move(v);
  }
  return last ? std::move(last) : Value::null();
}

std::optional<json::Value> CanonicalGenerator::valid_for(const json::SchemaNode& node, std::uint64_t seed,
                                                         const IfChoices& choices) const {
  for (std::size_t attempt = 0; attempt < options_.attempts; ++attempt) {
    Rng rng(mix_seed(seed, kCanonicalStream + 0x100 + attempt));
    Builder builder(options_, rng, choices);
    std::optional<Value> v = builder.value({&node}, 0);
    // A forced else side does not make its condition fail by itself: checked here.
    bool as_chosen = v.has_value();
    for (const auto& [conditional, side] : choices)
      as_chosen = as_chosen && node_accepts(*conditional->if_schema, *v) == side;
    if (as_chosen) return v;
  }
  return std::nullopt;
}

}  // namespace crosscheck::gen
