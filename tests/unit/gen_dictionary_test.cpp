// gen_dictionary_test.cpp: dictionary_tokens on the real bundle: every member name, enum value and
// tag of the IR is there once, as a quoted JSON string, in sorted order.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "gen/generator.hpp"
#include "gen_test_support.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {
namespace {

TEST(GenDictionary, QuotedSortedUniqueAndComplete) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const schema::Ir& ir = *testing::real_schema().ir;
  const std::vector<std::string> tokens = dictionary_tokens(ir);
  ASSERT_FALSE(tokens.empty());
  EXPECT_TRUE(std::is_sorted(tokens.begin(), tokens.end()));
  EXPECT_EQ(std::adjacent_find(tokens.begin(), tokens.end()), tokens.end()) << "duplicates";
  for (const std::string& t : tokens) {
    auto parsed = json::parse(t);
    ASSERT_TRUE(parsed.ok() && parsed.value().is_string()) << t;
    EXPECT_EQ(json::quote(parsed.value().string_value()), t);
  }
  // Independently of the implementation: what the IR's JSON layout mentions must be there.
  const std::set<std::string> have(tokens.begin(), tokens.end());
  std::size_t expected = 0;
  std::function<void(const json::Value&)> visit = [&](const json::Value& v) {
    if (v.is_object()) {
      const json::Value* kind = v.find("kind");
      if (const json::Value* name = v.find("wire_name"); name && name->is_string()) {
        ++expected;
        EXPECT_TRUE(have.count(json::quote(name->string_value()))) << name->string_value();
      }
      if (kind && kind->is_string() && kind->string_value() == "literal" && v.find("value")->is_string()) {
        ++expected;
        EXPECT_TRUE(have.count(json::quote(v.find("value")->string_value())))
            << v.find("value")->string_value();
      }
      if (kind && kind->is_string() && kind->string_value() == "enum") {
        for (const auto& e : v.find("values")->items()) {
          if (!e.is_string()) continue;
          ++expected;
          EXPECT_TRUE(have.count(json::quote(e.string_value()))) << e.string_value();
        }
      }
      for (const auto& m : v.members()) visit(m.value);
    } else if (v.is_array()) {
      for (const auto& item : v.items()) visit(item);
    }
  };
  visit(ir.to_json());
  EXPECT_GT(expected, 500u);
  EXPECT_TRUE(have.count("\"jsonrpc\"") && have.count("\"tool.before\""));
}

}  // namespace
}  // namespace crosscheck::gen
