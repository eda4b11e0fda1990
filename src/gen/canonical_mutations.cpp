// canonical_mutations.cpp: the layer-2 mutation families (mutation_families.def); canonical_walk.cpp
// walks the instance and picks one. Each family edits one position whose schema nodes carry the
// keyword it aims at.
#include <iterator>

#include "gen/canonical_context.hpp"
#include "json/equal.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {

using json::SchemaNode;
using json::Value;

namespace {

const char* const kAstral = "\xF0\x9F\x98\x80";     // U+1F600: one code point, two UTF-16 units
const char* const kLoneSurrogate = "\xED\xA0\x80";  // U+D800 as WTF-8

std::string repeat(const char* piece, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += piece;
  return out;
}

/// Something besides the lengths decides the string: a pattern, a format, a const or an enum.
bool has_string_rule(const CanonicalPosition& p) {
  return std::any_of(p.nodes.begin(), p.nodes.end(), [](const SchemaNode* n) {
    return n->pattern || n->format != json::Format::kNone || n->const_value || n->enum_values;
  });
}

std::optional<json::Format> format_of(const CanonicalPosition& p) {
  for (const SchemaNode* n : p.nodes)
    if (n->format != json::Format::kNone) return n->format;
  return std::nullopt;
}

/// Positions holding a string with `format`, those without a pattern first (there the verdict is
/// the format's alone).
std::vector<std::size_t> format_targets(CanonicalContext& ctx, json::Format format) {
  std::vector<std::size_t> out =
      ctx.targets([&](const CanonicalPosition& p) { return p.value->is_string() && format_of(p) == format; });
  std::stable_partition(out.begin(), out.end(), [&](std::size_t i) {
    return !CanonicalContext::any_node(ctx.positions[i], &SchemaNode::pattern);
  });
  return out;
}

std::optional<Mutant> replace_string(CanonicalContext& ctx, const CanonicalPosition& p, std::string text,
                                     const std::string& edge) {
  Value edited = ctx.value;
  value_at(edited, p.steps()) = Value::string(std::move(text));
  return ctx.make(edited, edge, p.path());
}

}  // namespace

std::optional<Mutant> mutate_length_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_string() && (CanonicalContext::any_node(p, &SchemaNode::min_length) ||
                                    CanonicalContext::any_node(p, &SchemaNode::max_length));
  });
  std::stable_partition(targets.begin(), targets.end(),
                        [&](std::size_t i) { return !has_string_rule(ctx.positions[i]); });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  std::size_t lo = 0, hi = SIZE_MAX;
  for (const SchemaNode* n : p.nodes) {
    if (n->min_length) lo = std::max(lo, *n->min_length);
    if (n->max_length) hi = std::min(hi, *n->max_length);
  }
  struct Edge {
    std::size_t length;
    const char* piece;
    const char* what;
  };
  std::vector<Edge> edges;
  edges.push_back({lo, kAstral, "astral characters"});
  if (lo > 0) {
    edges.push_back({lo - 1, kAstral, "astral characters"});
    edges.push_back({lo, kLoneSurrogate, "lone surrogates"});
  }
  if (hi != SIZE_MAX) {
    edges.push_back({hi, kAstral, "astral characters"});
    edges.push_back({hi + 1, "a", "ASCII characters"});
    edges.push_back({hi, kLoneSurrogate, "lone surrogates"});
  }
  const Edge& e = edges[ctx.rng.below(edges.size())];
  const std::string bound =
      e.length == lo ? "minLength" : (e.length == hi ? "maxLength" : "one past a bound");
  return replace_string(ctx, p, repeat(e.piece, e.length),
                        std::to_string(e.length) + " code points of " + e.what + " (" + bound +
                            ", minLength " + std::to_string(lo) +
                            (hi == SIZE_MAX ? "" : ", maxLength " + std::to_string(hi)) + ")");
}

std::optional<Mutant> mutate_pattern_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_string() && CanonicalContext::any_node(p, &SchemaNode::pattern);
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  std::string s = p.value->string_value();
  std::string edge;
  switch (ctx.rng.below(6)) {
    case 0:
      s = "x" + s;
      edge = "a character before the ^ anchor";
      break;
    case 1:
      s += "x";
      edge = "a character after the $ anchor";
      break;
    case 2:
      s += "\n";
      edge = "a final newline (Python's $ matches before it)";
      break;
    case 3: {
      for (char& c : s) {
        if (c >= 'a' && c <= 'z') {
          c = static_cast<char>(c - 'a' + 'A');
        } else if (c >= 'A' && c <= 'Z') {
          c = static_cast<char>(c - 'A' + 'a');
        }
      }
      edge = "the letters' case swapped";
      if (s == p.value->string_value()) {
        s += "X";
        edge = "a character after the $ anchor (no letters to swap)";
      }
      break;
    }
    case 4: {
      // A Latin letter or digit replaced by a non-ASCII look-alike (Cyrillic a, fullwidth digit).
      std::size_t at = s.find_first_of("abcdefghijklmnopqrstuvwxyz0123456789");
      if (at == std::string::npos) {
        s += "\xC3\xA9";
      } else if (s[at] >= '0' && s[at] <= '9') {
        s.replace(at, 1, std::string("\xEF\xBC") + static_cast<char>(0x90 + (s[at] - '0')));
      } else {
        s.replace(at, 1, "\xD0\xB0");
      }
      edge = "a non-ASCII look-alike";
      break;
    }
    default:
      s += kAstral;
      edge = "an astral character appended";
      break;
  }
  return replace_string(ctx, p, std::move(s), "pattern edge: " + edge);
}

/// The date-time edges, with RFC 3339's answer on each (what the reference says too).
const std::vector<std::pair<const char*, const char*>>& date_time_edges() {
  static const std::vector<std::pair<const char*, const char*>> kEdges = {
      {"2026-12-01t21:00:00z", "lower-case t and z"},
      {"2026-12-01T21:00:00z", "lower-case z"},
      {"1998-12-31T23:59:60Z", "leap second 60 at 23:59 UTC"},
      {"1998-12-31T15:59:60-08:00", "leap second 60 moved to UTC by the offset"},
      {"2026-12-01T21:59:60Z", "second 60 not at 23:59 UTC"},
      {"2026-12-01T21:00:00+00:00", "offset +00:00"},
      {"2026-12-01T21:00:00-00:00", "offset -00:00"},
      {"2026-12-01T21:00:00.123456789012345678901234567890Z", "a 30-digit fraction"},
      {"2026-12-01T21:00Z", "no seconds"},
      {"0000-01-01T00:00:00Z", "year 0000"},
      {"2026-12-01 21:00:00Z", "a space for T"},
      {"2024-02-29T12:00:00Z", "February 29th of a leap year"},
      {"2026-02-29T12:00:00Z", "February 29th of a common year"},
      {"2026-12-01T21:00:00+0100", "offset without a colon"},
      {"2026-12-01T21:00:00,5Z", "a comma for the fraction point"},
      {"2026-12-01T24:00:00Z", "hour 24"},
  };
  return kEdges;
}

std::optional<Mutant> mutate_date_time_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = format_targets(ctx, json::Format::kDateTime);
  if (targets.empty()) return std::nullopt;
  const auto& [text, what] = date_time_edges()[ctx.rng.below(date_time_edges().size())];
  return replace_string(ctx, ctx.positions[targets.front()], text, std::string("date-time edge: ") + what);
}

const std::vector<std::pair<const char*, const char*>>& uri_edges() {
  static const std::vector<std::pair<const char*, const char*>> kEdges = {
      {"/relative/path", "a relative reference (path)"},
      {"//host.example/a", "a network-path reference"},
      {"#fragment", "a fragment alone"},
      {"", "the empty string"},
      {"example.com/a", "no scheme"},
      {"https://exa mple.com/", "a space"},
      {"https://example.com/a b", "a space in the path"},
      {"https://ex\xC3\xA4mple.com/", "a non-ASCII host (an IRI)"},
      {"https://example.com/\xE2\x82\xAC", "a non-ASCII path"},
      {"https://example.com/%E2%82%AC", "a percent-encoded path"},
      {"https://example.com/%zz", "a bad percent-encoding"},
      {"urn:isbn:0451450523", "a URN"},
      {"HTTPS://EXAMPLE.COM/", "an upper-case scheme"},
      {"https://[::1]:8080/a", "an IPv6 literal"},
      {"https://[::g]/", "a bad IPv6 literal"},
      {"1https://example.com/", "a scheme starting with a digit"},
      {"https://example.com:port/", "a non-numeric port"},
  };
  return kEdges;
}

std::optional<Mutant> mutate_uri_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = format_targets(ctx, json::Format::kUri);
  if (targets.empty()) return std::nullopt;
  const auto& [text, what] = uri_edges()[ctx.rng.below(uri_edges().size())];
  return replace_string(ctx, ctx.positions[targets.front()], text, std::string("uri edge: ") + what);
}

std::optional<Mutant> mutate_minimum_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_number() && CanonicalContext::any_node(p, &SchemaNode::minimum);
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  const Value* minimum = nullptr;
  for (const SchemaNode* n : p.nodes)
    if (n->minimum &&
        (!minimum || json::compare_numbers(n->minimum->number_text(), minimum->number_text()) > 0))
      minimum = n->minimum;
  const std::string m = json::canonical_number(minimum->number_text());
  const bool plain = m.find_first_not_of("-0123456789") == std::string::npos;
  std::vector<std::pair<std::string, std::string>> edges = {
      {"18446744073709551616", "2^64"},
      {"1E400", "1E400 (beyond a double)"},
      {"-1E-400", "-1E-400 (below zero by a hair)"},
      {"9007199254740993", "2^53 + 1"},
  };
  if (plain) {
    edges.push_back({m, "exactly the minimum"});
    edges.push_back({m + ".0", "the minimum as a decimal"});
    edges.push_back({m + "E0", "the minimum with an exponent"});
    edges.push_back({m == "0" ? "0E-1" : m + "0E-1", "the minimum as 10x E-1"});
    edges.push_back({m + ".0000000000000000001", "a hair above the minimum"});
    if (m == "0") {
      edges.push_back({"-0", "-0 (equal to 0)"});
    } else if (json::is_safe_integer(m)) {
      edges.push_back({std::to_string(std::stoll(m) - 1), "one below the minimum"});
    }
    if (m != "0" && m[0] != '-') edges.push_back({"-" + m + ".0", "the minimum negated"});
  }
  const auto& [text, what] = edges[ctx.rng.below(edges.size())];
  Value edited = ctx.value;
  value_at(edited, p.steps()) = Value::number(text);
  return ctx.make(edited, "minimum " + minimum->number_text() + " edge: " + what + " " + text, p.path());
}

namespace {

/// `v` with every number respelled to the same value: a zero after the mantissa's fraction point
/// (1 -> 1.0, 2.5 -> 2.50, 1E3 -> 1.0E3).
Value respelled(const Value& v) {
  if (v.is_number()) {
    const std::string& t = v.number_text();
    const std::size_t e = t.find_first_of("eE");
    std::string mantissa = t.substr(0, e);
    mantissa += mantissa.find('.') == std::string::npos ? ".0" : "0";
    return Value::number(mantissa + (e == std::string::npos ? "" : t.substr(e)));
  }
  if (v.is_array()) {
    Value out = Value::array();
    for (const Value& x : v.items()) out.push(respelled(x));
    return out;
  }
  if (v.is_object()) {
    Value out = Value::object();
    for (const json::Member& m : v.members()) out.add(m.key, respelled(m.value));
    return out;
  }
  return v;
}

bool has_number(const Value& v) {
  if (v.is_number()) return true;
  if (v.is_array()) return std::any_of(v.items().begin(), v.items().end(), has_number);
  if (v.is_object())
    return std::any_of(v.members().begin(), v.members().end(),
                       [](const json::Member& m) { return has_number(m.value); });
  return false;
}

}  // namespace

std::optional<Mutant> mutate_equality_spelling(CanonicalContext& ctx) {
  // A number under const or enum, respelled: equal by value, so still valid.
  std::vector<std::size_t> numbers = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_number() && (CanonicalContext::any_node(p, &SchemaNode::const_value) ||
                                    CanonicalContext::any_node(p, &SchemaNode::enum_values));
  });
  std::vector<std::size_t> arrays = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_array() && !p.value->items().empty() &&
           std::any_of(p.nodes.begin(), p.nodes.end(), [](const SchemaNode* n) { return n->unique_items; });
  });
  if (numbers.empty() && arrays.empty()) return std::nullopt;
  const bool use_number = !numbers.empty() && (arrays.empty() || ctx.rng.chance(0.5));
  if (use_number) {
    const CanonicalPosition& p = ctx.positions[numbers.front()];
    const std::string& t = p.value->number_text();
    const std::vector<std::string> spellings = {t + "E0",
                                                t.find_first_of(".eE") == std::string::npos ? t + ".0" : t,
                                                t.find_first_of(".eE") == std::string::npos ? t + "0E-1" : t};
    Value edited = ctx.value;
    const std::string& chosen = spellings[ctx.rng.below(spellings.size())];
    value_at(edited, p.steps()) = Value::number(chosen);
    return ctx.make(edited, "const/enum number " + t + " respelled " + chosen, p.path());
  }
  const CanonicalPosition& p = ctx.positions[arrays.front()];
  const Value& element = p.value->items()[ctx.rng.below(p.value->items().size())];
  Value edited = ctx.value;
  const bool numeric = has_number(element);
  value_at(edited, p.steps()).push(numeric ? respelled(element) : element);
  return ctx.make(edited,
                  numeric ? "uniqueItems: an item repeated with its numbers respelled (1 -> 1.0)"
                          : "uniqueItems: an item repeated",
                  p.path());
}

std::optional<Mutant> mutate_closed_object_member(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_object() && std::any_of(p.nodes.begin(), p.nodes.end(), [](const SchemaNode* n) {
             return n->additional && n->additional->boolean && !*n->additional->boolean;
           });
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  std::string key = "unknownMember";
  std::string edge = "an unknown member in a closed object";
  if (ctx.rng.chance(0.4) && !p.value->members().empty()) {
    // A known member's name with its first letter's case swapped: a different name to every engine.
    key = p.value->members()[ctx.rng.below(p.value->members().size())].key;
    if (!key.empty() && key[0] >= 'a' && key[0] <= 'z') {
      key[0] = static_cast<char>(key[0] - 'a' + 'A');
    } else if (!key.empty() && key[0] >= 'A' && key[0] <= 'Z') {
      key[0] = static_cast<char>(key[0] - 'A' + 'a');
    } else {
      key += "_";
    }
    edge = "a known member's name in another case in a closed object";
  }
  Value edited = ctx.value;
  Value& object = value_at(edited, p.steps());
  if (object.find(key)) key += "X";
  object.add(key, Value::string("x"));
  return ctx.make(edited, edge + " ('" + key + "')", p.path());
}

std::optional<Mutant> mutate_if_branch(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return std::any_of(p.nodes.begin(), p.nodes.end(), [](const SchemaNode* n) {
      return n->if_schema && (n->then_schema || n->else_schema);
    });
  });
  for (std::size_t i : targets) {
    const CanonicalPosition& p = ctx.positions[i];
    std::vector<const SchemaNode*> conditionals;
    for (const SchemaNode* n : p.nodes)
      if (n->if_schema && (n->then_schema || n->else_schema)) conditionals.push_back(n);
    const SchemaNode* chosen = conditionals[ctx.rng.below(conditionals.size())];
    const bool was_then = node_accepts(*chosen->if_schema, *p.value);
    // The position's own schema is the node the walk started from there: regenerate under the first
    // node (the one the parent points at), with the chosen condition forced the other way.
    const IfChoices choices = {{chosen, !was_then}};
    std::optional<Value> flipped = ctx.generator.valid_for(*p.nodes.front(), ctx.rng.next(), choices);
    if (!flipped || node_accepts(*chosen->if_schema, *flipped) == was_then) continue;
    Value edited = ctx.value;
    value_at(edited, p.steps()) = std::move(*flipped);
    return ctx.make(edited,
                    std::string("if/then/else: regenerated to take the ") + (was_then ? "else" : "then") +
                        " side (it took " + (was_then ? "then" : "else") + ")",
                    p.path());
  }
  return std::nullopt;
}

std::optional<Mutant> mutate_contains_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_array() && CanonicalContext::any_node(p, &SchemaNode::contains);
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  const SchemaNode* contains = nullptr;
  for (const SchemaNode* n : p.nodes)
    if (n->contains) contains = n->contains;
  Value edited = ctx.value;
  Value& array = value_at(edited, p.steps());
  std::vector<Value> fitting, others;
  for (const Value& e : array.items()) (node_accepts(*contains, e) ? fitting : others).push_back(e);
  std::string edge;
  if (ctx.rng.chance(0.5) || fitting.size() <= 1) {
    array.items() = others;
    edge = "contains: every item that fits removed (" + std::to_string(others.size()) + " left)";
  } else {
    others.push_back(fitting.back());
    array.items() = others;
    edge = "contains: exactly one fitting item, last";
  }
  return ctx.make(edited, edge, p.path());
}

std::optional<Mutant> mutate_property_names_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_object() && CanonicalContext::any_node(p, &SchemaNode::property_names);
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  Value edited = ctx.value;
  Value& object = value_at(edited, p.steps());
  // The new member's value: a copy of an existing one where there is one (it fits the members'
  // schema), else a string.
  const Value member = object.members().empty() ? Value::string("x") : object.members().front().value;
  std::string base = object.members().empty() ? "name" : object.members().front().key;
  const std::vector<std::pair<std::string, std::string>> names = {
      {"", "the empty name"},
      {"UPPER.Case", "upper case"},
      {base + "\xC3\xA9", "a non-ASCII letter"},
      {" " + base, "a leading space"},
      {base + "\n", "a final newline"},
      {base + kAstral, "an astral character"},
      {"x", "one character"},
  };
  const auto& [name, what] = names[ctx.rng.below(names.size())];
  if (object.find(name)) return std::nullopt;
  object.add(name, member);
  return ctx.make(edited, "propertyNames: a member named with " + what, p.path());
}

std::optional<Mutant> mutate_min_properties_edge(CanonicalContext& ctx) {
  std::vector<std::size_t> targets = ctx.targets([](const CanonicalPosition& p) {
    return p.value->is_object() && CanonicalContext::any_node(p, &SchemaNode::min_properties);
  });
  if (targets.empty()) return std::nullopt;
  const CanonicalPosition& p = ctx.positions[targets.front()];
  std::size_t min = 0;
  for (const SchemaNode* n : p.nodes)
    if (n->min_properties) min = std::max(min, *n->min_properties);
  Value edited = ctx.value;
  Value& object = value_at(edited, p.steps());
  const std::size_t keep = ctx.rng.chance(0.5) || min == 0 ? min : min - 1;
  if (object.members().size() < keep) return std::nullopt;
  object.members().resize(keep);
  return ctx.make(edited,
                  "minProperties " + std::to_string(min) + ": " + std::to_string(keep) + " members kept",
                  p.path());
}

}  // namespace crosscheck::gen
