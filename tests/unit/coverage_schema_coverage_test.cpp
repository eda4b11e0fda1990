// Tests of schema coverage (src/coverage/schema_coverage.cpp): which (node, outcome) pairs are
// impossible on a small IR of our own, that the figure counts only the possible ones, and, on the real
// schema, that no generated or mutated payload ever reaches a pair the analysis calls impossible.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "coverage/schema_coverage.hpp"
#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen_test_support.hpp"
#include "json/parse.hpp"
#include "schema/ir_json.hpp"

namespace crosscheck::campaign {
namespace {

// Root {ev (required): a union on "type" with arms Ping (tag "ping"), Pong restricted by a `never`
// (tag "pong": selected, but no value passes it), a tagless Fallback object (never selected: the
// decoder selects arms only by tag) and Ping2 repeating the tag "ping" (the first arm wins);
// opt (optional): an untagged union of string and a never-restricted literal (that arm fails, but the union
// absorbs it, so it is visited in accepted payloads too)}.
constexpr const char* kIr = R"({
 "schemaRevision": "test", "protocolVersion": "test",
 "roots": [{"name": "Root", "schema": "t"}],
 "types": [
  {"name": "Root", "source": "t#/Root", "shape": {"kind": "object", "properties": [
    {"wire_name": "ev", "required": true, "shape": {"kind": "union", "mode": "oneOf", "discriminator": "type",
     "variants": [{"kind": "ref", "name": "Ping"},
                  {"kind": "intersection", "variants": [{"kind": "ref", "name": "Pong"}, {"kind": "never"}]},
                  {"kind": "ref", "name": "Fallback"},
                  {"kind": "ref", "name": "Ping2"}]}},
    {"wire_name": "opt", "required": false, "shape": {"kind": "union", "mode": "anyOf",
     "variants": [{"kind": "string"},
                  {"kind": "intersection", "variants": [{"kind": "literal", "value": 1}, {"kind": "never"}]}]}}],
   "forbidden_property_sets": [], "additional": {"kind": "allowed"}}},
  {"name": "Ping", "source": "t#/Ping", "shape": {"kind": "object", "properties": [
    {"wire_name": "type", "required": true, "shape": {"kind": "literal", "value": "ping"}}],
   "forbidden_property_sets": [], "additional": {"kind": "allowed"}}},
  {"name": "Ping2", "source": "t#/Ping2", "shape": {"kind": "object", "properties": [
    {"wire_name": "type", "required": true, "shape": {"kind": "literal", "value": "ping"}},
    {"wire_name": "n", "required": true, "shape": {"kind": "integer"}}],
   "forbidden_property_sets": [], "additional": {"kind": "allowed"}}},
  {"name": "Pong", "source": "t#/Pong", "shape": {"kind": "object", "properties": [
    {"wire_name": "type", "required": true, "shape": {"kind": "literal", "value": "pong"}}],
   "forbidden_property_sets": [], "additional": {"kind": "allowed"}}},
  {"name": "Fallback", "source": "t#/Fallback", "shape": {"kind": "object", "properties": [
    {"wire_name": "type", "required": true, "shape": {"kind": "string"}},
    {"wire_name": "mode", "required": true, "shape": {"kind": "enum", "values": ["a", "b"], "open_strings": false}}],
   "forbidden_property_sets": [], "additional": {"kind": "allowed"}}}
 ]})";

schema::Ir load_ir() {
  auto parsed = json::parse(kIr);
  EXPECT_TRUE(parsed.ok()) << parsed.error().message();
  auto ir = schema::ir_from_json(parsed.value());
  EXPECT_TRUE(ir.ok()) << (ir.ok() ? "" : ir.error());
  return std::move(ir).value();
}

/// Decodes `payload` as the root with a probe and records it, as crosscheck fuzz does.
bool feed(SchemaCoverage& cov, const decoder::Decoder& d, const schema::Root& root,
          const std::string& payload) {
  SchemaCoverage::Probe probe;
  auto r = d.decode(root, payload, &probe);
  cov.finish(probe, r.accepted);
  return r.accepted;
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

TEST(SchemaCoverage, ImpossiblePairsAreLeftOutOfTheFigureButCountedInTheRawOne) {
  schema::Ir ir = load_ir();
  SchemaCoverage cov(ir);
  // Tracked: Root (it has a required member), ev (a union), its 4 arms, Ping, Ping's literal, Pong,
  // Pong's literal, Fallback, Fallback's enum, Ping2, Ping2's literal, opt (a union), its 2 arms, the
  // literal 1.
  ASSERT_EQ(cov.tracked(), 18u);
  // Never visited (both outcomes): the tagless arm and what is below it (Fallback, its enum), the
  // repeated-tag arm and what is below it (Ping2, its literal).
  std::set<std::string> never = as_set(cov.never_visited());
  EXPECT_EQ(never.size(), 6u) << ::testing::PrintToString(never);
  EXPECT_EQ(
      std::count_if(never.begin(), never.end(), [](const auto& s) { return s.find("Fallback") != s.npos; }),
      2);
  EXPECT_EQ(
      std::count_if(never.begin(), never.end(), [](const auto& s) { return s.find("Ping2") != s.npos; }), 2);
  // Only in rejected payloads: the never-restricted "pong" arm, and Pong with its literal (only
  // evaluated inside that arm, whose failure fails the payload).
  std::set<std::string> rejected_only = as_set(cov.always_rejected());
  EXPECT_EQ(rejected_only.size(), 3u) << ::testing::PrintToString(rejected_only);
  EXPECT_EQ(std::count_if(rejected_only.begin(), rejected_only.end(),
                          [](const auto& s) { return s.find("Pong") != s.npos; }),
            2);
  EXPECT_EQ(cov.possible_accepted(), 18u - 6u - 3u);
  EXPECT_EQ(cov.possible_rejected(), 18u - 6u);
  EXPECT_EQ(cov.percent(), 0.0);

  // Payloads that reach every possible pair: 100% of the possible pairs, less of all of them. The
  // never-restricted arm under the untagged "opt" is visited in an accepted payload: not impossible.
  decoder::Decoder d(ir);
  const schema::Root& root = ir.roots.front();
  EXPECT_TRUE(feed(cov, d, root, R"({"ev": {"type": "ping"}, "opt": "s"})"));
  EXPECT_TRUE(feed(cov, d, root, R"({"ev": {"type": "other", "mode": "a"}})"));  // unknown tag: a warning
  EXPECT_FALSE(feed(cov, d, root, R"({"ev": {"type": "ping"}, "opt": 2})"));
  EXPECT_FALSE(feed(cov, d, root, R"({"ev": {"type": "pong"}, "opt": 1})"));
  EXPECT_EQ(cov.never_accepted(), std::vector<std::string>{});
  EXPECT_EQ(cov.never_rejected(), std::vector<std::string>{});
  EXPECT_EQ(cov.percent(), 100.0);
  EXPECT_NEAR(cov.percent_all(), 100.0 * 21 / 36, 1e-9);
  // Every impossible pair stayed unreached.
  EXPECT_EQ(cov.reached_accepted(), 9u);
  EXPECT_EQ(cov.reached_rejected(), 12u);
  EXPECT_EQ(as_set(cov.never_visited()), never);
  EXPECT_EQ(as_set(cov.always_rejected()), rejected_only);
  EXPECT_EQ(cov.describe(),
            "100.0% of the 21 (node, outcome) pairs a payload can reach (58.3% of all 36; 15 cannot happen): "
            "9/9 nodes reached in an accepted payload, 12/12 in a rejected one");

  // coverage.json carries both figures, and the readers' fallback handles files without them.
  run::CoverageFile saved = cov.to_file();
  run::CoverageFigures f = run::figures_from_json(run::to_json(saved));
  EXPECT_TRUE(f.has_possible);
  EXPECT_EQ(f.possible_pairs(), 21u);
  EXPECT_EQ(f.percent(), 100.0);
  EXPECT_NEAR(f.percent_all(), 58.3, 0.05);
  EXPECT_EQ(f.impossible_pairs(), 15u);
  EXPECT_EQ(saved.impossible_flags.size(), 9u);
  json::Value old = json::Value::object();
  const json::Value written = run::to_json(saved);
  for (const char* k : {"tracked", "reachedAccepted", "reachedRejected"}) old.add(k, *written.find(k));
  run::CoverageFigures g = run::figures_from_json(old);
  EXPECT_FALSE(g.has_possible);
  EXPECT_EQ(g.percent(), g.percent_all());
  EXPECT_EQ(g.impossible_pairs(), 0u);

  // A resumed run restores the flags and gets the same figures.
  SchemaCoverage again(ir);
  again.restore(saved);
  EXPECT_EQ(again.percent(), 100.0);
  EXPECT_EQ(again.describe(), cov.describe());
}

// On the real schema: thousands of valid and mutated payloads of every root never reach a pair the
// analysis calls impossible (a reached pair would prove the analysis wrong).
TEST(SchemaCoverage, NoPayloadReachesAnImpossiblePairOnTheRealSchema) {
  const auto& real = gen::testing::real_schema();
  ASSERT_TRUE(real.ir) << real.error;
  const schema::Ir& ir = *real.ir;
  SchemaCoverage cov(ir);
  const std::size_t impossible_before = cov.never_visited().size() + cov.always_rejected().size();
  const std::size_t possible_before = cov.possible_accepted() + cov.possible_rejected();
  ASSERT_GT(impossible_before, 0u) << "the pinned schema has a tagless arm: the analysis should find it";
  decoder::Decoder d(ir);
  gen::ValueGenerator generator(ir);
  gen::Mutator mutator(ir);
  for (const auto& root : ir.roots) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      json::Value v = generator.valid(root, seed);
      SchemaCoverage::Probe probe;
      auto r = d.check(root, v, &probe);
      cov.finish(probe, r.accepted);
      for (std::uint64_t m = 0; m < 4; ++m) feed(cov, d, root, mutator.any(root, v, seed * 31 + m).bytes);
    }
  }
  EXPECT_EQ(cov.never_visited().size() + cov.always_rejected().size(), impossible_before);
  EXPECT_EQ(cov.possible_accepted() + cov.possible_rejected(), possible_before);
  EXPECT_GT(cov.percent(), cov.percent_all());
}

}  // namespace
}  // namespace crosscheck::campaign
