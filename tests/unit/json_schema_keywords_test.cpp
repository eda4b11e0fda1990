// json_schema_keywords_test.cpp: every keyword of the canonical subset accepts and refuses what
// tests/data/canonical/keywords.json says, with the exact instance path and keyword of each error.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

Value read_table(const std::string& name) {
  std::ifstream in(std::string(CROSSCHECK_TEST_DATA) + "/canonical/" + name, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto parsed = parse(bytes.str());
  EXPECT_TRUE(parsed.ok()) << name << ": " << (parsed.ok() ? "" : parsed.error().message());
  return parsed.ok() ? std::move(parsed.value()) : Value::object();
}

SchemaSet load_one(const Value& schema) {
  std::vector<SchemaDocument> docs;
  docs.push_back(SchemaDocument{"case", schema});
  auto set = SchemaSet::load(std::move(docs));
  if (!set.ok()) throw std::runtime_error(set.error().text());
  return std::move(set.value());
}

TEST(SchemaKeywords, TableOfAcceptedAndRefusedInstances) {
  Value table = read_table("keywords.json");
  const Value* cases = table.find("cases");
  ASSERT_TRUE(cases && cases->is_array() && cases->items().size() > 30);
  std::set<std::string> keywords;
  for (const Value& c : cases->items()) {
    const std::string keyword = c.find("keyword")->string_value();
    keywords.insert(keyword);
    SCOPED_TRACE(keyword + " " + write(*c.find("schema")));
    SchemaSet set = load_one(*c.find("schema"));
    if (const Value* valid = c.find("valid")) {
      for (const Value& instance : valid->items()) {
        Validation r = set.validate(0, instance);
        EXPECT_TRUE(r.valid) << write(instance)
                             << " refused: " << (r.errors.empty() ? "" : r.errors[0].message);
        EXPECT_TRUE(r.errors.empty());
        EXPECT_FALSE(set.first_error(0, instance)) << write(instance);
      }
    }
    if (const Value* invalid = c.find("invalid")) {
      for (const Value& row : invalid->items()) {
        const Value& instance = row.items()[0];
        Validation r = set.validate(0, instance);
        EXPECT_FALSE(r.valid) << write(instance);
        ASSERT_FALSE(r.errors.empty()) << write(instance);
        EXPECT_EQ(r.errors[0].path, row.items()[1].string_value()) << write(instance);
        EXPECT_EQ(r.errors[0].keyword, row.items()[2].string_value()) << write(instance);
        std::optional<SchemaError> first = set.first_error(0, instance);
        ASSERT_TRUE(first) << write(instance);
        EXPECT_EQ(first->path, r.errors[0].path);
        EXPECT_EQ(first->keyword, r.errors[0].keyword);
      }
    }
    if (const Value* all = c.find("all_errors")) {
      for (const Value& row : all->items()) {
        Validation r = set.validate(0, row.items()[0]);
        std::vector<std::string> paths, expected;
        for (const auto& e : r.errors) paths.push_back(e.path);
        for (const auto& p : row.items()[1].items()) expected.push_back(p.string_value());
        EXPECT_EQ(paths, expected) << write(row.items()[0]);
      }
    }
  }
  // Every keyword of the subset has a row.
  for (const char* k : {"type",          "properties",
                        "required",      "additionalProperties",
                        "propertyNames", "minProperties",
                        "items",         "minItems",
                        "maxItems",      "uniqueItems",
                        "contains",      "const",
                        "enum",          "minLength",
                        "maxLength",     "pattern",
                        "minimum",       "allOf",
                        "anyOf",         "oneOf",
                        "not",           "if",
                        "then",          "else",
                        "$ref",          "format"})
    EXPECT_TRUE(keywords.count(k)) << k;
}

std::vector<std::string> traits_of(std::string_view schema, std::string_view instance) {
  auto s = parse(schema);
  auto i = parse(instance);
  EXPECT_TRUE(s.ok() && i.ok()) << schema << " " << instance;
  SchemaSet set = load_one(s.value());
  return set.validate(0, i.value()).implementation_defined;
}

using Traits = std::vector<std::string>;

TEST(SchemaKeywords, ImplementationDefinedTraits) {
  EXPECT_EQ(traits_of(R"({"pattern":"^_.+"})", R"("_\ud83d\ude00")"), Traits{"pattern-astral"});
  EXPECT_EQ(traits_of(R"({"pattern":"^_[^/]+"})", R"("_\ud83d\ude00")"), Traits{"pattern-astral"});
  EXPECT_EQ(traits_of(R"({"pattern":"^_.+"})", R"("_\u00e9")"), Traits{});  // BMP: u and non-u agree
  EXPECT_EQ(traits_of(R"({"pattern":"^[a-z]+$"})", R"("\ud83d\ude00")"), Traits{});
  EXPECT_EQ(traits_of(R"({"pattern":"\\bx"})", R"("\u00e9x")"), Traits{"pattern-word-boundary"});
  EXPECT_EQ(traits_of(R"({"maxLength":3})", R"("\ud800")"), Traits{"string-lone-surrogate"});
  EXPECT_EQ(traits_of(R"({"type":"string"})", R"("\ud800")"), Traits{});  // no length, pattern or format
  EXPECT_EQ(traits_of(R"({"format":"date-time"})", R"("1998-12-31T23:59:60z")"),
            (Traits{"date-time-leap-second", "date-time-lower-case"}));
  EXPECT_EQ(traits_of(R"({"format":"date-time"})", R"("0000-01-01T00:00:00Z")"),
            Traits{"date-time-year-zero"});
  EXPECT_EQ(traits_of(R"({"minimum":0})", "18446744073709551616"), Traits{"minimum-big-number"});
  EXPECT_EQ(traits_of(R"({"minimum":0})", "-1E-400"), Traits{"minimum-big-number"});
  EXPECT_EQ(traits_of(R"({"minimum":0})", "9007199254740991"), Traits{});
  EXPECT_EQ(traits_of(R"({"minimum":0})", "0.123456789012345"), Traits{});
  EXPECT_EQ(traits_of(R"({"minimum":0})", "0.1234567890123456"), Traits{"minimum-big-number"});
  EXPECT_EQ(traits_of(R"({"type":"integer"})", "1.0000000000000000001"), Traits{"integer-big-number"});
  EXPECT_EQ(traits_of(R"({"type":"integer"})", "1E400"), Traits{"integer-big-number"});
  EXPECT_EQ(traits_of(R"({"enum":[1]})", "1.00000000000000000001"), Traits{"equality-big-number"});
  EXPECT_EQ(traits_of(R"({"uniqueItems":true})", "[9007199254740993, 9007199254740992]"),
            Traits{"equality-big-number"});
  EXPECT_EQ(traits_of(R"({"const":1})", "1.0"), Traits{});
  EXPECT_EQ(traits_of(R"({"type":"object"})", R"({"a":1,"a":2})"), Traits{"duplicate-keys"});
  // Traits met inside a failed anyOf branch are kept: the branch's answer decided the outcome.
  EXPECT_EQ(traits_of(R"({"anyOf":[{"maxLength":0},{"type":"null"}]})", R"("\ud800")"),
            Traits{"string-lone-surrogate"});
}

TEST(SchemaKeywords, MessagesNameWhatWasExpected) {
  SchemaSet set = load_one(parse(R"({"properties":{"n":{"minimum":18446744073709551616},
    "s":{"maxLength":1},"d":{"format":"date-time"},"u":{"format":"uri"}},"required":["gone"],
    "minProperties":9})")
                               .value());
  Validation r = set.validate(0, parse(R"({"n":1,"s":"\ud83d\ude00\ud83d\ude00","d":"x","u":"y"})").value());
  std::vector<std::string> lines;
  for (const auto& e : r.errors) lines.push_back(e.path + " " + e.keyword + ": " + e.message);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       " minProperties: expected at least 9 members",
                       "/n minimum: expected a number >= 18446744073709551616, got 1",
                       "/s maxLength: expected at most 1 characters",
                       "/d format: expected a date-time (RFC 3339 section 5.6), got \"x\"",
                       "/u format: expected an absolute URI (RFC 3986), got \"y\"",
                       " required: required member \"gone\" is missing",
                   }));
}

}  // namespace
}  // namespace crosscheck::json
