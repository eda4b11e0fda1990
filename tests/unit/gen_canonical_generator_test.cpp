// gen_canonical_generator_test.cpp: layer-2 generation against the real installed schema: every
// document's generated instances are valid per the C++ reference validator, with no
// implementation-defined trait, for fixed seeds; the generator is deterministic; forcing an `if`
// gives the asked side; the structural streams are untouched (gen_golden_test.cpp pins those).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "decoder/decoder.hpp"
#include "gen/canonical_generator.hpp"
#include "gen/pattern_text.hpp"
#include "gen_test_support.hpp"
#include "json/schema_node.hpp"
#include "json/schema_regex.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {
namespace {

using testing::real_validator;

TEST(CanonicalGenerator, EveryDocumentsInstancesAreCanonicallyValid) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const canonical::CanonicalValidator& validator = real_validator();
  const CanonicalGenerator generator(validator);
  constexpr std::uint64_t kPerDocument = 200;
  ASSERT_GE(generator.documents().size(), 20u);
  std::size_t total = 0, valid = 0;
  for (const std::string& document : generator.documents()) {
    std::size_t ok = 0, attempts = 0;
    std::string first_failure;
    for (std::uint64_t seed = 0; seed < kPerDocument; ++seed) {
      CanonicalReport report;
      std::optional<json::Value> v = generator.valid(document, seed, &report);
      ASSERT_TRUE(v.has_value()) << document;
      attempts += report.attempts;
      // The report's claim is checked again here, on the serialised bytes, with the validator.
      std::optional<json::Validation> verdict = validator.validate(document, json::write(*v));
      ASSERT_TRUE(verdict.has_value());
      const bool clean = verdict->valid && verdict->implementation_defined.empty();
      EXPECT_EQ(clean, report.valid) << document << " seed " << seed;
      if (clean) {
        ++ok;
      } else if (first_failure.empty()) {
        first_failure = "seed " + std::to_string(seed) + ": " + canonical::render(*verdict) + " on " +
                        json::write(*v).substr(0, 400);
      }
    }
    std::cout << "[ canonical ] " << document << ": " << ok << "/" << kPerDocument << " valid, "
              << static_cast<double>(attempts) / kPerDocument << " draws per instance\n";
    EXPECT_EQ(ok, kPerDocument) << document << ", first failure " << first_failure;
    total += kPerDocument;
    valid += ok;
  }
  std::cout << "[ canonical ] all documents: " << valid << "/" << total << " valid ("
            << 100.0 * static_cast<double>(valid) / static_cast<double>(total) << "%)\n";
  EXPECT_EQ(valid, total);
}

TEST(CanonicalGenerator, SameSeedSameInstanceAndSeedsDiffer) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const CanonicalGenerator generator(real_validator());
  std::set<std::string> distinct;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const std::string a = json::write(*generator.valid("intercept-request", seed));
    EXPECT_EQ(a, json::write(*generator.valid("intercept-request", seed))) << seed;
    distinct.insert(a);
  }
  EXPECT_GE(distinct.size(), 18u);
  EXPECT_FALSE(generator.valid("no-such-document", 1).has_value());
}

TEST(CanonicalGenerator, ForcedIfChoiceTakesThatSide) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const canonical::CanonicalValidator& validator = real_validator();
  const CanonicalGenerator generator(validator);
  // Some document with a conditional at its root or in its allOf: find its if node.
  std::size_t checked = 0;
  for (const std::string& document : generator.documents()) {
    const json::SchemaNode* root = validator.root(document);
    std::vector<const json::SchemaNode*> conditionals;
    std::vector<const json::SchemaNode*> pending = {root};
    while (!pending.empty() && conditionals.empty()) {
      const json::SchemaNode* n = pending.back();
      pending.pop_back();
      if (n->if_schema && n->then_schema) conditionals.push_back(n);
      if (n->ref) pending.push_back(n->ref);
      for (const auto* a : n->all_of) pending.push_back(a);
    }
    if (conditionals.empty()) continue;
    const json::SchemaNode* c = conditionals.front();
    for (bool side : {true, false}) {
      std::size_t taken = 0;
      for (std::uint64_t seed = 0; seed < 10; ++seed) {
        auto v = generator.valid_for(*root, seed, {{c, side}});
        if (!v) continue;
        std::optional<json::Validation> verdict = validator.validate_value(document, *v);
        EXPECT_TRUE(verdict->valid) << document << " " << json::write(*v).substr(0, 300);
        json::Evaluation ev;
        ev.first_only = true;
        std::string path;
        taken += json::evaluate(*c->if_schema, *v, path, ev) == side;
      }
      EXPECT_GE(taken, 8u) << document << " forced side " << side;
    }
    ++checked;
  }
  EXPECT_GE(checked, 3u);
}

TEST(CanonicalGenerator, CanonicallyValidInstancesAreStructurallyAccepted) {
  // The cross-layer invariant on the reference itself: what its canonical validator calls valid,
  // its structural decoder accepts (for every document that is a root of the IR).
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const schema::Ir& ir = *testing::real_schema().ir;
  const CanonicalGenerator generator(real_validator());
  const decoder::Decoder decoder(ir);
  std::size_t roots = 0;
  for (const schema::Root& root : ir.roots) {
    const std::string document = canonical::document_name(root.document);
    if (!real_validator().knows(document)) continue;
    ++roots;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
      const json::Value v = *generator.valid(document, seed);
      const decoder::DecodeResult r = decoder.check(root, v);
      std::string diagnostics;
      for (const auto& d : r.diagnostics) diagnostics += " " + d.path + " " + d.code;
      EXPECT_TRUE(r.accepted) << root.snake_name << " seed " << seed << ":" << diagnostics << "\n"
                              << json::write(v).substr(0, 400);
    }
  }
  EXPECT_GE(roots, 20u);
}

TEST(PatternText, DrawsMatchEveryPatternOfTheRealSchema) {
  // Every pattern the installed schema uses: parsed by the subset, and each draw matches it (with
  // the validator's own ECMA-262 matcher) when the draw reached the end or the pattern is open.
  const std::vector<std::string> patterns = {
      "^(?:[A-Za-z][A-Za-z0-9_-]*\\.)+[A-Za-z][A-Za-z0-9_-]*$",
      "^(?:[Tt][Ee][Xx][Tt]/|[^/]+/(?:[^;]+\\+)?[Jj][Ss][Oo][Nn](?:;|$))",
      "^(?:\\*|[a-z][a-z0-9]*\\.\\*)$",
      "^(?:https://|http://"
      "(?:localhost|127\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}|\\[::1\\])(?::[0-9]+)?(?:[/?#]|$))",
      "^[A-Z]{3}$",
      "^[A-Za-z_][A-Za-z0-9_]*$",
      "^[a-f0-9]{64}$",
      "^_.+",
      "^https://",
      "^https?://",
  };
  for (const std::string& source : patterns) {
    auto drawer = PatternText::parse(source);
    ASSERT_TRUE(drawer.has_value()) << source;
    auto compiled = json::EcmaPattern::compile(source);
    ASSERT_TRUE(compiled.ok()) << source;
    Rng rng(7);
    for (int i = 0; i < 200; ++i) {
      const std::string text = drawer->draw(rng).text;
      EXPECT_TRUE(compiled.value().search(json::code_points_of(text))) << source << " drew " << text;
    }
  }
  EXPECT_FALSE(PatternText::parse("(?<=a)b").has_value());
  EXPECT_FALSE(PatternText::parse("\\p{L}").has_value());
  EXPECT_FALSE(PatternText::parse("(a").has_value());
}

}  // namespace
}  // namespace crosscheck::gen
