// Tests of the writer: compact output, escapes, duplicates, and Python's indent=2 format.
#include <gtest/gtest.h>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

Value v(std::string_view text) { return parse(text).value(); }

TEST(JsonWrite, CompactKeepsSpellingAndOrder) {
  EXPECT_EQ(write(v(R"( { "z" : 1.0 , "a" : [ 1E2 , -0 , true , null , "x" ] } )")),
            R"({"z":1.0,"a":[1E2,-0,true,null,"x"]})");
}

TEST(JsonWrite, EscapesWhatJsonRequires) {
  EXPECT_EQ(write(Value::string(std::string("q\"b\\s\b\f\n\r\t\x01\x1f/\x7f", 14))),
            R"("q\"b\\s\b\f\n\r\t\u0001\u001f/)"
            "\x7f\"");
  EXPECT_EQ(write(Value::string("\xC3\xA9\xE2\x80\xA8")), "\"\xC3\xA9\xE2\x80\xA8\"");
  EXPECT_EQ(quote("\xC3\xA9\xF0\x9F\x98\x80", true), R"("\u00e9\ud83d\ude00")");
}

TEST(JsonWrite, CollapsesDuplicatesWhenAsked) {
  Value dup = v(R"({"a":1,"b":2,"a":3})");
  EXPECT_EQ(write(dup), R"({"a":1,"b":2,"a":3})");
  WriteOptions o;
  o.collapse_duplicates = true;
  EXPECT_EQ(write(dup, o), R"({"a":3,"b":2})");
}

TEST(JsonWrite, PythonIndent2Format) {
  EXPECT_EQ(
      write_python_indent2(v(R"({"a":[1,{"b":"\u00e9"}],"c":{},"d":[]})")),
      "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"\\u00e9\"\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}\n");
}

TEST(JsonWrite, RoundTripIsSemanticallyEqual) {
  for (const char* text : {R"({"a":[1.0,"\ud800",{"b":null}],"c":"\u2028"})", R"([[[]],{},"",0,-1.5e-7])"}) {
    Value a = v(text);
    auto b = parse(write(a));
    ASSERT_TRUE(b.ok()) << write(a);
    EXPECT_TRUE(semantically_equal(a, b.value()));
    EXPECT_EQ(write(b.value()), write(a));
  }
}

// Strings built from raw adapter output may hold bytes that are not WTF-8: the output is still JSON.
TEST(JsonWrite, BytesThatAreNotTextBecomeTheReplacementCharacter) {
  auto v =
      Value::string(std::string("a\x80"
                                "b\xc3(\xe2\x82\xf0\x9f\x98\x80"));
  std::string out = write(v);
  EXPECT_EQ(out, "\"a\\ufffdb\\ufffd(\\ufffd\\ufffd\xf0\x9f\x98\x80\"");
  EXPECT_TRUE(is_valid_utf8(out));
  EXPECT_TRUE(parse(out).ok());
}

}  // namespace
}  // namespace crosscheck::json
