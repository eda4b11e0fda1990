// lexical_mutations.cpp: the spelling and byte families (see mutation_context.hpp). Most of them
// change how a payload is written, not what it says, so the tree is serialised and the bytes edited.
#include <array>
#include <string_view>

#include "gen/any_value.hpp"
#include "gen/mutation_context.hpp"
#include "gen/mutation_text.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {

using json::Value;

namespace {

constexpr std::array<std::string_view, 18> kIntegerEdges = {"9007199254740991",
                                                            "-9007199254740991",
                                                            "9007199254740992",
                                                            "-9007199254740992",
                                                            "9007199254740993",
                                                            "18446744073709551616",
                                                            "100000000000000000000",
                                                            "1.0",
                                                            "1E0",
                                                            "-0",
                                                            "1E+2",
                                                            "1.5",
                                                            "1E400",
                                                            "-1E400",
                                                            "1E-400",
                                                            "9007199254740991.0",
                                                            "1.0000000000000001",
                                                            "9007199254740992E0"};

/// Nesting targets (containers from the root) around the SDKs' limits: Rust 128, Python ~1000,
/// the decoder's 1000, Go 10000.
constexpr std::array<std::size_t, 10> kNestingTargets = {64,  127,  128,  129,  256,
                                                         999, 1000, 1001, 2000, 10001};

/// Raw string tokens (quotes included) whose spelling the tree cannot keep, or that SDKs read differently.
constexpr std::array<std::string_view, 18> kStringEdges = {
    R"("\ud800")",                   // lone high surrogate
    R"("\udfff")",                   // lone low surrogate
    R"("a\ud800\ud800b")",           // two highs
    R"("\ud83d\ude00")",             // escaped pair (U+1F600)
    R"("\uDBFF\uDFFF")",             // U+10FFFF, upper-case hex
    "\"\xf0\x9f\x98\x80\"",          // raw U+1F600
    R"("\u2028\u2029")",             // escaped line/paragraph separators
    "\"\xe2\x80\xa8\xe2\x80\xa9\"",  // raw ones
    R"("a\u0000b")",                 // NUL
    "\"\x7f\"",                      // raw DEL (legal unescaped)
    R"("\u00e9")",                   // escaped é
    "\"e\xcc\x81\"",                 // e + combining acute (not NFC)
    R"("\/\b\f\n\r\t\"\\")",         // every short escape
    R"("\uFEFF")",                   // BOM inside a string
    "\"\xef\xbf\xbf\"",              // raw noncharacter U+FFFF
    R"("")",                         // empty
    R"("\u0041\u0042")",             // escaped ASCII
    R"("\ud800\u0041")"};            // high surrogate then a letter

constexpr std::array<std::string_view, 10> kInvalidUtf8 = {
    "\xff",         "\xfe",     "\xc0\xaf",         "\xe0\x80\xaf", "\xed\xa0\x80",
    "\xed\xbf\xbf", "\xe2\x82", "\xf4\x90\x80\x80", "\x80",         "\xf8\x88\x80\x80\x80"};

constexpr std::array<std::string_view, 8> kIllegalWhitespace = {
    "\f",           "\v",   "\xc2\xa0",    "\xe2\x80\xa8", std::string_view("\0", 1),
    "\xef\xbb\xbf", "\x1c", "\xe3\x80\x80"};

std::string replace_with_marker(const Value& root, const Steps& steps, const Value& marker,
                                std::string_view token) {
  Value copy = root;
  locate(copy, steps) = marker;
  return splice_string(copy, marker, token);
}

}  // namespace

std::optional<Mutant> mutate_integer_edge(MutationContext& ctx) {
  auto targets =
      ctx.targets([](const WalkNode& n) { return !n.opaque && n.value->is_number() && !n.integers.empty(); });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  std::vector<std::string> edges(kIntegerEdges.begin(), kIntegerEdges.end());
  // Just outside the schema's own bounds (boundedInteger), where SDKs that check them disagree.
  for (const schema::Shape* s : node.integers) {
    auto plain = [](const std::optional<std::string>& b) {
      return b && b->size() < 16 && b->find_first_of(".eE") == std::string::npos;
    };
    if (plain(s->minimum)) edges.push_back(std::to_string(std::stoll(*s->minimum) - 1));
    if (plain(s->maximum)) edges.push_back(std::to_string(std::stoll(*s->maximum) + 1));
  }
  const std::string edge = ctx.rng.pick(edges);
  Value copy = ctx.value;
  locate(copy, node.steps) = Value::number(edge);
  return ctx.make(json::write(copy), "integer slot " + node.pointer + " set to " + edge, node.pointer);
}

std::optional<Mutant> mutate_number_spelling(MutationContext& ctx) {
  auto targets = ctx.targets([](const WalkNode& n) { return n.value->is_number(); });
  for (std::size_t index : targets) {
    const WalkNode& node = ctx.nodes()[index];
    auto respelled = respell_number(node.value->number_text(), ctx.rng);
    if (!respelled) continue;
    Value copy = ctx.value;
    locate(copy, node.steps) = Value::number(*respelled);
    return ctx.make(
        json::write(copy),
        "number " + node.pointer + " respelled " + node.value->number_text() + " -> " + *respelled,
        node.pointer);
  }
  return std::nullopt;
}

std::optional<Mutant> mutate_deep_nesting(MutationContext& ctx) {
  const std::size_t target = kNestingTargets[ctx.rng.below(kNestingTargets.size())];
  const int style = static_cast<int>(ctx.rng.below(3));  // arrays, objects, alternating
  auto nest = [&](std::size_t levels) {
    std::string open, close;
    for (std::size_t i = 0; i < levels; ++i) {
      const bool array = style == 0 || (style == 2 && i % 2 == 0);
      open += array ? "[" : "{\"d\":";
      close += array ? "]" : "}";
    }
    std::reverse(close.begin(), close.end());
    return open + "0" + close;
  };
  const Value marker = string_marker(ctx.rng.next());
  // An opaque position (any, or inside an unknown member) first; else a new unknown member.
  auto targets = ctx.targets([](const WalkNode& n) { return !n.steps.empty() && unconstrained(n); });
  if (!targets.empty()) {
    const WalkNode& node = ctx.nodes()[targets.front()];
    const std::size_t levels = target > node.steps.size() ? target - node.steps.size() : 1;
    return ctx.make(replace_with_marker(ctx.value, node.steps, marker, nest(levels)),
                    "opaque value at " + where(node.pointer) + " nested " + std::to_string(levels) +
                        " deep (total " + std::to_string(node.steps.size() + levels) + ")",
                    node.pointer);
  }
  // Like unknown-member: never where a typed additionalProperties would check the new member.
  targets = ctx.targets([](const WalkNode& n) {
    return n.value->is_object() &&
           (n.opaque || std::none_of(n.objects.begin(), n.objects.end(), [](const schema::Shape* o) {
              return o->additional_shape && o->additional_shape->kind != schema::ShapeKind::kAny;
            }));
  });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  Value copy = ctx.value;
  Value& object = locate(copy, node.steps);
  std::string name;
  do {
    name = unknown_member_name(ctx.rng.next());
  } while (object.contains(name));
  object.add(name, marker);
  const std::size_t depth = node.steps.size() + 1;
  const std::size_t levels = target > depth ? target - depth : 1;
  return ctx.make(splice_string(copy, marker, nest(levels)),
                  "unknown member '" + name + "' at " + where(node.pointer) + " nested " +
                      std::to_string(levels) + " deep",
                  child_pointer(node.pointer, name));
}

std::optional<Mutant> mutate_string_edge(MutationContext& ctx) {
  // Plain strings: an enum or literal slot would change the verdict, not just the spelling.
  auto targets = ctx.targets([](const WalkNode& n) {
    return n.value->is_string() &&
           (unconstrained(n) || (!n.strings.empty() && n.enums.empty() && n.literals.empty()));
  });
  if (targets.empty()) return std::nullopt;
  const WalkNode& node = ctx.nodes()[targets.front()];
  std::string token(kStringEdges[ctx.rng.below(kStringEdges.size())]);
  if (ctx.rng.chance(0.1)) token = "\"" + std::string(4096 + ctx.rng.below(4096), 'a') + "\"";
  const Value marker = string_marker(ctx.rng.next());
  return ctx.make(replace_with_marker(ctx.value, node.steps, marker, token),
                  "string " + node.pointer + " spelled " + (token.size() > 60 ? "\"a...\" (long)" : token),
                  node.pointer);
}

std::optional<Mutant> mutate_invalid_utf8(MutationContext& ctx) {
  const std::string_view bad = kInvalidUtf8[ctx.rng.below(kInvalidUtf8.size())];
  const Value marker = string_marker(ctx.rng.next());
  auto hex = [&] {
    std::string out;
    static constexpr char kDigits[] = "0123456789ABCDEF";
    for (unsigned char c : bad)
      out += std::string(out.empty() ? "" : " ") + kDigits[c >> 4] + kDigits[c & 15];
    return out;
  };
  auto targets = ctx.targets([](const WalkNode& n) { return n.value->is_string(); });
  if (!targets.empty()) {
    const WalkNode& node = ctx.nodes()[targets.front()];
    const std::string inner = escape_inner(node.value->string_value());
    const std::string token =
        ctx.rng.chance(0.5) ? "\"" + std::string(bad) + inner + "\"" : "\"" + inner + std::string(bad) + "\"";
    return ctx.make(replace_with_marker(ctx.value, node.steps, marker, token),
                    "raw bytes " + hex() + " in string " + node.pointer, node.pointer);
  }
  if (!ctx.value.is_object()) return std::nullopt;
  Value copy = ctx.value;
  const std::string name = unknown_member_name(ctx.rng.next());
  copy.add(name, marker);
  return ctx.make(splice_string(copy, marker, "\"" + std::string(bad) + "\""),
                  "raw bytes " + hex() + " in new member '" + name + "'", child_pointer("", name));
}

std::optional<Mutant> mutate_bom(MutationContext& ctx) {
  return ctx.make("\xEF\xBB\xBF" + json::write(ctx.value), "UTF-8 byte order mark in front", "");
}

std::optional<Mutant> mutate_whitespace(MutationContext& ctx) {
  const std::string text = json::write(ctx.value);
  const std::vector<std::size_t> boundaries = token_boundaries(text);
  std::string out;
  std::string description;
  if (ctx.rng.chance(0.7)) {
    // Legal: runs of space, tab, LF and CR at some or all token boundaries.
    static constexpr std::string_view kLegal = " \t\n\r";
    const double p = ctx.rng.chance(0.5) ? 1.0 : 0.2;
    std::size_t from = 0, inserted = 0;
    for (std::size_t at : boundaries) {
      out.append(text, from, at - from);
      from = at;
      if (!ctx.rng.chance(p)) continue;
      for (std::uint64_t n = 1 + ctx.rng.below(6); n > 0; --n)
        out.push_back(kLegal[ctx.rng.below(kLegal.size())]);
      ++inserted;
    }
    out.append(text, from, std::string::npos);
    description = "legal whitespace at " + std::to_string(inserted) + " token boundaries";
  } else {
    const std::string_view bad = kIllegalWhitespace[ctx.rng.below(kIllegalWhitespace.size())];
    const std::size_t at = boundaries[ctx.rng.below(boundaries.size())];
    out = text.substr(0, at) + std::string(bad) + text.substr(at);
    description = "illegal whitespace (" + std::to_string(bad.size()) + " bytes, first 0x" +
                  "0123456789abcdef"[static_cast<unsigned char>(bad[0]) >> 4] +
                  "0123456789abcdef"[static_cast<unsigned char>(bad[0]) & 15] + ") at byte " +
                  std::to_string(at);
  }
  return ctx.make(std::move(out), std::move(description), "");
}

std::optional<Mutant> mutate_byte_level(MutationContext& ctx) {
  std::string bytes = json::write(ctx.value);
  static constexpr std::string_view kInteresting("{}[]\",:\\0-eE.tfn \x00\xff", 19);
  std::string description;
  for (std::uint64_t ops = 1 + ctx.rng.below(3); ops > 0; --ops) {
    const std::size_t size = bytes.size();
    const std::size_t at = ctx.rng.below(size + 1);
    std::string op;
    switch (ctx.rng.below(5)) {
      case 0:
        if (at < size) {
          bytes[at] = static_cast<char>(bytes[at] ^ (1 << ctx.rng.below(8)));
          op = "flip@" + std::to_string(at);
        }
        break;
      case 1: {
        const char c = ctx.rng.chance(0.5) ? kInteresting[ctx.rng.below(kInteresting.size())]
                                           : static_cast<char>(ctx.rng.below(256));
        bytes.insert(at, 1, c);
        op = "insert@" + std::to_string(at);
        break;
      }
      case 2:
        if (at < size) {
          const std::size_t n = 1 + ctx.rng.below(4);
          bytes.erase(at, n);
          op = "delete" + std::to_string(n) + "@" + std::to_string(at);
        }
        break;
      case 3:
        bytes.resize(at);
        op = "truncate@" + std::to_string(at);
        break;
      default:
        if (at < size) {
          const std::size_t n = 1 + ctx.rng.below(std::min<std::size_t>(16, size - at));
          const std::size_t to = ctx.rng.below(size + 1);
          bytes.insert(to, bytes.substr(at, n));
          op = "copy" + std::to_string(n) + "@" + std::to_string(at) + "->" + std::to_string(to);
        }
    }
    if (!op.empty()) description += (description.empty() ? "" : " ") + op;
  }
  return ctx.make(std::move(bytes),
                  "byte edits: " + (description.empty() ? std::string("none") : description), "");
}

std::optional<Mutant> mutate_opaque_number(MutationContext& ctx) {
  // Where the decoder keeps a number's spelling: an opaque number, any opaque value (`any`, an
  // untyped additionalProperties, inside an unknown member), or a new unknown member of an object
  // that keeps them (never one whose typed additionalProperties would check it).
  auto keeps_unknown = [](const WalkNode& n) {
    if (!n.value->is_object()) return false;
    if (unconstrained(n)) return true;
    return !n.objects.empty() && std::none_of(n.objects.begin(), n.objects.end(), [](const schema::Shape* o) {
      return o->additional_shape && o->additional_shape->kind != schema::ShapeKind::kAny;
    });
  };
  const std::vector<std::size_t> numbers =
      ctx.targets([](const WalkNode& n) { return n.value->is_number() && unconstrained(n); });
  const std::vector<std::size_t> opaque = ctx.targets([](const WalkNode& n) { return unconstrained(n); });
  const std::vector<std::size_t> objects = ctx.targets(keeps_unknown);
  if (numbers.empty() && opaque.empty() && objects.empty()) return std::nullopt;

  const std::string number = beyond_binary64_number(ctx.rng);
  // Sometimes one level down in a new container: an encoder may take another path for nested values.
  Value content = Value::number(number);
  switch (ctx.rng.below(6)) {
    case 0:
      content = Value::array({std::move(content)});
      break;
    case 1: {
      Value wrapper = Value::object();
      wrapper.add("k0", std::move(content));
      content = std::move(wrapper);
      break;
    }
    default:
      break;
  }
  const std::string what = content.is_number() ? number : json::write(content);
  const std::uint64_t first = ctx.rng.below(3);
  for (std::uint64_t k = 0; k < 3; ++k) {
    const std::uint64_t how = (first + k) % 3;
    const std::vector<std::size_t>& list = how == 0 ? numbers : how == 1 ? opaque : objects;
    if (list.empty()) continue;
    const WalkNode& node = ctx.nodes()[list.front()];
    Value copy = ctx.value;
    Value& at = locate(copy, node.steps);
    if (how < 2) {
      at = std::move(content);
      return ctx.make(json::write(copy),
                      std::string(how == 0 ? "opaque number " : "opaque value ") + where(node.pointer) +
                          " set to " + what,
                      node.pointer);
    }
    std::string name;
    do {
      name = unknown_member_name(ctx.rng.next());
    } while (at.contains(name));
    auto& members = at.members();
    const auto position = static_cast<long>(ctx.rng.below(members.size() + 1));
    members.insert(members.begin() + position, json::Member{name, std::move(content)});
    return ctx.make(json::write(copy),
                    "unknown member '" + name + "' = " + what + " at " + where(node.pointer),
                    child_pointer(node.pointer, name));
  }
  return std::nullopt;
}

}  // namespace crosscheck::gen
