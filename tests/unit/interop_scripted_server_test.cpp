// scenario_scripted_server_test.cpp: the scripted server's replies and receipts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "interop/scripted_server.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::scenario {
namespace {

const char* kFile = R"({"version":1,"scenarios":[
{"id":"a","request":{"id":"a","method":"hooks/intercept","params":{"event":{"id":"a"}}},
 "response":{"jsonrpc":"2.0","id":"a","result":{"effects":[{"type":"org.example.unknown"}],"n":1.0E+2,"s":"\u0041"}},
 "expectError":true}]})";

TEST(ScriptedServer, AnswersByteForByteAndRecordsEverything) {
  auto file = parse_scenario_text(kFile, "s.json");
  ASSERT_TRUE(file.ok()) << file.error().text();
  std::string path =
      std::filesystem::temp_directory_path() / ("receipts-" + std::to_string(::getpid()) + ".jsonl");
  std::filesystem::remove(path);
  {
    ReceiptWriter writer(path);
    ScriptedServer server(file.value(), &writer);
    std::string discovery =
        server.answer(R"({"jsonrpc":"2.0","id":"d","method":"hooks/capabilities","params":{}})");
    auto parsed = json::parse(discovery);
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(json::write(*parsed->find("id")), "\"d\"");
    EXPECT_TRUE(parsed->find("result")->find("manifest")->contains("events"));
    // The invalid response arrives unrepaired, spelled as the file spells it.
    std::string same = R"({"id":"a","method":"hooks/intercept","params":{"event":{"id":"a"}}})";
    EXPECT_EQ(
        server.answer(same),
        R"({"jsonrpc":"2.0","id":"a","result":{"effects":[{"type":"org.example.unknown"}],"n":1.0E+2,"s":"\u0041"}})");
    EXPECT_NE(server.answer(R"({"id":"a","method":"hooks/intercept","params":{"event":{"id":"a","x":1}}})")
                  .find("1.0E+2"),
              std::string::npos);
    EXPECT_NE(server.answer(R"({"id":"zz","method":"hooks/intercept","params":{}})").find("\"error\""),
              std::string::npos);
    EXPECT_NE(server.answer("{not json").find("\"error\""), std::string::npos);
  }
  ReceiptFile receipts = read_receipts(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(receipts.notes.empty());
  ASSERT_EQ(receipts.receipts.size(), 5u);
  EXPECT_EQ(receipts.receipts[0].reply, "discovery");
  EXPECT_TRUE(receipts.receipts[1].problems.empty());
  EXPECT_EQ(receipts.receipts[1].scenario, "a");
  EXPECT_EQ(receipts.receipts[2].problems, (std::vector<std::string>{"differs", "repeat"}));
  EXPECT_EQ(receipts.receipts[2].differences, (std::vector<std::string>{"/params/event/x"}));
  EXPECT_EQ(receipts.receipts[3].problems, (std::vector<std::string>{"unknown-id"}));
  EXPECT_EQ(receipts.receipts[4].problems, (std::vector<std::string>{"unparsable"}));
  EXPECT_EQ(receipts.receipts[4].bytes, "{not json");
}

}  // namespace
}  // namespace crosscheck::scenario
