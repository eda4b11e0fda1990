// scenario_scenario_file_test.cpp: reading and writing scenario files, exact bytes, bad input.
#include <gtest/gtest.h>

#include <string>

#include "json/write.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {
namespace {

const std::string kData = CROSSCHECK_TEST_DATA "/scenarios/";

std::string error_of(const std::string& text) {
  auto f = parse_scenario_text(text, "f.json");
  return f.ok() ? "ok" : f.error().text();
}

// A row as one line: the request and response keep spellings a re-encoder would change.
const char* kRow = R"({"id": "a", "request": {"id": "a", "params": {"event": {"id": "a", "n": 1.50E1}}},)"
                   "\n  "
                   R"("response": {"jsonrpc":"2.0", "id":"a", "result": {"s": "\u00e9\/", "n": 1E400,)"
                   "\n"
                   R"( "effects": []}}, "expected": {"decision": "allow"}})";

TEST(ScenarioFile, KeepsEachRowsExactBytes) {
  std::string text = std::string("{\"version\": 1, \"scenarios\": [") + kRow + "]}";
  auto f = parse_scenario_text(text, "f.json");
  ASSERT_TRUE(f.ok()) << f.error().text();
  ASSERT_EQ(f->rows.size(), 1u);
  const Row& r = f->rows[0];
  EXPECT_EQ(r.raw, kRow);
  EXPECT_EQ(r.raw_request(), R"({"id": "a", "params": {"event": {"id": "a", "n": 1.50E1}}})");
  EXPECT_EQ(response_line(r),
            R"({"jsonrpc":"2.0", "id":"a", "result": {"s": "\u00e9\/", "n": 1E400, "effects": []}})");
  EXPECT_FALSE(r.expect_error());
  // Written back, the row is byte for byte the same, so a batch file replays what the file says.
  auto again = parse_scenario_text(scenario_file_text({&r}), "g.json");
  ASSERT_TRUE(again.ok()) << again.error().text();
  EXPECT_EQ(again->rows[0].raw, kRow);
}

TEST(ScenarioFile, ReplacingTheRequestKeepsTheResponseBytes) {
  std::string text = std::string("{\"version\": 1, \"scenarios\": [") + kRow + "]}";
  auto f = parse_scenario_text(text, "f.json");
  ASSERT_TRUE(f.ok());
  Row r = f->rows[0];
  json::Value request = r.request();
  request.add("extra", json::Value::boolean(true));
  r.replace_request(request);
  EXPECT_EQ(r.raw_request(), R"({"id":"a","params":{"event":{"id":"a","n":1.50E1}},"extra":true})");
  EXPECT_EQ(response_line(r),
            R"({"jsonrpc":"2.0", "id":"a", "result": {"s": "\u00e9\/", "n": 1E400, "effects": []}})");
  EXPECT_TRUE(r.request().contains("extra"));
}

TEST(ScenarioFile, RefusesBadInputNamingFileRowAndField) {
  EXPECT_EQ(error_of("{\"version\": 1, \"scenarios\": ["),
            "f.json: the document: not JSON: line 1, column 30 (byte 29): expected more input: an array or "
            "object is "
            "not closed");
  auto file = [](const std::string& rows) { return "{\"version\": 1, \"scenarios\": [" + rows + "]}"; };
  std::string ok =
      R"({"id":"x","request":{"id":"x","params":{"event":{"id":"x"}}},"response":{},"expected":{}})";
  EXPECT_EQ(error_of(file(ok)), "ok");
  EXPECT_EQ(error_of(file(ok + "," + ok)),
            "f.json: scenarios[1] (id \"x\"): field 'id': duplicate id \"x\" (first at scenarios[0])");
  EXPECT_EQ(
      error_of(file(R"({"id":"x","request":{"id":"x","params":{"event":{"id":"x"}}},"response":{},)"
                    R"("expected":{},"expectError":true})")),
      "f.json: scenarios[0] (id \"x\"): field 'expectError': expected either 'expected' or 'expectError', "
      "not both");
  EXPECT_EQ(error_of(file(R"({"id":"x","request":{"id":"y","params":{"event":{"id":"x"}}},"response":{},)"
                          R"("expected":{}})")),
            "f.json: scenarios[0] (id \"x\"): field 'request.id': expected the row id \"x\", got \"y\"");
  EXPECT_EQ(error_of(file(R"({"id":"x","request":{"id":"x","params":{"event":{"id":"z"}}},"response":{},)"
                          R"("expected":{}})")),
            "f.json: scenarios[0] (id \"x\"): field 'request.params.event.id': expected the row id \"x\", "
            "got \"z\"");
  EXPECT_EQ(error_of(file(R"({"id":"x","request":{"id":"x","params":{"event":{"id":"x"}}},"response":{}})")),
            "f.json: scenarios[0] (id \"x\"): expected expected or expectError");
  EXPECT_EQ(error_of("{\"version\": 2, \"scenarios\": []}"), "f.json: field 'version': expected 1, got 2");
}

TEST(ScenarioFile, ReadsTheShippedFiles) {
  auto f = read_scenario_file(kData + "composition.json");
  ASSERT_TRUE(f.ok()) << f.error().text();
  EXPECT_EQ(f->rows.size(), 32u);
  ASSERT_NE(f->find("null-effects"), nullptr);
  EXPECT_TRUE(f->find("null-effects")->expect_error());
  auto bad = read_scenario_file(kData + "bad/duplicate-ids.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "scenarios[1] (id \"same\"): field 'id'");
  EXPECT_FALSE(read_scenario_file(kData + "no-such-file.json").ok());
}

}  // namespace
}  // namespace crosscheck::scenario
