// scenario_finding_writer_test.cpp: a scenario row's differences become one run-folder finding
// (crosscheck-finding/1 with "scenario") that src/run reads back against its schema, whose buckets
// hash the scenario signatures, and whose blame (src/verdict) follows the reference.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "run/finding_file.hpp"
#include "schema/sha256.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::scenario {
namespace {

namespace fs = std::filesystem;
using core::DivergenceClass;
using core::Outcome;

json::Value v(std::string_view text) {
  auto p = json::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? std::move(p.value()) : json::Value();
}

Row tool_row() {
  std::string text =
      R"({"version":1,"scenarios":[{"id":"x","request":{"id":"x","params":{"event":{"id":"x","type":"tool.before"}}},)"
      R"("response":{"id":"x","note":"<script>"},"expected":{"decision":"allow","executed":true}}]})";
  auto f = parse_scenario_text(text, "t.json");
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().text());
  return f.ok() ? f->rows[0] : Row{};
}

RowResult result(const std::string& status, const std::string& actual, const std::string& error = "") {
  RowResult r;
  r.status = status;
  r.actual = v(actual);
  r.error = error;
  return r;
}

const core::Divergence* of_class(const run::Finding& f, DivergenceClass cls) {
  for (const auto& d : f.divergences)
    if (d.cls == cls) return &d;
  return nullptr;
}

TEST(ScenarioFinding, OneFindingPerRowReadBackThroughRun) {
  Row row = tool_row();
  RowResult cpp = result("passed", R"({"decision":"allow","executed":true})");
  RowResult python = result("passed", R"({"decision":"allow","executed":true})");
  RowResult rust = result("failed", R"({"rejected":true})", "unknown effect");
  ClientResults results{{"cpp", &cpp}, {"python", &python}, {"rust", &rust}};
  auto differences = compare_row(row, results);
  auto f = row_finding(row, differences, results, {"t.json", {"python", "rust"}, "/c.json", ""});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->root, "intercept_response");
  EXPECT_EQ(f->input, row.raw);  // the row's exact bytes are the payload
  const auto* acceptance = of_class(*f, DivergenceClass::kContextualAcceptance);
  ASSERT_NE(acceptance, nullptr);
  EXPECT_EQ(acceptance->layer, run::kContextualLayer);
  EXPECT_EQ(acceptance->signature,
            "contextual-acceptance/tool.before/cpp=derived,python=derived,rust=rejected");
  EXPECT_EQ(acceptance->bucket, schema::sha256_hex(acceptance->signature).substr(0, 16));
  EXPECT_EQ(acceptance->implementations, (std::vector<std::string>{"cpp", "python", "rust"}));
  const auto* expectation = of_class(*f, DivergenceClass::kContextualExpectation);
  ASSERT_NE(expectation, nullptr);
  EXPECT_EQ(expectation->signature, "contextual-expectation/rust/tool.before/rejected");
  EXPECT_EQ(f->divergences.size(), 2u);
  // Blame by the reference's answer, not by a majority.
  EXPECT_EQ(verdict::blame(*acceptance, f->results).deviating, (std::vector<std::string>{"rust"}));
  EXPECT_EQ(verdict::blame(*expectation, f->results).basis, verdict::Basis::kOwnFailure);

  fs::path dir = fs::temp_directory_path() / ("crosscheck-scenario-finding-" + std::to_string(getpid()));
  fs::remove_all(dir);
  run::FindingStore store(dir.string());
  std::string path = write_row_finding(store, *f);
  EXPECT_EQ(fs::path(path).filename().string(), run::finding_file_name(*f));
  auto back = run::FindingStore::load(path);  // checked against schemas/finding.schema.json
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_TRUE(back->scenario.has_value());
  EXPECT_EQ(back->scenario->mode, run::kScenarioClients);
  EXPECT_EQ(back->scenario->id, "x");
  EXPECT_EQ(back->scenario->clients, (std::vector<std::string>{"python", "rust"}));
  EXPECT_EQ(back->scenario->client_config, "/c.json");
  ASSERT_EQ(back->scenario->entries.size(), 3u);
  EXPECT_EQ(back->scenario->entries[2].answer, "rejected");
  EXPECT_EQ(*back->scenario->entries[2].expectation, "rejected the response where a result was expected");
  ASSERT_EQ(back->results.size(), 3u);
  EXPECT_EQ(back->results[1].outcome, Outcome::kAccepted);
  EXPECT_EQ(*back->results[1].encoded, R"({"decision":"allow","executed":true})");
  EXPECT_EQ(back->results[2].outcome, Outcome::kRejected);
  EXPECT_EQ(*back->results[2].message, "unknown effect");
  EXPECT_EQ(back->replay, "crosscheck replay " + path);
  run::Finding written = *f;
  written.replay = back->replay;
  EXPECT_EQ(json::write(run::finding_to_json(back.value())), json::write(run::finding_to_json(written)));
  fs::remove_all(dir);
}

TEST(ScenarioFinding, ResultBlameIsTheClientsThatDifferFromTheReference) {
  Row row = tool_row();
  RowResult cpp = result("passed", R"({"decision":"allow","executed":true})");
  RowResult a = result("passed", R"({"decision":"allow","executed":true})");
  RowResult b = result("failed", R"({"decision":"deny","executed":false})");
  ClientResults results{{"cpp", &cpp}, {"fake-a", &a}, {"fake-b", &b}};
  auto f = row_finding(row, compare_row(row, results), results, {"t.json", {"fake-a", "fake-b"}, "", ""});
  ASSERT_TRUE(f.has_value());
  const auto* d = of_class(*f, DivergenceClass::kContextualResult);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->signature, "contextual-result/tool.before/decision,executed");
  EXPECT_EQ(d->implementations, (std::vector<std::string>{"cpp", "fake-b"}));
  verdict::Blame blame = verdict::blame(*d, f->results);
  EXPECT_EQ(blame.deviating, (std::vector<std::string>{"fake-b"}));
  EXPECT_EQ(blame.basis, verdict::Basis::kReference);
  // A baseline entry saying the reference is wrong: it and the client that derived as it did.
  verdict::Blame moved = verdict::blame(*d, f->results, {true});
  EXPECT_EQ(moved.deviating, (std::vector<std::string>{"cpp", "fake-a"}));
  EXPECT_EQ(moved.basis, verdict::Basis::kReferenceWrong);
}

TEST(ScenarioFinding, ABrokenBatchIsTheClientsOwnFailureAndNothingElseIsNoFinding) {
  Row row = tool_row();
  RowResult cpp = result("passed", R"({"decision":"allow","executed":true})");
  RowResult ok = result("passed", R"({"decision":"allow","executed":true})");
  RowResult hung = result("timeout", "null", "no report within 15 s");
  ClientResults agree{{"cpp", &cpp}, {"fake-a", &ok}};
  EXPECT_FALSE(row_finding(row, compare_row(row, agree), agree, {"t.json", {"fake-a"}, "", ""}).has_value());
  ClientResults broken{{"cpp", &cpp}, {"fake-a", &hung}};
  auto f = row_finding(row, compare_row(row, broken), broken, {"t.json", {"fake-a"}, "", ""});
  ASSERT_TRUE(f.has_value());
  ASSERT_EQ(f->divergences.size(), 1u);
  EXPECT_EQ(f->divergences[0].cls, DivergenceClass::kTimeout);
  EXPECT_EQ(f->divergences[0].signature, "timeout/tool.before/fake-a");
  EXPECT_FALSE(f->divergences[0].implementation_defined);
  EXPECT_EQ(run::finding_file_name(*f).rfind("timeout-fake-a-", 0), 0u);
}

}  // namespace
}  // namespace crosscheck::scenario
