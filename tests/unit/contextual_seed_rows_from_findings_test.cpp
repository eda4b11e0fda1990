// scenario_seed_seed_test.cpp: scenario rows from layer-3 findings (crosscheck scenarios seed) on the
// real schema: content ids that ignore the row id and member order but not number spellings, the
// reference host's expectation (a derived result, a rejection, an SDK acceptance the host refuses),
// SDKs listed for review, skipped findings, duplicates, byte-identical output whatever the finding
// order, and merge conflicts naming both ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gen_test_support.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/seed/rows_from_findings.hpp"
#include "run/finding_file.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario_seed {
namespace {

json::Value v(const std::string& text) {
  auto parsed = json::parse(text);
  EXPECT_TRUE(parsed.ok()) << text;
  return parsed.ok() ? std::move(parsed.value()) : json::Value();
}

const canonical::CanonicalValidator& validator() {
  static const canonical::CanonicalValidator* loaded = [] {
    const auto& real = gen::testing::real_schema();
    if (!real.ir) return static_cast<canonical::CanonicalValidator*>(nullptr);
    auto made = canonical::CanonicalValidator::from_ir(*real.ir);
    return made.ok() ? new canonical::CanonicalValidator(std::move(made.value())) : nullptr;
  }();
  if (!loaded) throw Fatal("the real schema bundle: " + gen::testing::real_schema().error);
  return *loaded;
}

std::string request(const std::string& id, const std::string& input = R"({"task":1})") {
  return R"({"jsonrpc":"2.0","id":")" + id +
         R"(","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":")" + id +
         R"(","source":"urn:crosscheck:scenario","type":"tool.before","time":"2026-12-01T00:00:00Z",)"
         R"("harness":{"name":"crosscheck","version":"0.1.0"},"call":{"id":"c"},"path":"native",)"
         R"("tool":{"name":"task","input":)" +
         input +
         R"(,"origin":"native"}},"capabilities":{"effects":["deny","allow","modify","message"],)"
         R"("modify":{"input":{"replace":true,"merge":true}}}}})";
}

std::string response(const std::string& id, const std::string& effects) {
  return R"({"jsonrpc":"2.0","id":")" + id + R"(","result":{"protocolVersion":"draft","effects":)" + effects +
         "}}";
}

/// A layer-3 finding of the row (id, request, response) on which `sdk` answered `actual`.
baseline::RunFinding finding(const std::string& name, const std::string& id, const std::string& effects,
                             const std::string& sdk_actual, const std::string& req = "") {
  baseline::RunFinding rf;
  rf.path = "findings/" + name + ".json";
  run::Finding& f = rf.finding;
  f.root = "intercept_response";
  f.input = R"({"id":")" + id + R"(","tags":["mine","rule:old"],"request":)" +
            (req.empty() ? request(id) : req) + R"(,"response":)" + response(id, effects) +
            R"(,"expected":{"decision":"ask"}})";
  core::Divergence d;
  d.cls = core::DivergenceClass::kContextualResult;
  d.layer = run::kContextualLayer;
  f.divergences.push_back(d);
  core::ImplResult sdk;
  sdk.implementation = "sdk-x";
  sdk.outcome = sdk_actual == R"({"rejected":true})" ? core::Outcome::kRejected : core::Outcome::kAccepted;
  sdk.encoded = sdk_actual;
  f.results.push_back(sdk);
  f.scenario = run::ScenarioCase{run::kScenarioClients, "dir/rows.json", id, {"sdk-x"}, "", "", {}};
  f.scenario->entries.push_back(
      {"sdk-x", "failed", "derived", std::nullopt, std::nullopt, std::nullopt, {}, ""});
  return rf;
}

json::Value row_of(const SeedResult& r, std::size_t i) { return v(r.added.at(i).text); }

TEST(ScenarioSeed, IdsIgnoreTheRowIdAndMemberOrderButNotSpellings) {
  const std::string id = seeded_id(v(request("a")), v(response("a", "[]")));
  EXPECT_EQ(id.size(), 5u + 16u);
  EXPECT_EQ(id.rfind("seed-", 0), 0u);
  EXPECT_EQ(id, seeded_id(v(request("b")), v(response("b", "[]"))));
  // Member order does not count.
  EXPECT_EQ(id,
            seeded_id(v(request("a")),
                      v(R"({"result":{"effects":[],"protocolVersion":"draft"},"id":"a","jsonrpc":"2.0"})")));
  // A response that answers another id is another row; so is another spelling of a number.
  EXPECT_NE(id, seeded_id(v(request("a")), v(response("other", "[]"))));
  EXPECT_NE(seeded_id(v(request("a", R"({"task":1})")), v(response("a", "[]"))),
            seeded_id(v(request("a", R"({"task":1.0})")), v(response("a", "[]"))));
}

TEST(ScenarioSeed, ExpectationsComeFromTheReferenceHost) {
  std::vector<baseline::RunFinding> findings{
      // The SDK allowed where a deny effect denies.
      finding("f-deny", "deny", R"([{"type":"deny","reason":"no"}])",
              R"({"decision":"allow","executed":true,"input":{"task":1},"messages":[]})"),
      // An unadvertised effect: the SDK derived a result, the reference rejects.
      finding("f-ask", "ask", R"([{"type":"ask"}])",
              R"({"decision":"ask","executed":false,"input":{"task":1},"messages":[]})"),
      // The synthetic host's tool contract refuses task 0 after SDK acceptance; the SDK rejected (meets it).
      finding("f-host", "host",
              R"([{"type":"modify","target":"input","operation":"replace","value":{"task":0}}])",
              R"({"rejected":true})")};
  SeedResult r = seed_scenarios(validator(), findings, nullptr, "out.json");
  ASSERT_EQ(r.added.size(), 3u);
  std::map<std::string, json::Value> by_origin;
  for (std::size_t i = 0; i < r.added.size(); ++i) by_origin[r.added[i].origin] = row_of(r, i);
  const json::Value& deny = by_origin.at("rows.json row deny");
  EXPECT_EQ(json::write(*deny.find("expected")),
            R"({"decision":"deny","executed":false,"input":{"task":1},"messages":[]})");
  EXPECT_EQ(
      json::write(*deny.find("tags")),
      R"(["mine","seeded","boundary:tool.before","rule:accepted","rule:omitted-state","rule:permission-precedence",)"
      R"("rule:execution"])");
  const json::Value& ask = by_origin.at("rows.json row ask");
  EXPECT_TRUE(ask.find("expectError")->as_bool());
  EXPECT_EQ(ask.find("expected"), nullptr);
  EXPECT_EQ(json::write(*ask.find("tags")),
            R"(["mine","seeded","boundary:tool.before","rule:effect-not-advertised"])");
  const json::Value& host = by_origin.at("rows.json row host");
  EXPECT_TRUE(host.find("expectError")->as_bool());
  ASSERT_NE(host.find("hostExpected"), nullptr);
  EXPECT_EQ(json::write(*host.find("hostExpected")->find("input")), R"({"task":0})");
  // The SDK that allowed the deny and the one that derived the rejected ask are listed; the rejection
  // of the host-refused row meets its expectError.
  ASSERT_EQ(r.review.size(), 2u);
  for (const auto& s : r.review) {
    ASSERT_EQ(s.disagreements.size(), 1u);
    EXPECT_EQ(s.disagreements[0].implementation, "sdk-x");
  }
  auto review = v(r.review_text);
  EXPECT_EQ(review.find("rows")->items().size(), 2u);
}

TEST(ScenarioSeed, SkipsDuplicatesAndIsStableWhateverTheOrder) {
  const std::string allow = R"({"decision":"allow","executed":true,"input":{"task":1},"messages":[]})";
  baseline::RunFinding structural = finding("f-0", "s", "[]", allow);
  structural.finding.scenario.reset();
  structural.finding.divergences[0].layer = "structural";
  std::vector<baseline::RunFinding> findings{finding("f-1", "one", R"([{"type":"allow"}])", allow),
                                             finding("f-2", "two", R"([{"type":"allow"}])", allow),
                                             finding("f-3", "bad", "[]", allow, request("bad", "[]")),
                                             structural};
  SeedResult a = seed_scenarios(validator(), findings, nullptr, "out.json");
  std::reverse(findings.begin(), findings.end());
  SeedResult b = seed_scenarios(validator(), findings, nullptr, "out.json");
  ASSERT_EQ(a.added.size(), 1u);
  EXPECT_EQ(a.duplicates, 1u);
  EXPECT_EQ(a.added[0].finding, "findings/f-1.json");  // the smallest file name stands for the row
  EXPECT_EQ(a.skipped.at("not a layer-3 finding"), 1u);
  EXPECT_EQ(a.skipped.at("request not canonical on the snapshot (the reference host has no answer)"), 1u);
  EXPECT_EQ(a.scenario_text, b.scenario_text);
  EXPECT_EQ(a.review_text, b.review_text);
}

TEST(ScenarioSeed, MergeKeepsRowsLeavesDuplicatesOutAndRefusesConflicts) {
  const std::string allow = R"({"decision":"allow","executed":true,"input":{"task":1},"messages":[]})";
  auto existing = [&](const std::string& expectation) {
    std::string text = R"({"version": 1, "scenarios": [
{"id": "mine", "request": )" +
                       request("mine") + R"(, "response": )" + response("mine", R"([{"type":"allow"}])") +
                       ", " + expectation + "}\n]}\n";
    auto parsed = scenario::parse_scenario_text(text, "merge.json");
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().text());
    return std::move(parsed.value());
  };
  std::vector<baseline::RunFinding> findings{finding("f-1", "one", R"([{"type":"allow"}])", allow),
                                             finding("f-2", "two", "[]", allow)};
  scenario::ScenarioFile same = existing(R"("expected": {"decision": "allow"})");
  SeedResult r = seed_scenarios(validator(), findings, &same, "merge.json");
  EXPECT_EQ(r.duplicates, 1u);
  ASSERT_EQ(r.added.size(), 1u);
  EXPECT_EQ(r.scenario_text.find(same.rows[0].raw),
            std::string("{\"version\": 1, \"scenarios\": [\n").size());

  scenario::ScenarioFile other = existing(R"("expectError": true)");
  try {
    seed_scenarios(validator(), findings, &other, "merge.json");
    FAIL() << "a conflicting row was accepted";
  } catch (const Fatal& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("merge.json: row mine expectError, but the reference host says accepted"),
              std::string::npos)
        << what;
    EXPECT_NE(
        what.find("seeded id " + seeded_id(v(request("one")), v(response("one", R"([{"type":"allow"}])")))),
        std::string::npos)
        << what;
    EXPECT_EQ(e.code(), kExitUsage);
  }
}

TEST(ScenarioSeed, AnInputThatIsNotARowNamesTheFileAndField) {
  baseline::RunFinding bad = finding("f-1", "one", "[]", "{}");
  bad.finding.input = R"({"request": {}})";
  try {
    seed_scenarios(validator(), {bad}, nullptr, "out.json");
    FAIL() << "a finding without a response was seeded";
  } catch (const Fatal& e) {
    EXPECT_NE(std::string(e.what()).find("findings/f-1.json: field 'input': no response"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace crosscheck::scenario_seed
