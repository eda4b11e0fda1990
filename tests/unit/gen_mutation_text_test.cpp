// gen_mutation_text_test.cpp: the text-level helpers of the mutator: number respelling keeps the
// exact value and gives valid tokens, string splicing puts raw spellings in the right place, and
// token boundaries are only ever between tokens.
#include <gtest/gtest.h>

#include "gen/mutation_text.hpp"
#include "gen/rng.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {
namespace {

TEST(GenMutationText, RespellingKeepsTheExactValue) {
  const char* numbers[] = {"0",
                           "-0",
                           "1",
                           "-1",
                           "5",
                           "10",
                           "120",
                           "0.5",
                           "-0.25",
                           "1.5",
                           "1E3",
                           "1e-3",
                           "2.50",
                           "1E400",
                           "-1E400",
                           "1e-400",
                           "123456789012345678901",
                           "9007199254740993",
                           "0.000001",
                           "7E+2",
                           "1.0",
                           "100E-2",
                           "3.14159",
                           "1E100000000000000000"};
  Rng rng(1);
  for (const char* n : numbers) {
    for (int i = 0; i < 20; ++i) {
      auto respelled = respell_number(n, rng);
      ASSERT_TRUE(respelled.has_value()) << n;
      EXPECT_NE(*respelled, n);
      auto parsed = json::parse(*respelled);
      ASSERT_TRUE(parsed.ok() && parsed.value().is_number()) << n << " -> " << *respelled;
      EXPECT_EQ(json::compare_numbers(*respelled, n), 0) << n << " -> " << *respelled;
      EXPECT_EQ(json::is_safe_integer(*respelled), json::is_safe_integer(n)) << n << " -> " << *respelled;
    }
  }
}

TEST(GenMutationText, SpliceReplacesOnlyTheMarker) {
  json::Value doc = json::Value::object();
  doc.add("a", json::Value::string("same"));
  const json::Value marker = string_marker(42);
  doc.add("b", marker);
  doc.add("c", json::Value::string("same"));
  EXPECT_EQ(splice_string(doc, marker, R"("\ud800")"), R"({"a":"same","b":"\ud800","c":"same"})");
  EXPECT_EQ(escape_inner("a\"b\n"), "a\\\"b\\n");
}

TEST(GenMutationText, WhitespaceAtEveryBoundaryKeepsTheValue) {
  const std::string text = R"({"k":[1,"a,b:{}",{"x":null}],"s":"\"q\\"})";
  std::string spaced;
  std::size_t from = 0;
  for (std::size_t at : token_boundaries(text)) {
    spaced.append(text, from, at - from);
    spaced += " \n";
    from = at;
  }
  spaced.append(text, from, std::string::npos);
  auto a = json::parse(text), b = json::parse(spaced);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok()) << spaced;
  EXPECT_TRUE(json::semantically_equal(a.value(), b.value()));
  EXPECT_EQ(json::write(b.value()), text) << "no whitespace went into a string";
}

TEST(GenRng, SameSeedSameDrawsAndUnbiasedRange) {
  Rng a(7), b(7);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 3000; ++i) {
    const auto x = a.below(3);
    ASSERT_EQ(x, b.below(3));
    ++counts[x];
  }
  for (int c : counts) EXPECT_GT(c, 850);
  EXPECT_NE(mix_seed(1, 0), mix_seed(1, 1));
  EXPECT_NE(mix_seed(1, 0), mix_seed(2, 0));
}

}  // namespace
}  // namespace crosscheck::gen
