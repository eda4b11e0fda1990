// catalogue_rule_catalogue_test.cpp: the shipped rule catalogue against the tables it names (every
// family, divergence class, host rule and unit test it names exists; every family of every layer and
// every host rule is in it), bad catalogues, and the rules a finding breaks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "catalogue/rule_catalogue.hpp"
#include "core/divergence.hpp"
#include "exec/adapter_config.hpp"
#include "gen/canonical_generator.hpp"
#include "gen/generator.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "layers/contextual/host/host.hpp"
#include "util/result.hpp"

namespace crosscheck::catalogue {
namespace {

core::Divergence of_class(core::DivergenceClass c) {
  core::Divergence d;
  d.cls = c;
  return d;
}

RuleCatalogue shipped() { return read_rule_catalogue(shipped_catalogue_path(exec::repository_root())); }

std::set<std::string> family_names() {
  std::set<std::string> out;
  for (auto m : gen::all_mutations()) out.insert(gen::mutation_name(m));
  for (auto m : gen::canonical_mutations()) out.insert(gen::mutation_name(m));
  for (const auto& f : scenario_gen::families()) out.insert(f.name);
  return out;
}

std::set<std::string> host_rule_names() {
  std::set<std::string> out;
  for (const auto& r : host::rules()) out.insert(r.name);
  return out;
}

// "Suite.Name", or "Suite.Prefix*": some registered test of this binary matches.
bool test_exists(const std::string& pattern) {
  const auto* unit = ::testing::UnitTest::GetInstance();
  bool prefix = !pattern.empty() && pattern.back() == '*';
  std::string want = prefix ? pattern.substr(0, pattern.size() - 1) : pattern;
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      std::string name = std::string(suite->name()) + "." + suite->GetTestInfo(j)->name();
      if (prefix ? name.rfind(want, 0) == 0 : name == want) return true;
    }
  }
  return false;
}

TEST(RuleCatalogue, EveryFamilyClassHostRuleAndTestItNamesExists) {
  RuleCatalogue c = shipped();
  ASSERT_GT(c.rules.size(), 50u);
  auto families = family_names();
  auto host_rules = host_rule_names();
  for (const auto& r : c.rules) {
    SCOPED_TRACE(r.id);
    for (const auto& f : r.families) EXPECT_TRUE(families.count(f)) << "no family " << f;
    for (const auto& k : r.classes) EXPECT_TRUE(core::parse_class(k).has_value()) << "no class " << k;
    for (const auto& h : r.host_rules) EXPECT_TRUE(host_rules.count(h)) << "no host rule " << h;
    for (const auto& t : r.tests) EXPECT_TRUE(test_exists(t)) << "no test " << t;
    EXPECT_EQ(r.status == "checked", r.why.empty());
  }
}

TEST(RuleCatalogue, EveryFamilyOfEveryLayerAndEveryHostRuleIsInIt) {
  RuleCatalogue c = shipped();
  std::set<std::string> named_families, named_host_rules;
  for (const auto& r : c.rules) {
    named_families.insert(r.families.begin(), r.families.end());
    named_host_rules.insert(r.host_rules.begin(), r.host_rules.end());
  }
  for (const auto& f : family_names())
    EXPECT_TRUE(named_families.count(f)) << "family " << f << " in no rule";
  for (const auto& h : host_rule_names())
    EXPECT_TRUE(named_host_rules.count(h)) << "host rule " << h << " in no rule";
}

std::string write(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::path(CROSSCHECK_BINARY_DIR) / "test-out" / "rule-catalogue";
  std::filesystem::create_directories(dir);
  auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

void expect_fatal(const std::string& path, const std::string& needle) {
  try {
    read_rule_catalogue(path);
    ADD_FAILURE() << path << " was read";
  } catch (const Fatal& e) {
    EXPECT_EQ(e.code(), kExitUsage);
    std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << what;
  }
}

TEST(RuleCatalogue, BadCataloguesNameTheFileAndTheField) {
  const std::string head = R"({"format":"crosscheck-rule-catalogue/1","rules":[)";
  const std::string good = R"({"id":"a.b","layer":"structural","rule":"r","status":"checked","checks":{}})";
  expect_fatal(write("missing.json", "") + ".nope", "cannot be read");
  expect_fatal(write("not-json.json", "{"), "not JSON");
  expect_fatal(
      write("no-why.json",
            head + R"({"id":"a.b","layer":"canonical","rule":"r","status":"partial","checks":{}}]})"),
      "why");
  expect_fatal(write("status.json",
                     head + R"({"id":"a.b","layer":"canonical","rule":"r","status":"maybe","checks":{}}]})"),
               "status");
  expect_fatal(write("dup.json", head + good + "," + good + "]}"), "unique id");
  expect_fatal(
      write(
          "check.json",
          head +
              R"({"id":"a.b","layer":"canonical","rule":"r","status":"checked","checks":{"family":["x"]}}]})"),
      "family");
  EXPECT_EQ(read_rule_catalogue(write("good.json", head + good + "]}")).rules.size(), 1u);
}

TEST(RuleCatalogue, AFindingBreaksTheRulesOfItsFamilyAndClass) {
  RuleCatalogue c = shipped();
  run::Finding f;
  f.source = "unknown-member: a member at /params";
  f.divergences.push_back(of_class(core::DivergenceClass::kRoundTripSelf));
  auto ids = rules_broken_by(c, f);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "codec.unknown-member.preserve"), ids.end());
  // As fuzz writes it: the generation step's source inside "fuzz iteration N (...)".
  f.source = "fuzz iteration 41 (unknown-member: a member at /params)";
  EXPECT_EQ(origin_of(f).family, "unknown-member");
  EXPECT_EQ(rules_broken_by(c, f), ids);
  // A class the rule does not list: the family alone ties it to nothing.
  f.divergences = {of_class(core::DivergenceClass::kCanonicalAcceptance)};
  EXPECT_TRUE(rules_broken_by(c, f).empty());
  // Corpus bytes name no family.
  f.source = "corpus bytes";
  EXPECT_TRUE(rules_broken_by(c, f).empty());
  // Layer 3: the generated row's family and host rule tags.
  run::Finding row;
  row.scenario = run::ScenarioCase{};
  row.input =
      R"({"id":"g1","tags":["generated","family:wrong-id","boundary:tool.before","rule:id-correlation"]})";
  row.divergences = {of_class(core::DivergenceClass::kContextualAcceptance)};
  EXPECT_EQ(origin_of(row).family, "wrong-id");
  EXPECT_EQ(origin_of(row).host_rule, "id-correlation");
  EXPECT_EQ(rules_broken_by(c, row), std::vector<std::string>{"host.id-correlation"});
}

}  // namespace
}  // namespace crosscheck::catalogue
