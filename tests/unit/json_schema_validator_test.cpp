// json_schema_validator_test.cpp: the JSON Schema subset behind crosscheck's own formats.
#include <gtest/gtest.h>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"

namespace crosscheck::json {
namespace {

Value v(std::string_view text) {
  auto p = parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? std::move(p.value()) : Value();
}

std::string violation(std::string_view schema, std::string_view instance) {
  auto s = SchemaValidator::from_value(v(schema));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  if (!s.ok()) return "";
  auto e = s->validate(v(instance));
  return e ? e->pointer + ": " + e->message : "valid";
}

TEST(SchemaValidator, RefusesKeywordsItDoesNotImplement) {
  auto s = SchemaValidator::from_value(v(R"({"type":"object","properties":{"a":{"patternProperties":{}}}})"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(),
            "#/properties/a/patternProperties: keyword not supported by crosscheck's schema validator "
            "(json/schema_validator.hpp)");
  EXPECT_FALSE(SchemaValidator::from_value(v(R"({"format":"email"})")).ok());
  EXPECT_FALSE(SchemaValidator::from_value(v(R"({"$ref":"#/$defs/missing"})")).ok());
  EXPECT_FALSE(SchemaValidator::from_value(v(R"({"pattern":"("})")).ok());
  EXPECT_FALSE(SchemaValidator::from_value(v(R"({"type":"text"})")).ok());
}

TEST(SchemaValidator, Keywords) {
  EXPECT_EQ(violation(R"({"type":"integer"})", "1.0"), "valid");
  EXPECT_EQ(violation(R"({"type":"integer"})", "1.5"), ": expected an integer, got number");
  EXPECT_EQ(violation(R"({"type":["string","null"]})", "3"), ": expected a string or null, got number");
  EXPECT_EQ(violation(R"({"const":"x"})", R"("y")"), R"(: expected "x", got "y")");
  EXPECT_EQ(violation(R"({"enum":[1,"a"]})", "1.0"), "valid");
  EXPECT_EQ(violation(R"({"minLength":1})", R"("")"), ": expected a non-empty string");
  EXPECT_EQ(violation(R"({"maxLength":1})", R"("é")"), "valid");  // characters, not bytes
  EXPECT_EQ(violation(R"({"pattern":"^a+$"})", R"("aab")"),
            R"(: expected a string matching /^a+$/, got "aab")");
  EXPECT_EQ(violation(R"({"minimum":0})", "-1"), ": expected a number >= 0, got -1");
  EXPECT_EQ(violation(R"({"items":{"type":"string"},"uniqueItems":true})", R"(["a","b","a"])"),
            R"(/2: expected unique items, "a" repeats item 0)");
  EXPECT_EQ(violation(R"({"items":{"type":"string"}})", R"(["a",1])"), "/1: expected a string, got number");
  EXPECT_EQ(violation(R"({"minItems":1})", "[]"), ": expected a non-empty array");
  EXPECT_EQ(violation(R"({"required":["a~b/c"]})", "{}"), "/a~0b~1c: required field is missing");
  EXPECT_EQ(violation(R"({"properties":{"a":{}},"additionalProperties":false})", R"({"a":1,"b":2})"),
            "/b: unknown field (expected one of: a)");
  EXPECT_EQ(violation(R"({"additionalProperties":{"type":"boolean"}})", R"({"a":true,"b":2})"),
            "/b: expected a boolean, got number");
  EXPECT_EQ(violation(R"({"$defs":{"n":{"type":"null"}},"items":{"$ref":"#/$defs/n"}})", "[null, 0]"),
            "/1: expected null, got number");
  EXPECT_EQ(
      violation(R"({"anyOf":[{"required":["a"]},{"required":["b"]}]})", "{}"),
      ": none of the allowed forms fits: 'a' required field is missing; or 'b' required field is missing");
  EXPECT_EQ(violation(R"({"anyOf":[{"required":["a"]}],"description":"an a"})", "{}"), ": expected an a");
  EXPECT_EQ(violation(R"({"oneOf":[{"type":"number"},{"type":"integer"}]})", "1"),
            ": exactly one of the allowed forms, but 2 fit");
  EXPECT_EQ(violation(R"({"not":{"type":"null"}})", "null"), ": a value this schema forbids");
  EXPECT_EQ(violation(R"({"allOf":[{"type":"object"},{"required":["x"]}]})", "{}"),
            "/x: required field is missing");
  EXPECT_EQ(violation("false", "1"), ": not allowed here");
}

TEST(SchemaValidator, ShippedSchemasLoad) {
  EXPECT_FALSE(shipped_schema("baseline.schema.json")
                   .validate(v(R"({"format":"crosscheck-baseline/1","entries":[]})")));
  EXPECT_TRUE(
      shipped_schema("matrix.schema.json").validate(v(R"({"contract":"c","cases":[{"id":"Bad Id"}]})")));
  EXPECT_THROW(shipped_schema("no-such.schema.json"), Fatal);
}

TEST(SchemaValidator, DescribeLocationNamesEntriesByIdAndFieldsByPath) {
  Value doc = v(R"({"entries":[{"id":"a"},{"x":[{"y":1}]}],"format":1})");
  EXPECT_EQ(describe_location(doc, ""), "the document");
  EXPECT_EQ(describe_location(doc, "/format"), "field 'format'");
  EXPECT_EQ(describe_location(doc, "/entries/0"), "entries[0] (id \"a\")");
  EXPECT_EQ(describe_location(doc, "/entries/0/reason"), "entries[0] (id \"a\"): field 'reason'");
  EXPECT_EQ(describe_location(doc, "/entries/1/x/0/y"), "field 'entries[1].x[0].y'");
  EXPECT_EQ(describe_location(doc, "/entries/1"), "entries[1]");
}

}  // namespace
}  // namespace crosscheck::json
