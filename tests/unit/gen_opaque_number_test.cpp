// gen_opaque_number_test.cpp: the opaque-number family puts numbers that a binary64 double does not
// carry through a round trip (0.10000000000000001, 2^53+1, 1E400, long mantissas) where the decoder
// keeps them verbatim (`any`, untyped additionalProperties, unknown members of open and closed
// objects, nested ones included), never into typed slots, and the C++ decoder's re-encoding keeps
// each number's spelling byte for byte. On a small schema written for this test
// (tests/data/gen-opaque-numbers) and on every root of the real bundle.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/mutation_text.hpp"
#include "gen/rng.hpp"
#include "gen_test_support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "schema/loader.hpp"

namespace crosscheck::gen {
namespace {

using testing::at_pointer;

/// Does `text` come back with the same exact value after a binary64 round trip (parse into a
/// double, write its shortest spelling)? What an SDK that reads opaque numbers as doubles keeps.
bool survives_binary64(const std::string& text) {
  const double d = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(d)) return false;
  char shortest[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(shortest, sizeof shortest, "%.*g", precision, d);
    if (std::strtod(shortest, nullptr) == d) break;
  }
  return json::compare_numbers(shortest, text) == 0;
}

/// A number no implementation-defined rule covers: not an integer beyond 2^53, inside the double
/// range by a wide margin, not -0. A divergence on such a number breaks the contract.
bool contract_number(const std::string& text) {
  if (json::is_integral(text) && !json::is_safe_integer(text)) return false;
  if (json::compare_numbers(text, "0") == 0) return text[0] != '-';
  const std::string magnitude = text[0] == '-' ? text.substr(1) : text;
  return json::compare_numbers(magnitude, "1E300") < 0 && json::compare_numbers(magnitude, "1E-300") > 0;
}

/// Every number inside `v`, in document order.
void numbers_in(const json::Value& v, std::vector<std::string>& out) {
  if (v.is_number()) out.push_back(v.number_text());
  if (v.is_array()) {
    for (const auto& item : v.items()) numbers_in(item, out);
  } else if (v.is_object()) {
    for (const auto& m : v.members()) numbers_in(m.value, out);
  }
}

const schema::Ir& own_schema() {
  static const schema::Ir ir = [] {
    auto loaded = schema::load_schema(std::string(CROSSCHECK_TEST_DATA) + "/gen-opaque-numbers");
    if (!loaded.ok()) throw std::runtime_error(loaded.error().message());
    return std::move(loaded).value();
  }();
  return ir;
}

/// What one mutant did: the number it placed and whether the decoder kept it at the same place.
struct Placed {
  std::string number;
  bool accepted_clean = false;  ///< accepted with no diagnostic
  bool kept = false;            ///< the re-encoding has the same spelling at the mutant's path
  std::string context;
};

Placed place(const decoder::Decoder& decoder, const schema::Root& root, const Mutant& mutant) {
  Placed out;
  out.context = root.snake_name + ": " + mutant.description + "\n" + mutant.bytes.substr(0, 400);
  auto parsed = json::parse(mutant.bytes);
  if (!parsed.ok()) return out;
  const json::Value* at = at_pointer(parsed.value(), mutant.path);
  if (!at) return out;
  std::vector<std::string> numbers;
  numbers_in(*at, numbers);
  if (numbers.size() != 1) return out;  // one number alone or in a one-level wrapper
  out.number = numbers.front();
  const decoder::DecodeResult result = decoder.decode(root, mutant.bytes);
  out.accepted_clean = result.accepted && result.diagnostics.empty();
  if (!result.encoded) return out;
  auto encoded = json::parse(*result.encoded);
  if (!encoded.ok()) return out;
  const json::Value* again = at_pointer(encoded.value(), mutant.path);
  std::vector<std::string> kept;
  if (again) numbers_in(*again, kept);
  out.kept =
      kept.size() == 1 && kept.front() == out.number && result.encoded->find(out.number) != std::string::npos;
  return out;
}

TEST(GenOpaqueNumber, DrawnNumbersMostlyLoseDigitsInADouble) {
  Rng rng(mix_seed(7, 3));
  std::set<std::string> distinct;
  std::size_t lost = 0, lost_contract = 0, edges = 0;
  constexpr std::size_t kDraws = 3000;
  for (std::size_t i = 0; i < kDraws; ++i) {
    const std::string n = beyond_binary64_number(rng);
    auto parsed = json::parse(n);
    ASSERT_TRUE(parsed.ok() && parsed.value().is_number()) << n;
    ASSERT_EQ(parsed.value().number_text(), n);
    distinct.insert(n);
    if (!survives_binary64(n)) ++lost;
    if (!survives_binary64(n) && contract_number(n)) ++lost_contract;
    if (!contract_number(n)) ++edges;
  }
  std::cout << "[opaque-number] " << kDraws << " draws: " << distinct.size() << " distinct, " << lost
            << " lose their value in a double (" << lost_contract << " of them contract numbers), " << edges
            << " implementation-defined\n";
  EXPECT_GE(distinct.size(), 800u);             // the long mantissas vary
  EXPECT_GE(lost_contract * 100, kDraws * 65);  // mostly contract divergences for a double SDK
  EXPECT_GE(edges * 100, kDraws * 15);          // and the implementation-defined edges too
  EXPECT_GE(lost * 100, kDraws * 85);
  EXPECT_TRUE(distinct.count("0.10000000000000001") && distinct.count("9007199254740993") &&
              distinct.count("1E400") && distinct.count("5e-400"));
}

TEST(GenOpaqueNumber, OwnSchemaOpaquePositionsOnlyAndTheSpellingIsKept) {
  const schema::Ir& ir = own_schema();
  const schema::Root& root = *ir.find_root("opaque_holder");
  ValueGenerator generator(ir);
  Mutator mutator(ir);
  decoder::Decoder decoder(ir);
  // Typed slots: the family must leave them as they were.
  const std::vector<std::string> typed = {"/id", "/count", "/ratio", "/names", "/nested/inner/size"};
  std::map<std::string, std::size_t> where;
  std::size_t lost = 0, lost_contract = 0;
  constexpr std::uint64_t kSeeds = 300;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const json::Value base = generator.valid(root, seed);
    ASSERT_TRUE(decoder.check(root, base).accepted);
    const std::optional<Mutant> mutant = mutator.apply(root, base, Mutation::kOpaqueNumber, seed);
    ASSERT_TRUE(mutant.has_value()) << json::write(base);
    EXPECT_EQ(mutant->mutation, Mutation::kOpaqueNumber);
    const Placed p = place(decoder, root, *mutant);
    ASSERT_FALSE(p.number.empty()) << "no single number at " << mutant->path << "\n" << p.context;
    EXPECT_TRUE(p.accepted_clean) << p.context;
    EXPECT_TRUE(p.kept) << p.context;
    const json::Value mutated = json::parse(mutant->bytes).value();
    for (const std::string& slot : typed) {
      const json::Value* before = at_pointer(base, slot);
      const json::Value* after = at_pointer(mutated, slot);
      ASSERT_EQ(before == nullptr, after == nullptr) << slot << "\n" << p.context;
      if (before) {
        EXPECT_TRUE(json::semantically_equal(*before, *after)) << slot << "\n" << p.context;
      }
    }
    // Which kind of position got the number.
    const std::vector<std::string> tokens = testing::pointer_tokens(mutant->path);
    ASSERT_FALSE(tokens.empty()) << p.context;
    std::string kind = tokens[0].rfind("x-cc-", 0) == 0 ? "unknown member of the root" : "/" + tokens[0];
    if (tokens[0] == "nested") {
      kind = tokens.size() >= 3 && tokens[2] == "payload" ? "/nested/inner/payload (any, 3 deep)"
             : tokens.size() >= 3                         ? "unknown member of the closed /nested/inner"
             : tokens.size() == 2 && tokens[1] != "inner" ? "unknown member of /nested"
                                                          : "/nested?";
    }
    ++where[kind];
    if (!survives_binary64(p.number)) ++lost;
    if (!survives_binary64(p.number) && contract_number(p.number)) ++lost_contract;
  }
  std::cout << "[opaque-number] own schema, " << kSeeds << " seeds: " << lost
            << " lose their value in a double (" << lost_contract << " contract numbers); positions:";
  for (const auto& [kind, n] : where) std::cout << " " << kind << " " << n << ";";
  std::cout << "\n";
  for (const char* kind : {"/meta", "/labels", "/items", "/nested/inner/payload (any, 3 deep)",
                           "unknown member of the closed /nested/inner", "unknown member of /nested",
                           "unknown member of the root"}) {
    EXPECT_GT(where[kind], 0u) << "never placed at: " << kind;
  }
  EXPECT_EQ(where.count("/nested?"), 0u);
  EXPECT_GE(lost * 100, kSeeds * 80);
  EXPECT_GE(lost_contract * 100, kSeeds * 60);
}

TEST(GenOpaqueNumber, SameSeedSameBytes) {
  const schema::Ir& ir = own_schema();
  const schema::Root& root = *ir.find_root("opaque_holder");
  ValueGenerator generator(ir);
  Mutator one(ir), other(ir);
  std::set<std::string> different;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const json::Value base = generator.valid(root, seed);
    auto a = one.apply(root, base, Mutation::kOpaqueNumber, seed);
    auto b = other.apply(root, base, Mutation::kOpaqueNumber, seed);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->bytes, b->bytes);
    EXPECT_EQ(a->description, b->description);
    EXPECT_EQ(a->path, b->path);
    different.insert(a->bytes);
  }
  EXPECT_GE(different.size(), 35u);  // the seed does choose
}

TEST(GenOpaqueNumber, RealBundleEveryRootKeepsTheSpelling) {
  ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
  const schema::Ir& ir = *testing::real_schema().ir;
  ValueGenerator generator(ir);
  Mutator mutator(ir);
  decoder::Decoder decoder(ir);
  std::set<std::string> roots;
  std::size_t count = 0, lost = 0, deepest = 0;
  for (const auto& root : ir.roots) {
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
      const json::Value base = generator.valid(root, seed);
      const std::optional<Mutant> mutant = mutator.apply(root, base, Mutation::kOpaqueNumber, seed);
      if (!mutant) continue;
      ++count;
      roots.insert(root.snake_name);
      const Placed p = place(decoder, root, *mutant);
      ASSERT_FALSE(p.number.empty()) << p.context;
      EXPECT_TRUE(p.accepted_clean) << p.context;
      EXPECT_TRUE(p.kept) << p.context;
      if (!survives_binary64(p.number)) ++lost;
      deepest = std::max(deepest, testing::pointer_tokens(mutant->path).size());
    }
  }
  std::cout << "[opaque-number] real bundle: " << count << " mutants over " << roots.size() << " of "
            << ir.roots.size() << " roots, " << lost << " lose their value in a double, deepest path "
            << deepest << " members\n";
  // Every root but content_selection, whose members are all open enums and whose typed
  // additionalProperties checks any other member: it has no opaque position at all.
  for (const auto& root : ir.roots) {
    if (root.snake_name != "content_selection") {
      EXPECT_TRUE(roots.count(root.snake_name)) << "no place in 12 instances of " << root.snake_name;
    }
  }
  EXPECT_TRUE(roots.count("extensions"));
  EXPECT_GE(deepest, 4u);
  EXPECT_GE(lost * 100, count * 80);
}

}  // namespace
}  // namespace crosscheck::gen
