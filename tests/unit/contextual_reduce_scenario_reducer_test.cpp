// reduce_scenario_reducer_test.cpp: the layer-3 reducer against in-process oracles (no client
// processes): batching under renamed ids, one row per call when the bucket follows the id, the walk
// back when a batched result does not confirm under the real id, and the row checks. The real clients
// and canonical screening are in tests/integration/reduce_scenarios.sh.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/reduce/scenario_reducer.hpp"

namespace crosscheck::reduce {
namespace {

const char* kRow = R"({"id": "orig", "comment": "a comment that is long enough to be worth dropping",
  "tags": ["a", "b", "c"],
  "request": {"jsonrpc": "2.0", "id": "orig", "method": "hooks/intercept", "params": {"protocolVersion": "draft",
    "event": {"id": "orig", "type": "tool.before", "tool": {"name": "write", "input": {"task": 1, "path": "/a/b/c"}}},
    "capabilities": {"effects": ["allow", "message", "modify"], "modify": {"input": {"merge": true}}}}},
  "response": {"jsonrpc": "2.0", "id": "orig", "result": {"protocolVersion": "draft", "effects": [
    {"type": "allow"}, {"type": "message", "text": "the needle message"}, {"type": "allow"},
    {"type": "modify", "target": "input", "operation": "merge", "value": {"x": [1, 2, 3]}}]}},
  "expected": {"decision": "allow", "messages": ["the needle message"]}})";

scenario::Row parse(const std::string& text) {
  auto file = scenario::parse_scenario_text("{\"version\": 1, \"scenarios\": [" + text + "]}", "test");
  EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().text());
  return file.value().rows.front();
}

/// The planted fault: a response effect of type message.
bool has_message(const scenario::Row& row) {
  const json::Value* result = row.response().is_object() ? row.response().find("result") : nullptr;
  const json::Value* effects = result && result->is_object() ? result->find("effects") : nullptr;
  if (!effects || !effects->is_array()) return false;
  for (const auto& e : effects->items()) {
    const json::Value* type = e.is_object() ? e.find("type") : nullptr;
    if (type && type->is_string() && type->string_value() == "message") return true;
  }
  return false;
}

run::Finding finding_with(const scenario::Row& row, const std::string& bucket) {
  run::Finding f;
  f.root = "intercept_response";
  f.input = row.raw;
  core::Divergence d{};
  d.bucket = bucket;
  f.divergences.push_back(d);
  return f;
}

struct Counting {
  std::vector<std::size_t> batch_sizes;
  std::vector<std::string> ids;
};

/// An oracle that gives bucket "b1" to rows `keeps` accepts, and counts what it was asked.
ScenarioOracle oracle(Counting& seen, std::function<bool(const scenario::Row&)> keeps) {
  return [&seen, keeps](const std::vector<scenario::Row>& rows) {
    seen.batch_sizes.push_back(rows.size());
    std::vector<std::optional<run::Finding>> out;
    for (const auto& r : rows) {
      seen.ids.push_back(r.id);
      if (keeps(r)) {
        out.push_back(finding_with(r, "b1"));
      } else {
        out.push_back(std::nullopt);
      }
    }
    return out;
  };
}

TEST(ScenarioReducer, BatchedUnderRenamedIdsKeepsTheIdAndTheFault) {
  const scenario::Row row = parse(kRow);
  Counting seen;
  ScenarioReduceOptions options;
  options.budget = 200;
  auto r = reduce_scenario(row, "b1", oracle(seen, has_message), options);
  ASSERT_TRUE(r.reproduced);
  EXPECT_TRUE(r.batched);
  EXPECT_FALSE(r.walked_back);
  EXPECT_FALSE(r.budget_exhausted);
  const scenario::Row small = parse(r.input);
  EXPECT_EQ(small.id, "orig");
  EXPECT_EQ(small.request().find("id")->string_value(), "orig");
  EXPECT_TRUE(has_message(small));
  EXPECT_LT(row_size(r.input), row_size(row.raw) / 2);
  EXPECT_EQ(small.value.find("comment"), nullptr);  // dropped: the bucket does not need it
  EXPECT_LE(r.calls, options.budget);
  EXPECT_EQ(r.calls, seen.batch_sizes.size());
  std::size_t biggest = 0;
  for (auto n : seen.batch_sizes) biggest = std::max(biggest, n);
  EXPECT_GT(biggest, 1u);  // candidates really went out together
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->input, r.input);  // the oracle's answer under the real id
}

TEST(ScenarioReducer, OneRowPerCallWhenTheBucketFollowsTheId) {
  const scenario::Row row = parse(kRow);
  Counting seen;
  ScenarioReduceOptions options;
  options.budget = 400;
  auto keeps = [](const scenario::Row& r) { return r.id == "orig" && has_message(r); };
  auto r = reduce_scenario(row, "b1", oracle(seen, keeps), options);
  ASSERT_TRUE(r.reproduced);
  EXPECT_FALSE(r.batched);
  ASSERT_GE(seen.batch_sizes.size(), 2u);
  EXPECT_EQ(seen.batch_sizes.front(), 2u);  // the probe: the original and a renamed copy
  for (std::size_t i = 1; i < seen.batch_sizes.size(); ++i) EXPECT_EQ(seen.batch_sizes[i], 1u);
  for (std::size_t i = 2; i < seen.ids.size(); ++i) EXPECT_EQ(seen.ids[i], "orig");
  const scenario::Row small = parse(r.input);
  EXPECT_EQ(small.id, "orig");
  EXPECT_TRUE(has_message(small));
  EXPECT_LT(row_size(r.input), row_size(row.raw) / 2);
}

TEST(ScenarioReducer, WalksBackWhenTheBatchedResultLosesTheBucketUnderItsId) {
  // Renamed rows keep the bucket with a message; the real id also needs the comment, which the
  // batched search drops: the confirmation fails and the walk back finds a step that has both.
  const scenario::Row row = parse(kRow);
  Counting seen;
  ScenarioReduceOptions options;
  options.budget = 200;
  auto keeps = [](const scenario::Row& r) {
    return has_message(r) && (r.id != "orig" || r.value.find("comment") != nullptr);
  };
  auto r = reduce_scenario(row, "b1", oracle(seen, keeps), options);
  ASSERT_TRUE(r.reproduced);
  EXPECT_TRUE(r.batched);
  EXPECT_TRUE(r.walked_back);
  const scenario::Row kept = parse(r.input);
  EXPECT_TRUE(keeps(kept));
  ASSERT_TRUE(r.finding);
  EXPECT_EQ(r.finding->divergences.front().bucket, "b1");
}

TEST(ScenarioReducer, NotReproducedLeavesTheOriginal) {
  const scenario::Row row = parse(kRow);
  Counting seen;
  auto r = reduce_scenario(row, "b1", oracle(seen, [](const scenario::Row&) { return false; }), {});
  EXPECT_FALSE(r.reproduced);
  EXPECT_EQ(r.input, row.raw);
  EXPECT_EQ(r.calls, 1u);
}

TEST(ScenarioReducer, BudgetIsRespected) {
  const scenario::Row row = parse(kRow);
  Counting seen;
  ScenarioReduceOptions options;
  options.budget = 3;
  options.batch = 4;
  auto r = reduce_scenario(row, "b1", oracle(seen, has_message), options);
  ASSERT_TRUE(r.reproduced);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_LE(r.calls, 3u);
  EXPECT_TRUE(has_message(parse(r.input)));
}

TEST(ScenarioReducer, FindingRowNamesTheFileAndTheField) {
  run::Finding f;
  f.input = kRow;
  auto no_scenario = finding_row("x.json", f);
  ASSERT_FALSE(no_scenario.ok());
  EXPECT_NE(no_scenario.error().find("x.json: field 'scenario'"), std::string::npos);

  f.scenario = run::ScenarioCase{};
  f.scenario->id = "orig";
  EXPECT_TRUE(finding_row("x.json", f).ok());

  f.scenario->id = "another";
  auto other = finding_row("x.json", f);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().find("field 'scenario.id'"), std::string::npos);

  f.scenario->id = "orig";
  auto v = json::parse(kRow).value();
  v.find("request")->find("id")->operator=(json::Value::string("bad"));
  f.input = json::write(v);
  auto bad = finding_row("x.json", f);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("x.json: field 'input'"), std::string::npos) << bad.error();
  EXPECT_NE(bad.error().find("request.id"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace crosscheck::reduce
