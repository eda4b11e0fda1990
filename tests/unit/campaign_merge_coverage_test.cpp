// Tests of coverage.json's merge (src/campaign/merge_coverage.cpp): layer 1 and layer 2 flags are the
// union of the shards', the counts and percentages follow from the union, unreached lists are the
// intersection, a shard without the canonical layer has no say there, and a shard of another schema
// is refused.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "campaign/merge_coverage.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {
namespace {

run::CoverageFile shard(run::CoverageFlags flags, std::optional<run::CanonicalCoverageFile> canonical) {
  run::CoverageFile c;
  c.figures.tracked = 4;
  c.figures.possible_accepted = c.figures.possible_rejected = 4;
  c.flags = std::move(flags);
  c.canonical = std::move(canonical);
  return c;
}

run::CanonicalCoverageFile canonical(std::uint64_t tracked, run::CoverageFlags flags,
                                     std::vector<std::string> never_passed,
                                     std::vector<std::string> never_failed) {
  run::CanonicalCoverageFile c;
  c.figures.tracked = tracked;
  c.flags = std::move(flags);
  c.never_passed = std::move(never_passed);
  c.never_failed = std::move(never_failed);
  return c;
}

TEST(MergeCoverage, CanonicalFlagsAreTheUnionOfTheShards) {
  // Layer 2 tracks nodes 10, 11, 12: shard a saw 10 pass and 11 fail, shard b 10 fail and 11 fail.
  auto a = shard({{1, 1}}, canonical(3, {{10, 1}, {11, 2}}, {"d#/b", "d#/c"}, {"d#/a", "d#/c"}));
  auto b = shard({{1, 2}, {2, 1}}, canonical(3, {{10, 2}, {11, 2}}, {"d#/a", "d#/b", "d#/c"}, {"d#/c"}));
  auto c = shard({}, std::nullopt);  // a run without the canonical layer
  auto out = merge_coverage({{"a", &a}, {"b", &b}, {"c", &c}});
  EXPECT_EQ(out.flags, (run::CoverageFlags{{1, 3}, {2, 1}}));
  EXPECT_EQ(out.figures.reached_accepted, 2u);
  EXPECT_EQ(out.figures.reached_rejected, 1u);
  ASSERT_TRUE(out.canonical);
  EXPECT_EQ(out.canonical->flags, (run::CoverageFlags{{10, 3}, {11, 2}}));
  EXPECT_EQ(out.canonical->figures.tracked, 3u);
  EXPECT_EQ(out.canonical->figures.reached_passed, 1u);
  EXPECT_EQ(out.canonical->figures.reached_failed, 2u);
  EXPECT_EQ(out.canonical->figures.reached_both, 1u);
  EXPECT_NEAR(out.canonical->figures.percent(), 100.0 / 3, 1e-9);
  EXPECT_EQ(out.canonical->never_passed, (std::vector<std::string>{"d#/b", "d#/c"}));
  EXPECT_EQ(out.canonical->never_failed, (std::vector<std::string>{"d#/c"}));
}

TEST(MergeCoverage, NoCanonicalPartWhenNoShardHasTheLayerAndAnotherSchemaIsRefused) {
  auto a = shard({{1, 1}}, std::nullopt), b = shard({}, std::nullopt);
  EXPECT_FALSE(merge_coverage({{"a", &a}, {"b", &b}}).canonical);
  auto x = shard({}, canonical(3, {}, {}, {})), y = shard({}, canonical(5, {}, {}, {}));
  try {
    merge_coverage({{"x", &x}, {"y", &y}});
    FAIL() << "merged layer-2 coverage of two schemas";
  } catch (const Fatal& e) {
    EXPECT_NE(std::string(e.what()).find("canonical.tracked is 5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace crosscheck::campaign::merging
