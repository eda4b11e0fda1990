// Tests of the corpus's set of written hashes (campaign/hash_set64.hpp): it answers as a
// std::unordered_set does under any mix of inserts and erases (values sharing their low bits, which
// share probe runs, and the value 0, which marks an empty slot, included), and a full corpus root's
// worth of hashes takes a fraction of the node set's memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

#include "campaign/hash_set64.hpp"

namespace crosscheck::campaign {
namespace {

TEST(HashSet64, InsertTellsWhetherTheValueIsNewAndEraseRemovesIt) {
  HashSet64 set;
  EXPECT_FALSE(set.contains(42));
  EXPECT_TRUE(set.insert(42));
  EXPECT_FALSE(set.insert(42));
  EXPECT_TRUE(set.insert(0));  // the empty-slot marker is a value like any other
  EXPECT_FALSE(set.insert(0));
  EXPECT_EQ(set.size(), 2u);
  set.erase(42);
  set.erase(0);
  set.erase(7);  // absent: nothing happens
  EXPECT_EQ(set.size(), 0u);
  EXPECT_FALSE(set.contains(42));
  EXPECT_FALSE(set.contains(0));
  EXPECT_TRUE(set.insert(42));
}

TEST(HashSet64, GrowingKeepsEveryValueAndAtMostThreeQuartersOfTheSlotsUsed) {
  HashSet64 set;
  const std::uint64_t n = 50000;
  for (std::uint64_t i = 1; i <= n; ++i) {
    ASSERT_TRUE(set.insert(i * 0x9E3779B97F4A7C15ull));
    const std::size_t slots = set.allocated_bytes() / sizeof(std::uint64_t);
    ASSERT_EQ(slots & (slots - 1), 0u) << "not a power of two: " << slots;
    ASSERT_LE(set.size() * 4, slots * 3) << "after " << i;
  }
  EXPECT_EQ(set.size(), n);
  for (std::uint64_t i = 1; i <= n; ++i) ASSERT_TRUE(set.contains(i * 0x9E3779B97F4A7C15ull)) << i;
  for (std::uint64_t i = n + 1; i <= 2 * n; ++i) ASSERT_FALSE(set.contains(i * 0x9E3779B97F4A7C15ull)) << i;
}

TEST(HashSet64, ValuesWithOneHomeSlotAreAllFoundAfterSomeAreErased) {
  // Equal low 20 bits: one home slot for all, one probe run through every growth.
  HashSet64 set;
  auto value = [](std::uint64_t k) { return k << 20 | 0x5A5A5; };
  for (std::uint64_t k = 1; k <= 500; ++k) ASSERT_TRUE(set.insert(value(k)));
  for (std::uint64_t k = 1; k <= 500; ++k) ASSERT_FALSE(set.insert(value(k))) << k;
  for (std::uint64_t k = 2; k <= 500; k += 7) set.erase(value(k));  // holes inside the run: 72
  bool erased[501] = {};
  for (std::uint64_t k = 2; k <= 500; k += 7) erased[k] = true;
  for (std::uint64_t k = 1; k <= 500; ++k) ASSERT_EQ(set.contains(value(k)), !erased[k]) << k;
  EXPECT_EQ(set.size(), 500u - 72u);
  EXPECT_FALSE(set.contains(value(501)));
}

TEST(HashSet64, AgreesWithUnorderedSetUnderRandomInsertsAndErases) {
  std::mt19937_64 rng(7);
  // Few distinct low bits (values k << 20 | small): long probe runs that wrap around the array's end,
  // so erase's backward shift has entries of other homes to move, or to leave, in every run.
  auto pick = [&rng](int round) -> std::uint64_t {
    if (round % 3 == 0) return rng() % 64;
    if (round % 3 == 1) return (rng() % 4096) << 20 | (rng() % 8) | 0xF0;
    return rng();
  };
  for (int round = 0; round < 6; ++round) {
    HashSet64 set;
    std::unordered_set<std::uint64_t> expected;
    std::vector<std::uint64_t> values;
    for (int op = 0; op < 20000; ++op) {
      std::uint64_t v = values.empty() || rng() % 3 ? pick(round) : values[rng() % values.size()];
      if (rng() % 4 == 0) {
        set.erase(v);
        expected.erase(v);
      } else {
        ASSERT_EQ(set.insert(v), expected.insert(v).second) << "round " << round << " op " << op;
        values.push_back(v);
      }
      ASSERT_EQ(set.size(), expected.size());
    }
    for (std::uint64_t v : values) ASSERT_EQ(set.contains(v), expected.count(v) == 1) << v;
  }
}

TEST(HashSet64, AFullCorpusRootTakesAtMostTwentyFourBytesAHash) {
  // 4096: the default --corpus-limit, the most a root's set holds in a run.
  std::mt19937_64 rng(3);
  HashSet64 set;
  for (int i = 0; i < 4096; ++i) set.insert(rng());
  EXPECT_EQ(set.size(), 4096u);
  EXPECT_LE(set.allocated_bytes(), 4096u * 24);  // std::unordered_set: about 40 (node and bucket)
}

}  // namespace
}  // namespace crosscheck::campaign
