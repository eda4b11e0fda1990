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
