// Tests of exact decimal comparison and semantic equality (the round-trip promise).
#include <gtest/gtest.h>

#include "json/equal.hpp"
#include "json/parse.hpp"

namespace crosscheck::json {
namespace {

Value v(std::string_view text) { return parse(text).value(); }

TEST(JsonEqual, NumbersCompareAsExactDecimals) {
  EXPECT_EQ(compare_numbers("1", "1.0"), 0);
  EXPECT_EQ(compare_numbers("1", "1E0"), 0);
  EXPECT_EQ(compare_numbers("1", "10E-1"), 0);
  EXPECT_EQ(compare_numbers("100", "1e2"), 0);
  EXPECT_EQ(compare_numbers("0.001", "1E-3"), 0);
  EXPECT_EQ(compare_numbers("-0", "0"), 0);
  EXPECT_EQ(compare_numbers("-0.0e5", "0"), 0);
  EXPECT_LT(compare_numbers("9007199254740992", "9007199254740993"), 0);
  EXPECT_GT(compare_numbers("1.0000000000000001", "1"), 0);
  EXPECT_LT(compare_numbers("-2", "-1"), 0);
  EXPECT_LT(compare_numbers("-1", "0"), 0);
  EXPECT_GT(compare_numbers("1E400", "9E399"), 0);
  EXPECT_EQ(compare_numbers("10E999999999999999999999", "1E1000000000000000000000"), 0);
  EXPECT_LT(compare_numbers("1E-999999999999999999999", "1E-999999999999999999998"), 0);
  EXPECT_LT(compare_numbers("12", "120"), 0);
  EXPECT_GT(compare_numbers("0.12", "0.012"), 0);
}

TEST(JsonEqual, Integrality) {
  for (const char* n : {"0", "-0", "1", "1.0", "1E2", "10E-1", "1.50E1", "1E400", "-3.000"})
    EXPECT_TRUE(is_integral(n)) << n;
  for (const char* n :
       {"1.5", "1E-1", "1.0000000000000001", "1E-400", "0.1e1000000000000000000000000000000001"}) {
    EXPECT_EQ(is_integral(n), std::string_view(n).substr(0, 3) == "0.1") << n;  // the last one is integral
  }
}

TEST(JsonEqual, SafeIntegerRange) {
  EXPECT_TRUE(is_safe_integer("9007199254740991"));
  EXPECT_TRUE(is_safe_integer("-9007199254740991"));
  EXPECT_TRUE(is_safe_integer("9007199254740991.0"));
  EXPECT_TRUE(is_safe_integer("90071992547409.91E2"));
  EXPECT_FALSE(is_safe_integer("9007199254740992"));
  EXPECT_FALSE(is_safe_integer("-9007199254740992"));
  EXPECT_FALSE(is_safe_integer("1E16"));
  EXPECT_TRUE(is_safe_integer("1E15"));
  EXPECT_FALSE(is_safe_integer("1.5"));
  EXPECT_TRUE(is_safe_integer("-0"));
}

TEST(JsonEqual, CanonicalNumber) {
  EXPECT_EQ(canonical_number("1.0"), "1");
  EXPECT_EQ(canonical_number("10E-1"), "1");
  EXPECT_EQ(canonical_number("-0"), "0");
  EXPECT_EQ(canonical_number("1.50E3"), "1500");
  EXPECT_EQ(canonical_number("1E400"), "1E400");
  EXPECT_EQ(canonical_number("0.25"), "25E-2");
  EXPECT_EQ(canonical_number("-120"), "-120");
}

TEST(JsonEqual, ObjectsAreMapsArraysAreOrdered) {
  EXPECT_TRUE(semantically_equal(v(R"({"a":1,"b":[1,2]})"), v(R"({"b":[1.0,2E0],"a":1})")));
  EXPECT_FALSE(semantically_equal(v("[1,2]"), v("[2,1]")));
  EXPECT_FALSE(semantically_equal(v(R"({"a":1})"), v(R"({"a":1,"b":null})")));
  EXPECT_FALSE(semantically_equal(v(R"({"a":null})"), v("{}")));  // absent differs from null
  // Duplicate keys: the last value is the member's value.
  EXPECT_TRUE(semantically_equal(v(R"({"a":1,"a":2})"), v(R"({"a":2})")));
  EXPECT_FALSE(semantically_equal(v(R"({"a":1,"a":2})"), v(R"({"a":1})")));
  // The same keys in the same order (the pairwise fast path), where an earlier duplicate differs:
  // only the last value counts, so these are equal, and a differing last value is not.
  EXPECT_TRUE(semantically_equal(v(R"({"a":1,"a":2,"b":3})"), v(R"({"a":9,"a":2,"b":3.0})")));
  EXPECT_FALSE(semantically_equal(v(R"({"a":1,"a":2,"b":3})"), v(R"({"a":1,"a":5,"b":3})")));
  // Same size, same keys, other order, and one duplicate against two keys.
  EXPECT_TRUE(semantically_equal(v(R"({"a":1,"b":2,"c":3})"), v(R"({"c":3,"a":1,"b":2})")));
  EXPECT_FALSE(semantically_equal(v(R"({"a":1,"a":1})"), v(R"({"a":1,"b":1})")));
}

TEST(JsonEqual, StringsByCodePointNotSpelling) {
  EXPECT_TRUE(semantically_equal(v(R"("\u00e9")"), v("\"\xC3\xA9\"")));
  EXPECT_TRUE(semantically_equal(v(R"("\/")"), v(R"("/")")));
  EXPECT_TRUE(semantically_equal(v(R"("\ud83d\ude00")"), v("\"\xF0\x9F\x98\x80\"")));
  EXPECT_FALSE(semantically_equal(v(R"("\ud800")"), v(R"("\ufffd")")));  // a lone surrogate is not U+FFFD
  EXPECT_FALSE(semantically_equal(v(R"("a")"), v(R"("A")")));
}

TEST(JsonEqual, KindsNeverCoerce) {
  EXPECT_FALSE(semantically_equal(v("1"), v("\"1\"")));
  EXPECT_FALSE(semantically_equal(v("0"), v("false")));
  EXPECT_FALSE(semantically_equal(v("null"), v("false")));
  EXPECT_FALSE(semantically_equal(v("[]"), v("{}")));
  EXPECT_TRUE(semantically_equal(v("9007199254740993"), v("9007199254740993.0")));
  EXPECT_FALSE(semantically_equal(v("9007199254740993"), v("9007199254740992")));
}

}  // namespace
}  // namespace crosscheck::json
