// gen_canonical_mutations_test.cpp: each layer-2 mutation family, on generated valid instances of
// the real installed schema, produces its edge at the position it names, and the C++ reference
// validator's verdict on the mutant is the one the edge has by its standard (RFC 3339, RFC 3986,
// exact decimals, code points, closed objects, contains, propertyNames, minProperties).
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "canonical/canonical_validator.hpp"
#include "gen/canonical_context.hpp"
#include "gen/canonical_generator.hpp"
#include "gen_test_support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/schema_formats.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {
namespace {

using testing::real_validator;

/// One mutant with what the test needs to judge it: the original, the mutant parsed, the verdict
/// and the schema nodes at the mutant's path in the original.
struct Seen {
  std::string document;
  json::Value original;
  json::Value mutant;
  std::string description;
  std::string path;
  bool valid = false;
  std::vector<const json::SchemaNode*> nodes;  ///< at `path` in the original (empty if new there)
};

/// Every mutant of `family` over the documents, seeds 0..seeds-1 (generation and mutation share it).
std::vector<Seen> mutants_of(Mutation family, std::uint64_t seeds = 6) {
  const canonical::CanonicalValidator& validator = real_validator();
  const CanonicalGenerator generator(validator);
  std::vector<Seen> out;
  for (const std::string& document : generator.documents()) {
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
      std::optional<json::Value> v = generator.valid(document, seed);
      auto m = generator.mutate(document, *v, family, seed);
      if (!m) continue;
      EXPECT_EQ(m->mutation, family);
      auto parsed = json::parse(m->bytes);
      EXPECT_TRUE(parsed.ok()) << m->bytes;
      if (!parsed.ok()) continue;
      Seen s{document, *v, parsed.value(), m->description, m->path, false, {}};
      s.valid = validator.validate(document, m->bytes)->valid;
      for (const CanonicalPosition& p : canonical_walk(*validator.root(document), *v))
        if (p.path() == m->path) s.nodes = p.nodes;
      // The description states the reference's verdict, as computed.
      EXPECT_NE(m->description.find(s.valid ? "reference: valid" : "reference: invalid"), std::string::npos)
          << m->description;
      out.push_back(std::move(s));
    }
  }
  return out;
}

const json::Value& at(const json::Value& root, const std::string& path) {
  const json::Value* v = testing::at_pointer(root, path);
  EXPECT_NE(v, nullptr) << path;
  static const json::Value kNull;
  return v ? *v : kNull;
}

bool has(const std::vector<const json::SchemaNode*>& nodes,
         const std::function<bool(const json::SchemaNode&)>& f) {
  for (const auto* n : nodes)
    if (f(*n)) return true;
  return false;
}

TEST(CanonicalMutations, FamiliesAreListedAfterTheStructuralOnesAndNamed) {
  const std::vector<Mutation> structural = all_mutations();
  const std::vector<Mutation> canonical = canonical_mutations();
  ASSERT_EQ(canonical.size(), 11u);
  for (Mutation m : canonical) {
    EXPECT_GT(static_cast<std::size_t>(m), static_cast<std::size_t>(structural.back()));
    EXPECT_STRNE(mutation_name(m), "unknown");
  }
  EXPECT_STREQ(mutation_name(Mutation::kDateTimeEdge), "date-time-edge");
  // A structural Mutator ignores a canonical family; the canonical generator a structural one.
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const CanonicalGenerator generator(real_validator());
  const json::Value v = *generator.valid("intercept-request", 1);
  EXPECT_FALSE(generator.mutate("intercept-request", v, Mutation::kUnknownMember, 1).has_value());
  EXPECT_TRUE(generator.any_mutant("intercept-request", v, 1).has_value());
}

// Each position's pointer and index path, built from its parents: escaped keys, array indices, and
// a 1,000-deep array (the parser's limit) whose deepest position still knows its whole way down.
TEST(CanonicalMutations, WalkPositionsKnowTheirPathAndSteps) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const json::SchemaNode& root = *real_validator().root("intercept-request");
  auto v = json::parse(R"({"a":[{"b/~":1},2],"c":null})");
  ASSERT_TRUE(v.ok());
  std::deque<CanonicalPosition> positions = canonical_walk(root, v.value());
  std::vector<std::string> paths;
  std::vector<std::vector<std::size_t>> steps;
  for (const CanonicalPosition& p : positions) {
    paths.push_back(p.path());
    steps.push_back(p.steps());
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"", "/a", "/a/0", "/a/0/b~1~0", "/a/1", "/c"}));
  EXPECT_EQ(steps, (std::vector<std::vector<std::size_t>>{{}, {0}, {0, 0}, {0, 0, 0}, {0, 1}, {1}}));
  EXPECT_EQ(positions[3].value, &v.value().members()[0].value.items()[0].members()[0].value);
  EXPECT_FALSE(positions[0].nodes.empty());  // the root's schema applies at the root

  std::string deep = std::string(1000, '[') + "7" + std::string(1000, ']');
  auto d = json::parse(deep);
  ASSERT_TRUE(d.ok());
  std::deque<CanonicalPosition> down = canonical_walk(root, d.value());
  ASSERT_EQ(down.size(), 1001u);
  EXPECT_EQ(down.back().steps(), std::vector<std::size_t>(1000, 0));
  std::string zeros;
  for (int i = 0; i < 1000; ++i) zeros += "/0";
  EXPECT_EQ(down.back().path(), zeros);
  EXPECT_EQ(down.back().value->number_text(), "7");
}

TEST(CanonicalMutations, LengthEdgeCountsCodePoints) {
  std::vector<Seen> seen = mutants_of(Mutation::kLengthEdge);
  ASSERT_FALSE(seen.empty());
  std::set<std::string> kinds;
  std::size_t judged = 0, within = 0;
  for (const Seen& s : seen) {
    const std::string text = at(s.mutant, s.path).string_value();
    std::size_t lo = 0, hi = SIZE_MAX;
    for (const auto* n : s.nodes) {
      if (n->min_length) lo = std::max(lo, *n->min_length);
      if (n->max_length) hi = std::min(hi, *n->max_length);
    }
    const std::size_t len = code_point_count(text);
    EXPECT_TRUE(len == lo || len + 1 == lo || len == hi || len == hi + 1) << s.description;
    if (text.find("\xF0\x9F\x98\x80") != std::string::npos) kinds.insert("astral");
    if (text.find("\xED\xA0\x80") != std::string::npos) kinds.insert("lone surrogate");
    // Code points, not UTF-16 units: the verdict is the one on ASCII text of the same code-point
    // count in the same place (the other members and rules unchanged).
    json::Value ascii = s.mutant;
    *const_cast<json::Value*>(testing::at_pointer(ascii, s.path)) =
        json::Value::string(std::string(len, '~'));
    const bool ascii_valid = real_validator().validate_value(s.document, ascii)->valid;
    if (!has(s.nodes, [](const json::SchemaNode& n) {
          return n.pattern || n.format != json::Format::kNone || n.const_value || n.enum_values;
        })) {
      EXPECT_EQ(s.valid, ascii_valid) << s.document << " " << s.description;
      ++judged;
      within += len >= lo && len <= hi;
    }
  }
  EXPECT_GT(judged, 10u);
  EXPECT_GT(within, 0u);
  EXPECT_LT(within, judged) << "both sides of the bounds are drawn";
  EXPECT_EQ(kinds, (std::set<std::string>{"astral", "lone surrogate"}));
}

TEST(CanonicalMutations, PatternEdgeIsJudgedByTheECMAPattern) {
  std::vector<Seen> seen = mutants_of(Mutation::kPatternEdge, 12);
  ASSERT_FALSE(seen.empty());
  std::size_t refused = 0;
  for (const Seen& s : seen) {
    const std::string& text = at(s.mutant, s.path).string_value();
    EXPECT_NE(text, at(s.original, s.path).string_value()) << s.description;
    bool matches = true;
    for (const auto* n : s.nodes)
      if (n->pattern) matches = matches && n->pattern->search(json::code_points_of(text));
    if (!matches) {
      EXPECT_FALSE(s.valid) << s.description;
      ++refused;
    }
  }
  EXPECT_GT(refused, 0u);
}

TEST(CanonicalMutations, DateTimeEdgesGetRfc3339Verdicts) {
  // RFC 3339 section 5.6 (docs/canonical.md): the answer on each edge the family draws.
  const std::map<std::string, bool> rfc = {
      {"2026-12-01t21:00:00z", true},      {"2026-12-01T21:00:00z", true},
      {"1998-12-31T23:59:60Z", true},      {"1998-12-31T15:59:60-08:00", true},
      {"2026-12-01T21:59:60Z", false},     {"2026-12-01T21:00:00+00:00", true},
      {"2026-12-01T21:00:00-00:00", true}, {"2026-12-01T21:00:00.123456789012345678901234567890Z", true},
      {"2026-12-01T21:00Z", false},        {"0000-01-01T00:00:00Z", true},
      {"2026-12-01 21:00:00Z", false},     {"2024-02-29T12:00:00Z", true},
      {"2026-02-29T12:00:00Z", false},     {"2026-12-01T21:00:00+0100", false},
      {"2026-12-01T21:00:00,5Z", false},   {"2026-12-01T24:00:00Z", false},
  };
  std::set<std::string> drawn;
  for (const Seen& s : mutants_of(Mutation::kDateTimeEdge, 10)) {
    const std::string& text = at(s.mutant, s.path).string_value();
    ASSERT_TRUE(rfc.count(text)) << text;
    drawn.insert(text);
    if (!has(s.nodes, [](const json::SchemaNode& n) { return bool(n.pattern); })) {
      EXPECT_EQ(s.valid, rfc.at(text)) << s.document << " " << s.description;
    }
  }
  EXPECT_GE(drawn.size(), 12u) << "the family should reach most of its edges over these seeds";
}

TEST(CanonicalMutations, UriEdgesGetRfc3986Verdicts) {
  const std::map<std::string, bool> rfc = {
      {"/relative/path", false},
      {"//host.example/a", false},
      {"#fragment", false},
      {"", false},
      {"example.com/a", false},
      {"https://exa mple.com/", false},
      {"https://example.com/a b", false},
      {"https://ex\xC3\xA4mple.com/", false},
      {"https://example.com/\xE2\x82\xAC", false},
      {"https://example.com/%E2%82%AC", true},
      {"https://example.com/%zz", false},
      {"urn:isbn:0451450523", true},
      {"HTTPS://EXAMPLE.COM/", true},
      {"https://[::1]:8080/a", true},
      {"https://[::g]/", false},
      {"1https://example.com/", false},
      {"https://example.com:port/", false},
  };
  std::set<std::string> drawn;
  for (const Seen& s : mutants_of(Mutation::kUriEdge, 10)) {
    const std::string& text = at(s.mutant, s.path).string_value();
    ASSERT_TRUE(rfc.count(text)) << text;
    drawn.insert(text);
    if (!has(s.nodes, [](const json::SchemaNode& n) { return bool(n.pattern); })) {
      EXPECT_EQ(s.valid, rfc.at(text)) << s.document << " " << s.description;
    }
  }
  EXPECT_GE(drawn.size(), 12u);
}

TEST(CanonicalMutations, MinimumEdgeComparesExactDecimals) {
  std::vector<Seen> seen = mutants_of(Mutation::kMinimumEdge, 10);
  ASSERT_FALSE(seen.empty());
  std::set<std::string> drawn;
  for (const Seen& s : seen) {
    const std::string& text = at(s.mutant, s.path).number_text();
    drawn.insert(text);
    bool expected = true;
    for (const auto* n : s.nodes) {
      if (n->minimum) expected = expected && json::compare_numbers(text, n->minimum->number_text()) >= 0;
      for (const std::string& t : n->types)
        if (t == "integer") expected = expected && json::is_integral(text);
    }
    EXPECT_EQ(s.valid, expected) << s.document << " " << s.description;
  }
  // Exactness where doubles fail: -1E-400 is below 0, 1E400 and 2^64 are above it.
  EXPECT_TRUE(drawn.count("-1E-400") || drawn.count("1E400") || drawn.count("18446744073709551616"));
}

TEST(CanonicalMutations, EqualitySpellingRepeatsOrRespells) {
  std::vector<Seen> seen = mutants_of(Mutation::kEqualitySpelling, 10);
  ASSERT_FALSE(seen.empty());
  std::size_t repeats = 0;
  for (const Seen& s : seen) {
    const json::Value& after = at(s.mutant, s.path);
    if (after.is_array()) {
      // The last item equals an earlier one by value (numbers respelled), so uniqueItems refuses it.
      const auto& items = after.items();
      bool repeated = false;
      for (std::size_t i = 0; i + 1 < items.size(); ++i)
        repeated = repeated || json::semantically_equal(items[i], items.back());
      EXPECT_TRUE(repeated) << s.description;
      EXPECT_FALSE(s.valid) << s.description;
      ++repeats;
    } else {
      // A respelled number under const/enum: the same value, so still valid.
      EXPECT_TRUE(json::semantically_equal(after, at(s.original, s.path))) << s.description;
      EXPECT_NE(after.number_text(), at(s.original, s.path).number_text());
      EXPECT_TRUE(s.valid) << s.description;
    }
  }
  EXPECT_GT(repeats, 0u);
}

TEST(CanonicalMutations, ClosedObjectMemberIsRefusedCanonically) {
  std::vector<Seen> seen = mutants_of(Mutation::kClosedObjectMember);
  ASSERT_FALSE(seen.empty());
  for (const Seen& s : seen) {
    EXPECT_EQ(at(s.mutant, s.path).members().size(), at(s.original, s.path).members().size() + 1);
    EXPECT_FALSE(s.valid) << s.document << " " << s.description;
  }
}

TEST(CanonicalMutations, IfBranchTakesTheOtherSide) {
  std::vector<Seen> seen = mutants_of(Mutation::kIfBranch);
  ASSERT_FALSE(seen.empty());
  std::set<std::string> sides;
  std::size_t valid = 0;
  for (const Seen& s : seen) {
    EXPECT_TRUE(s.description.find("take the else side") != std::string::npos ||
                s.description.find("take the then side") != std::string::npos)
        << s.description;
    sides.insert(s.description.find("take the else") != std::string::npos ? "else" : "then");
    // Some conditional at the path answers differently on the mutant than on the original.
    bool flipped = false;
    for (const auto* n : s.nodes)
      if (n->if_schema && (n->then_schema || n->else_schema))
        flipped = flipped || node_accepts(*n->if_schema, at(s.original, s.path)) !=
                                 node_accepts(*n->if_schema, at(s.mutant, s.path));
    EXPECT_TRUE(flipped) << s.description;
    valid += s.valid;
  }
  EXPECT_EQ(sides, (std::set<std::string>{"then", "else"}));
  EXPECT_GT(valid, 0u) << "a regenerated branch is usually valid as a whole";
}

TEST(CanonicalMutations, ContainsEdgeRemovesOrKeepsOneFittingItem) {
  std::vector<Seen> seen = mutants_of(Mutation::kContainsEdge, 10);
  ASSERT_FALSE(seen.empty());
  std::size_t refused = 0;
  for (const Seen& s : seen) {
    const json::SchemaNode* contains = nullptr;
    for (const auto* n : s.nodes)
      if (n->contains) contains = n->contains;
    ASSERT_NE(contains, nullptr);
    std::size_t fitting = 0;
    for (const json::Value& e : at(s.mutant, s.path).items()) fitting += node_accepts(*contains, e);
    if (s.description.find("removed") != std::string::npos) {
      EXPECT_EQ(fitting, 0u);
      // Refused unless another anyOf/oneOf branch without the `contains` takes the array.
      refused += !s.valid;
    } else {
      EXPECT_EQ(fitting, 1u);
    }
  }
  EXPECT_GT(refused, 0u);
}

TEST(CanonicalMutations, PropertyNamesEdgeIsJudgedByPropertyNames) {
  std::vector<Seen> seen = mutants_of(Mutation::kPropertyNamesEdge, 12);
  ASSERT_FALSE(seen.empty());
  std::size_t refused = 0;
  for (const Seen& s : seen) {
    const json::Value& after = at(s.mutant, s.path);
    ASSERT_EQ(after.members().size(), at(s.original, s.path).members().size() + 1);
    const json::Value name = json::Value::string(after.members().back().key);
    bool fits = true;
    for (const auto* n : s.nodes)
      if (n->property_names) fits = fits && node_accepts(*n->property_names, name);
    if (!fits) {
      EXPECT_FALSE(s.valid) << s.description;
      ++refused;
    }
  }
  EXPECT_GT(refused, 0u);
}

TEST(CanonicalMutations, MinPropertiesEdgeKeepsTheBoundOrOneFewer) {
  std::vector<Seen> seen = mutants_of(Mutation::kMinPropertiesEdge, 12);
  ASSERT_FALSE(seen.empty());
  for (const Seen& s : seen) {
    std::size_t min = 0;
    for (const auto* n : s.nodes)
      if (n->min_properties) min = std::max(min, *n->min_properties);
    const std::size_t kept = at(s.mutant, s.path).members().size();
    EXPECT_TRUE(kept == min || kept + 1 == min) << s.description;
    if (kept < min) {
      EXPECT_FALSE(s.valid) << s.description;
    }
  }
}

}  // namespace
}  // namespace crosscheck::gen
