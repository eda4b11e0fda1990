// verdict: which buckets fail a run, its exit code, and verdict.json's content.
#include "verdict/verdict.hpp"

#include <gtest/gtest.h>

namespace crosscheck::verdict {
namespace {

TEST(Verdict, OnlyNewContractBucketsFailUnlessStrict) {
  EXPECT_TRUE(bucket_fails(false, false, false));
  EXPECT_FALSE(bucket_fails(false, true, false));
  EXPECT_TRUE(bucket_fails(false, true, true));
  EXPECT_FALSE(bucket_fails(true, false, false));
  EXPECT_FALSE(bucket_fails(true, true, true));
}

TEST(Verdict, CountsDecideTheExitCode) {
  Verdict v;
  v.add_bucket(true, false);
  v.add_bucket(false, true);
  EXPECT_EQ(v.known, 1u);
  EXPECT_EQ(v.new_implementation_defined, 1u);
  EXPECT_FALSE(v.fails());
  EXPECT_EQ(v.exit_code(), kExitClean);
  v.strict = true;
  EXPECT_TRUE(v.fails());
  v.strict = false;
  v.add_bucket(false, false);
  EXPECT_EQ(v.exit_code(), kExitDivergence);
  EXPECT_NE(v.describe().find("FAILED: 1 new contract bucket,"), std::string::npos) << v.describe();
  Verdict stale;
  stale.stale = 2;
  EXPECT_FALSE(stale.fails()) << "stale entries are information";
  stale.failing_stale = 1;
  EXPECT_TRUE(stale.fails()) << "unless asked to fail on them";
}

TEST(Verdict, CombinedShardsFailWhenOneFails) {
  Verdict a, b;
  a.add_bucket(false, true);
  b.add_bucket(false, false);
  Verdict both = combine(a, b);
  EXPECT_TRUE(both.fails());
  EXPECT_EQ(both.new_contract + both.new_implementation_defined, 2u);
}

TEST(Verdict, JsonRoundTripAndDisagreementRefused) {
  Verdict v;
  v.add_bucket(false, false);
  v.stale = 3;
  v.baseline = "known.json";
  json::Value j = to_json(v);
  auto back = from_json(j);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().new_contract, 1u);
  EXPECT_EQ(back.value().stale, 3u);
  EXPECT_EQ(back.value().baseline, "known.json");
  *j.find("fails") = json::Value::boolean(false);
  auto bad = from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("/fails"), std::string::npos) << bad.error();
  *j.find("fails") = json::Value::boolean(true);
  *j.find("known") = json::Value::string("2");
  bad = from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("/known"), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace crosscheck::verdict
