// gen_mutator_test.cpp: every Mutation family on valid instances of every root of the real schema
// bundle: the decoder's verdict is the one the family claims, at the path it reports, and the same
// seed gives the same bytes.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/shape_facts.hpp"
#include "gen/shape_walk.hpp"
#include "gen_test_support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::gen {
namespace {

using decoder::DecodeResult;
using testing::at_pointer;

constexpr std::uint64_t kSeeds = 12;

bool has(const DecodeResult& r, const std::string& path, const std::string& code) {
  return std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [&](const auto& d) { return d.path == path && d.code == code; });
}

std::string show(const DecodeResult& r) {
  std::string out = r.accepted ? "accepted" : "rejected";
  for (const auto& d : r.diagnostics) out += " [" + d.path + " " + d.code + "]";
  return out;
}

std::string parent_of(const std::string& pointer) { return pointer.substr(0, pointer.rfind('/')); }

class GenMutator : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(testing::real_schema().ir, nullptr) << testing::real_schema().error;
    ir_ = testing::real_schema().ir.get();
    generator_ = std::make_unique<ValueGenerator>(*ir_);
    mutator_ = std::make_unique<Mutator>(*ir_);
    decoder_ = std::make_unique<decoder::Decoder>(*ir_);
  }

  struct Case {
    const schema::Root& root;
    const json::Value& value;
    const Mutant& mutant;
    const DecodeResult& result;
    std::string context() const {
      return root.snake_name + ": " + mutant.description + "\n" + mutant.bytes.substr(0, 400) + "\n" +
             show(result);
    }
  };

  /// Applies `mutation` to kSeeds instances of every root; calls `check` on each mutant. Returns
  /// the number of mutants and the roots that had a place for the family.
  std::pair<std::size_t, std::set<std::string>> each(Mutation mutation,
                                                     const std::function<void(const Case&)>& check) {
    std::size_t count = 0;
    std::set<std::string> roots;
    for (const auto& root : ir_->roots) {
      for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        const json::Value value = generator_->valid(root, seed);
        const std::optional<Mutant> mutant = mutator_->apply(root, value, mutation, seed);
        if (!mutant) continue;
        EXPECT_EQ(mutant->mutation, mutation);
        ++count;
        roots.insert(root.snake_name);
        const DecodeResult result = decoder_->decode(root, mutant->bytes);
        check(Case{root, value, *mutant, result});
      }
    }
    std::cout << "[mutator] " << mutation_name(mutation) << ": " << count << " mutants over " << roots.size()
              << " roots\n";
    if (roots.size() < ir_->roots.size()) {
      std::cout << "[mutator]   roots:";
      for (const auto& r : roots) std::cout << " " << r;
      std::cout << "\n";
    }
    return {count, roots};
  }

  const schema::Ir* ir_ = nullptr;
  std::unique_ptr<ValueGenerator> generator_;
  std::unique_ptr<Mutator> mutator_;
  std::unique_ptr<decoder::Decoder> decoder_;
};

TEST_F(GenMutator, NamesAreDistinctAndComplete) {
  std::set<std::string> names;
  for (Mutation m : all_mutations()) names.insert(mutation_name(m));
  EXPECT_EQ(names.size(), 21u);
  EXPECT_EQ(names.count("unknown"), 0u);
}

TEST_F(GenMutator, UnknownMemberIsKeptThroughTheRoundTrip) {
  auto [count, roots] = each(Mutation::kUnknownMember, [](const Case& c) {
    ASSERT_TRUE(c.result.accepted && c.result.diagnostics.empty()) << c.context();
    auto original = json::parse(c.mutant.bytes);
    ASSERT_TRUE(original.ok());
    const json::Value* added = at_pointer(original.value(), c.mutant.path);
    ASSERT_NE(added, nullptr) << c.context();
    EXPECT_EQ(at_pointer(c.value, c.mutant.path), nullptr) << "the member was not new: " << c.context();
    auto encoded = json::parse(*c.result.encoded);
    ASSERT_TRUE(encoded.ok());
    const json::Value* kept = at_pointer(encoded.value(), c.mutant.path);
    ASSERT_NE(kept, nullptr) << "dropped by the re-encoding: " << c.context();
    EXPECT_TRUE(json::semantically_equal(*kept, *added)) << c.context();
  });
  EXPECT_EQ(roots.size(), ir_->roots.size() - 1) << "every root but content_selection has an untyped object";
}

TEST_F(GenMutator, UnknownEnumWarnsAtThePath) {
  auto [count, roots] = each(Mutation::kUnknownEnum, [](const Case& c) {
    EXPECT_TRUE(c.result.accepted && has(c.result, c.mutant.path, "unknown_enum")) << c.context();
    for (const auto& d : c.result.diagnostics)
      EXPECT_EQ(d.severity, decoder::Severity::kWarning) << c.context();
  });
  EXPECT_GT(count, 50u);
  EXPECT_TRUE(roots.count("capabilities"));
}

TEST_F(GenMutator, UnknownTagWarnsAtThePath) {
  auto [count, roots] = each(Mutation::kUnknownTag, [](const Case& c) {
    EXPECT_TRUE(c.result.accepted && has(c.result, c.mutant.path, "unknown_variant")) << c.context();
  });
  EXPECT_GT(count, 50u);
  EXPECT_TRUE(roots.count("event") && roots.count("intercept_request"));
}

TEST_F(GenMutator, BrokenKnownVariantIsInvalidKnownVariant) {
  std::size_t at_path = 0;
  auto [count, roots] = each(Mutation::kBrokenKnownVariant, [&](const Case& c) {
    ASSERT_FALSE(c.result.accepted) << c.context();
    at_path += has(c.result, c.mutant.path, "invalid_known_variant");
  });
  std::cout << "[mutator] broken-known-variant: invalid_known_variant at the path in " << at_path << "/"
            << count << "\n";
  EXPECT_GT(count, 50u);
  // The rest sit inside an untagged union's arm, where the enclosing union reports no_union_match.
  EXPECT_GE(at_path * 100, count * 90);
}

TEST_F(GenMutator, AmbiguousUnionWhereTheSchemaAllowsOne) {
  ShapeFacts facts(*ir_);
  std::size_t count = 0, at_path = 0;
  std::set<std::string> roots;
  for (const auto& root : ir_->roots) {
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
      const json::Value value = generator_->valid(root, seed);
      const std::optional<Mutant> mutant = mutator_->apply(root, value, Mutation::kAmbiguousUnion, seed);
      bool has_one_of = false;
      for (const WalkNode& node : walk(facts, *ir_->root_shape(root), value)) {
        for (const auto& u : node.untagged)
          has_one_of = has_one_of || u.node->mode == schema::UnionMode::kOneOf;
      }
      if (!has_one_of) {
        EXPECT_FALSE(mutant.has_value())
            << root.snake_name << ": no oneOf in the value, yet " << mutant->description;
        continue;
      }
      if (!mutant) continue;
      ++count;
      roots.insert(root.snake_name);
      const DecodeResult result = decoder_->decode(root, mutant->bytes);
      EXPECT_FALSE(result.accepted) << root.snake_name << ": " << mutant->description << "\n"
                                    << mutant->bytes;
      if (has(result, mutant->path, "ambiguous_union")) {
        ++at_path;
      } else {
        // Only when no oneOf of the value can surface it: an enclosing untagged union then
        // reports no_union_match for the arm the ambiguity broke.
        EXPECT_TRUE(std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                                [](const auto& d) { return d.code == "no_union_match"; }))
            << root.snake_name << ": " << mutant->description << "\n"
            << mutant->bytes << "\n"
            << show(result);
      }
    }
  }
  std::cout << "[mutator] ambiguous-union: ambiguous_union at the path in " << at_path << "/" << count
            << "; roots:";
  for (const auto& r : roots) std::cout << " " << r;
  std::cout << "\n";
  EXPECT_TRUE(roots.count("content_item"));
  EXPECT_TRUE(roots.count("json_rpc_message"));
  EXPECT_GE(at_path * 100, count * 80);
}

TEST_F(GenMutator, ForbiddenMembersAreRejectedEvenAsNull) {
  for (Mutation m : {Mutation::kForbiddenNull, Mutation::kForbiddenProperty}) {
    std::size_t at_object = 0;
    auto [count, roots] = each(m, [&](const Case& c) {
      if (m == Mutation::kForbiddenNull) {
        ASSERT_FALSE(c.result.accepted) << c.context();
      }
      at_object += !c.result.accepted && has(c.result, c.mutant.path, "invalid_type");
    });
    std::cout << "[mutator] " << mutation_name(m) << ": invalid_type at the object in " << at_object << "/"
              << count << "\n";
    EXPECT_GT(count, 50u);
    // The others are objects inside an untagged union's arm (no_union_match, or another arm fits).
    EXPECT_GE(at_object * 100, count * 75);
  }
}

TEST_F(GenMutator, DropRequiredIsMissingRequired) {
  std::size_t at_path = 0;
  auto [count, roots] = each(Mutation::kDropRequired, [&](const Case& c) {
    ASSERT_FALSE(c.result.accepted) << c.context();
    at_path += has(c.result, c.mutant.path, "missing_required");
    const json::Value tree = json::parse(c.mutant.bytes).value();
    ASSERT_EQ(at_pointer(tree, c.mutant.path), nullptr) << c.context();
  });
  std::cout << "[mutator] drop-required: missing_required at the path in " << at_path << "/" << count << "\n";
  EXPECT_GE(at_path * 100, count * 80);
}

TEST_F(GenMutator, IntegerEdgesOutsideTheSafeRangeAreRejected) {
  std::size_t unsafe = 0, two_to_53 = 0;
  each(Mutation::kIntegerEdge, [&](const Case& c) {
    auto parsed = json::parse(c.mutant.bytes);
    ASSERT_TRUE(parsed.ok()) << c.context();
    const json::Value* slot = at_pointer(parsed.value(), c.mutant.path);
    ASSERT_TRUE(slot && slot->is_number()) << c.context();
    if (!json::is_safe_integer(slot->number_text())) {
      ++unsafe;
      two_to_53 += json::compare_numbers(slot->number_text(), "9007199254740992") == 0;
      EXPECT_FALSE(c.result.accepted) << c.context();
    }
  });
  EXPECT_GT(unsafe, 20u);
  EXPECT_GT(two_to_53, 0u);
}

TEST_F(GenMutator, NumberSpellingKeepsValueAndVerdict) {
  each(Mutation::kNumberSpelling, [](const Case& c) {
    EXPECT_NE(c.mutant.bytes, json::write(c.value));
    EXPECT_TRUE(c.result.accepted && c.result.diagnostics.empty()) << c.context();
    ASSERT_TRUE(c.result.raw.has_value());
    EXPECT_TRUE(json::semantically_equal(*c.result.raw, c.value)) << c.context();
  });
}

TEST_F(GenMutator, DuplicateKeyRepeatsTheMember) {
  each(Mutation::kDuplicateKey, [](const Case& c) {
    auto parsed = json::parse(c.mutant.bytes);  // the lossless tree keeps both members
    ASSERT_TRUE(parsed.ok()) << c.context();
    const json::Value* parent = at_pointer(parsed.value(), parent_of(c.mutant.path));
    ASSERT_TRUE(parent && parent->is_object()) << c.context();
    const std::string key = testing::pointer_tokens(c.mutant.path).back();
    EXPECT_EQ(std::count_if(parent->members().begin(), parent->members().end(),
                            [&](const json::Member& m) { return m.key == key; }),
              2)
        << c.context();
  });
}

TEST_F(GenMutator, ByteFamiliesBreakWhatTheyClaim) {
  each(Mutation::kInvalidUtf8, [](const Case& c) {
    EXPECT_FALSE(json::is_valid_utf8(c.mutant.bytes)) << c.mutant.description;
    EXPECT_TRUE(has(c.result, "", "invalid_json")) << c.context();
  });
  each(Mutation::kBom, [](const Case& c) {
    ASSERT_EQ(c.mutant.bytes.substr(0, 3), "\xEF\xBB\xBF");
    EXPECT_EQ(c.mutant.bytes.substr(3), json::write(c.value));
    EXPECT_FALSE(c.result.accepted);
  });
  std::size_t legal = 0, illegal = 0;
  each(Mutation::kWhitespace, [&](const Case& c) {
    if (c.mutant.description.rfind("legal", 0) == 0) {
      ++legal;
      EXPECT_TRUE(c.result.accepted && json::semantically_equal(*c.result.raw, c.value)) << c.context();
    } else {
      ++illegal;
      EXPECT_TRUE(has(c.result, "", "invalid_json")) << c.context();
    }
  });
  EXPECT_GT(legal, 0u);
  EXPECT_GT(illegal, 0u);
  std::size_t changed = 0, total = 0;
  each(Mutation::kByteLevel, [&](const Case& c) {
    ++total;
    changed += c.mutant.bytes != json::write(c.value);
  });
  EXPECT_GE(changed * 100, total * 95);
}

TEST_F(GenMutator, TypeConfusionIsRejected) {
  each(Mutation::kTypeConfusion, [](const Case& c) { EXPECT_FALSE(c.result.accepted) << c.context(); });
}

TEST_F(GenMutator, StringEdgesParseAndKeepTheVerdict) {
  each(Mutation::kStringEdge, [](const Case& c) {
    // Lone surrogates, NUL, separators: all legal JSON the decoder keeps (WTF-8).
    EXPECT_TRUE(c.result.accepted) << c.context();
  });
}

TEST_F(GenMutator, DeepNestingAcceptedUpToTheParserLimit) {
  std::size_t deep = 0;
  each(Mutation::kDeepNesting, [&](const Case& c) {
    std::size_t depth = 0, max_depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < c.mutant.bytes.size(); ++i) {
      const char ch = c.mutant.bytes[i];
      if (in_string) {
        if (ch == '\\') ++i;
        if (ch == '"') in_string = false;
      } else if (ch == '"') {
        in_string = true;
      } else if (ch == '[' || ch == '{') {
        max_depth = std::max(max_depth, ++depth);
      } else if (ch == ']' || ch == '}') {
        --depth;
      }
    }
    deep += max_depth >= 64;
    // Opaque positions accept anything the parser accepts: 1000 levels (the decoder's limit).
    if (max_depth <= 1000) {
      EXPECT_TRUE(c.result.accepted) << max_depth << " levels: " << c.context().substr(0, 300);
    } else {
      EXPECT_TRUE(has(c.result, "", "invalid_json")) << max_depth << " levels";
    }
  });
  EXPECT_GT(deep, 100u);
}

TEST_F(GenMutator, EmptyContainerAndAbsentNullChangeWhatTheySay) {
  each(Mutation::kEmptyContainer, [](const Case& c) {
    const json::Value tree = json::parse(c.mutant.bytes).value();
    const json::Value* at = at_pointer(tree, c.mutant.path);
    ASSERT_NE(at, nullptr) << c.context();
    EXPECT_TRUE((at->is_object() && at->members().empty()) || (at->is_array() && at->items().empty()));
  });
  each(Mutation::kAbsentNull, [](const Case& c) {
    const json::Value* before = at_pointer(c.value, c.mutant.path);
    const json::Value tree = json::parse(c.mutant.bytes).value();
    const json::Value* after = at_pointer(tree, c.mutant.path);
    if (!before) {
      EXPECT_TRUE(after && after->is_null()) << c.context();
    } else if (before->is_null()) {
      EXPECT_EQ(after, nullptr) << c.context();
    } else {
      EXPECT_TRUE(after && after->is_null()) << c.context();
    }
  });
}

TEST_F(GenMutator, DeepValuesDoNotBreakTheWalk) {
  // A value far deeper than any schema position (inside an unknown member): every family still
  // answers, and positions are listed without recursing once per level beyond the walk's bound.
  const schema::Root& root = *ir_->find_root("extensions");
  json::Value deep = json::Value::number("1");
  for (int i = 0; i < 3000; ++i) deep = json::Value::array({std::move(deep)});
  json::Value value = json::Value::object();
  value.add("x-deep", std::move(deep));
  for (Mutation m : all_mutations()) {
    auto mutant = mutator_->apply(root, value, m, 1);
    if (mutant) {
      EXPECT_FALSE(mutant->bytes.empty()) << mutation_name(m);
    }
  }
}

TEST_F(GenMutator, SameSeedSameBytes) {
  Mutator other(*ir_);
  for (const auto& root : ir_->roots) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const json::Value value = generator_->valid(root, seed);
      for (Mutation m : all_mutations()) {
        auto a = mutator_->apply(root, value, m, seed);
        auto b = other.apply(root, value, m, seed);
        ASSERT_EQ(a.has_value(), b.has_value());
        if (!a) continue;
        EXPECT_EQ(a->bytes, b->bytes) << mutation_name(m) << " " << root.snake_name;
        EXPECT_EQ(a->description, b->description);
        EXPECT_EQ(a->path, b->path);
      }
    }
  }
}

TEST_F(GenMutator, AnyAlwaysGivesAMutantAndCoversTheFamilies) {
  std::map<Mutation, std::size_t> seen;
  for (std::size_t r = 0; r < ir_->roots.size(); ++r) {
    const schema::Root& root = ir_->roots[r];
    for (std::uint64_t seed = r * 100; seed < r * 100 + 20; ++seed) {
      const json::Value value = generator_->valid(root, seed);
      const Mutant a = mutator_->any(root, value, seed);
      EXPECT_EQ(a.bytes, mutator_->any(root, value, seed).bytes);
      ++seen[a.mutation];
    }
  }
  EXPECT_EQ(seen.size(), all_mutations().size());
}

// fuzz_structured keeps a value's walk between mutations of it: a kept walk, filled by one seed's
// families, gives every later seed the mutant any() gives without it.
TEST_F(GenMutator, AnyWithAKeptWalkGivesTheSameMutants) {
  std::size_t compared = 0;
  for (std::size_t r = 0; r < ir_->roots.size(); ++r) {
    const schema::Root& root = ir_->roots[r];
    const json::Value value = generator_->valid(root, r);
    MutationWalk walk;
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
      const Mutant kept = mutator_->any(root, value, seed, walk);
      const Mutant fresh = mutator_->any(root, value, seed);
      EXPECT_EQ(kept.bytes, fresh.bytes) << root.snake_name << " seed " << seed;
      EXPECT_EQ(kept.mutation, fresh.mutation) << root.snake_name << " seed " << seed;
      EXPECT_EQ(kept.path, fresh.path) << root.snake_name << " seed " << seed;
      ++compared;
    }
  }
  EXPECT_EQ(compared, ir_->roots.size() * 8);
}

}  // namespace
}  // namespace crosscheck::gen
