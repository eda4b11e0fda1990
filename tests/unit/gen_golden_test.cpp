// gen_golden_test.cpp: the generators' bytes for fixed seeds, pinned as hashes, so that every build
// (g++ RelWithDebInfo, clang ASan Debug in CI, the libFuzzer builds) gives the same payload for the
// same seed. A difference between builds once came from unspecified evaluation order (two draws in
// one expression, `f(rng(), rng())` or `a(rng) + b(rng)`, which g++ and clang order differently);
// nothing here may depend on the compiler, the optimisation level or the sanitizers.
//
// The hashes change when the generator code or the schema bundle changes on purpose: the failure
// prints the new table to paste, after checking that the change was meant.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gen/generator.hpp"
#include "gen/rng.hpp"
#include "gen_test_support.hpp"
#include "json/write.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::gen {
namespace {

TEST(GenGolden, RngDrawsArePinned) {
  Rng rng(mix_seed(42, 7));
  std::string drawn;
  for (int i = 0; i < 8; ++i) drawn += std::to_string(rng.below(1000)) + ",";
  // One draw per statement (this very line once drew in a different order under g++ and clang).
  const std::int64_t between = rng.between(-5, 5);
  const bool chance = rng.chance(0.5);
  drawn += std::to_string(between) + "," + std::to_string(chance);
  std::vector<int> items = {1, 2, 3, 4, 5, 6};
  rng.shuffle(items);
  for (int v : items) drawn += "," + std::to_string(v);
  EXPECT_EQ(mix_seed(0, 0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(drawn, "29,502,686,664,561,758,754,489,-5,0,3,4,1,6,5,2")
      << "mt19937_64 and the rng.hpp helpers must not depend on the standard library";
}

/// valid() and every family's mutant (bytes, description, path) for `root` and `seed`, hashed.
std::pair<std::string, std::string> hashes(const ValueGenerator& generator, const Mutator& mutator,
                                           const schema::Root& root, std::uint64_t seed) {
  const json::Value value = generator.valid(root, seed);
  std::string mutants;
  for (Mutation m : all_mutations()) {
    auto mutant = mutator.apply(root, value, m, seed);
    mutants += std::string(mutation_name(m)) + "\n";
    if (mutant) mutants += mutant->bytes + "\n" + mutant->description + "\n" + mutant->path + "\n";
  }
  mutants += "any\n" + mutator.any(root, value, seed).bytes;
  return {schema::sha256_hex(json::write(value)).substr(0, 16), schema::sha256_hex(mutants).substr(0, 16)};
}

TEST(GenGolden, FixedSeedsGiveThePinnedBytes) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const schema::Ir& ir = *testing::real_schema().ir;
  ValueGenerator generator(ir);
  Mutator mutator(ir);
  // Roots with untagged unions, opaque `any` content, numbers and open enums; two seeds each.
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {"content_item/11", {"57ab254e654ab141", "2df445dfd94b954f"}},
      {"content_item/3", {"2fe338077387cb58", "956d428cfc4e5f11"}},
      {"effect/11", {"c2d62ec11a972ad5", "68c060aade25d2d1"}},
      {"effect/3", {"d4693e9f315c01f3", "98facca973e43dc3"}},
      {"every-root/5", {"5291b6c12a1e4e9d", ""}},
      {"intercept_request/11", {"27a8b572d24f16c2", "12b315d289ce4c81"}},
      {"intercept_request/3", {"0a78a99729b19597", "4a46175eb4991e12"}},
      {"json_rpc_message/11", {"45216543b78eeae1", "0ed1e0fc5ae8fc4b"}},
      {"json_rpc_message/3", {"0d02189f795f2a0d", "7c4975adb5de176b"}},
      {"wire_message/11", {"e03e7076ee2bd135", "6accc774249680c8"}},
      {"wire_message/3", {"3da23a9510c54f8a", "964650795d02e572"}},
  };
  std::map<std::string, std::pair<std::string, std::string>> actual;
  for (const char* name :
       {"intercept_request", "wire_message", "json_rpc_message", "content_item", "effect"}) {
    const schema::Root* root = ir.find_root(name);
    ASSERT_NE(root, nullptr) << name;
    for (std::uint64_t seed : {3, 11})
      actual[std::string(name) + "/" + std::to_string(seed)] = hashes(generator, mutator, *root, seed);
  }
  // Every root once, in one hash.
  std::string every;
  for (const auto& root : ir.roots) {
    auto [valid, mutants] = hashes(generator, mutator, root, 5);
    every += valid + mutants;
  }
  actual["every-root/5"] = {schema::sha256_hex(every).substr(0, 16), ""};
  std::ostringstream table;
  for (const auto& [key, h] : actual)
    table << "      {\"" << key << "\", {\"" << h.first << "\", \"" << h.second << "\"}},\n";
  EXPECT_EQ(actual, expected)
      << "generated or mutated bytes changed for a fixed seed. If the generator or the "
         "schema changed on purpose, the new table is:\n"
      << table.str();
}

}  // namespace
}  // namespace crosscheck::gen
