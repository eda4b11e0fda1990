// json_schema_formats_test.cpp: the date-time and uri edge tables of tests/data/canonical/, and the
// pattern translation's refusals.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_formats.hpp"
#include "json/schema_regex.hpp"

namespace crosscheck::json {
namespace {

Value table(const std::string& name) {
  std::ifstream in(std::string(CROSSCHECK_TEST_DATA) + "/canonical/" + name, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto parsed = parse(bytes.str());
  EXPECT_TRUE(parsed.ok()) << name;
  return parsed.ok() ? std::move(parsed.value()) : Value::object();
}

TEST(SchemaFormats, DateTimeTable) {
  Value t = table("date-time.json");
  ASSERT_GT(t.find("cases")->items().size(), 40u);
  for (const Value& row : t.find("cases")->items()) {
    const std::string& text = row.items()[0].string_value();
    DateTimeEdges edges;
    EXPECT_EQ(date_time_valid(text, &edges), row.items()[1].as_bool()) << text;
    std::vector<std::string> traits, expected;
    if (edges.leap_second) traits.push_back("date-time-leap-second");
    if (edges.lower_case) traits.push_back("date-time-lower-case");
    if (edges.year_zero) traits.push_back("date-time-year-zero");
    for (const Value& x : row.items()[2].items()) expected.push_back(x.string_value());
    // Edges are only reported for strings that get far enough to have them.
    if (row.items()[1].as_bool() || !expected.empty()) {
      EXPECT_EQ(traits, expected) << text;
    }
  }
}

TEST(SchemaFormats, UriTable) {
  Value t = table("uri.json");
  ASSERT_GT(t.find("cases")->items().size(), 40u);
  for (const Value& row : t.find("cases")->items()) {
    const std::string& text = row.items()[0].string_value();
    EXPECT_EQ(uri_valid(text), row.items()[1].as_bool()) << text;
  }
}

TEST(SchemaRegex, RefusesWhatStdRegexCannotDoAsEcma262) {
  for (const char* refused : {"(?<=a)b", "(?<name>a)", "\\p{L}", "\\k<n>", "(a)\\1", "a{,3}", "[\\D]", "("}) {
    EXPECT_FALSE(EcmaPattern::compile(refused).ok()) << refused;
  }
  EXPECT_TRUE(EcmaPattern::compile("(?=a)a*?[\\d\\w\\s-]\\u00e9\\x41").ok());
}

TEST(SchemaRegex, CodePointsAndLongInputs) {
  auto dot = EcmaPattern::compile("^.$");
  ASSERT_TRUE(dot.ok());
  EXPECT_TRUE(dot->search(code_points_of("\xF0\x9F\x98\x80")));  // one astral code point
  EXPECT_TRUE(dot->search(code_points_of("\xED\xA0\x80")));      // one lone surrogate
  EXPECT_FALSE(dot->search(code_points_of("\xE2\x80\xA8")));     // U+2028 is a line terminator
  // The breadth-first executor: a megabyte string does not exhaust the stack.
  auto plus = EcmaPattern::compile("^_.+$");
  ASSERT_TRUE(plus.ok());
  EXPECT_TRUE(plus->search(code_points_of("_" + std::string(1 << 20, 'x'))));
}

}  // namespace
}  // namespace crosscheck::json
