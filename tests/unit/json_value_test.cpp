// Tests of the lossless tree's own operations: a node holds one of text, items or members (a union),
// so copies, moves, assignments between kinds and out of a value's own subtree must keep the tree whole.
#include <gtest/gtest.h>

#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

Value v(std::string_view text) { return parse(text).value(); }

TEST(JsonValue, ACopyIsDeepAndIndependent) {
  Value original = v(R"({"a":[1,{"b":"long enough to leave the small-string buffer"}],"a":null})");
  Value copy = original;
  copy.members()[0].value.items()[0] = Value::string("changed");
  EXPECT_EQ(write(original), R"({"a":[1,{"b":"long enough to leave the small-string buffer"}],"a":null})");
  EXPECT_EQ(write(copy),
            R"({"a":["changed",{"b":"long enough to leave the small-string buffer"}],"a":null})");
  copy = original;  // copy-assignment over a container
  EXPECT_EQ(write(copy), write(original));
}

TEST(JsonValue, AssigningBetweenKindsReplacesTheContent) {
  Value value = Value::string("text");
  value = v("[1,2]");
  EXPECT_TRUE(value.is_array());
  EXPECT_EQ(value.string_value(), "");  // a container has no text
  value = v(R"({"k":true})");
  ASSERT_TRUE(value.is_object());
  EXPECT_TRUE(value.items().empty());  // an object has no items
  EXPECT_EQ(write(value), R"({"k":true})");
  value = Value::number("1.50");
  EXPECT_EQ(value.number_text(), "1.50");
}

TEST(JsonValue, TheNonConstFormsOnAnotherKindChangeNothing) {
  Value number = Value::number("1.50");
  EXPECT_TRUE(number.items().empty());
  number.members().push_back(Member{"dropped", Value::null()});
  EXPECT_TRUE(number.is_number());
  EXPECT_EQ(write(number), "1.50");
  Value object = v(R"({"k":[1]})");
  EXPECT_TRUE(object.items().empty());
  EXPECT_EQ(write(object), R"({"k":[1]})");
  Value null;
  EXPECT_TRUE(null.members().empty());
  EXPECT_TRUE(null.is_null());
}

TEST(JsonValue, AValueCanBeAssignedOneOfItsOwnDescendants) {
  Value tree = v(R"([{"x":[true,"deep"]},2])");
  tree = std::move(tree.items()[0]);
  EXPECT_EQ(write(tree), R"({"x":[true,"deep"]})");
  tree = std::move(tree.members()[0].value);
  EXPECT_EQ(write(tree), R"([true,"deep"])");
  Value other = v(R"({"y":{"z":[null]}})");
  other = other.members()[0].value;  // a copy of a descendant
  EXPECT_EQ(write(other), R"({"z":[null]})");
}

TEST(JsonValue, AMovedFromValueKeepsItsKindAndIsEmpty) {
  Value from = v("[1,2,3]");
  Value to = std::move(from);
  EXPECT_EQ(write(to), "[1,2,3]");
  EXPECT_TRUE(from.is_array());
  EXPECT_TRUE(from.items().empty());
  from = Value::boolean(true);  // and can be assigned again
  EXPECT_EQ(write(from), "true");
}

TEST(JsonValue, ThePushAndAddFormsMakeANullValueAContainer) {
  Value array;
  array.push(Value::number("1"));
  EXPECT_EQ(write(array), "[1]");
  Value object;
  object.add("a", Value::null());
  object.add("a", Value::boolean(false));
  EXPECT_EQ(write(object), R"({"a":null,"a":false})");
  ASSERT_NE(object.find("a"), nullptr);
  EXPECT_TRUE(object.find("a")->is_bool());  // the last duplicate
  EXPECT_EQ(array.find("a"), nullptr);
}

}  // namespace
}  // namespace crosscheck::json
