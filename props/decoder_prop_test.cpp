// decoder_prop_test.cpp: RapidCheck properties of the C++ decoder over schema-generated payloads
// of the real bundle. RapidCheck draws the root, the generator seed and the mutation; on failure it
// shrinks toward small seeds and root 0, and prints the reproduce string (replay with
// RC_PARAMS="reproduce=..."); every case logs the payload with RC_LOG.
//  (a) a generated valid instance is accepted with no diagnostic;
//  (b) an accepted payload re-encodes to a semantically equal value that decodes again with the
//      same warnings (multiset of path and code);
//  (c) an unknown member added anywhere survives the round trip;
//  (d) the content of an unknown member never changes the outcome;
//  (e) respelling a number never changes the outcome.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <tuple>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "tests/unit/gen_test_support.hpp"

namespace crosscheck::gen {

/// How RapidCheck prints a drawn Mutation in a counterexample (found by argument-dependent lookup).
inline void showValue(Mutation m, std::ostream& os) { os << mutation_name(m); }

namespace {

// 300 cases per property keep the five well under a second; RC_PARAMS, when set, wins entirely.
[[maybe_unused]] const bool kDefaultParams = [] {
  ::setenv("RC_PARAMS", "max_success=300", /*overwrite=*/0);
  return true;
}();

struct Env {
  const schema::Ir& ir;
  ValueGenerator generator;
  Mutator mutator;
  decoder::Decoder decoder;
  explicit Env(const schema::Ir& ir) : ir(ir), generator(ir), mutator(ir), decoder(ir) {}
};

/// The shared environment; a missing bundle fails the property with the fix.
const Env& env() {
  static const std::unique_ptr<Env> instance = [] {
    const auto& real = testing::real_schema();
    return real.ir ? std::make_unique<Env>(*real.ir) : nullptr;
  }();
  if (!instance) RC_FAIL(testing::real_schema().error);
  return *instance;
}

using Outcome = std::pair<bool, std::vector<std::tuple<std::string, std::string, bool>>>;

/// Acceptance and the sorted multiset of (path, code, is_error): what the SDKs must agree on.
Outcome outcome(const decoder::DecodeResult& r) {
  Outcome out{r.accepted, {}};
  for (const auto& d : r.diagnostics)
    out.second.emplace_back(d.path, d.code, d.severity == decoder::Severity::kError);
  std::sort(out.second.begin(), out.second.end());
  return out;
}

std::vector<std::pair<std::string, std::string>> warnings(const decoder::DecodeResult& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& d : r.diagnostics) {
    if (d.severity == decoder::Severity::kWarning) out.emplace_back(d.path, d.code);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string show(const Outcome& o) {
  std::string s = o.first ? "accepted" : "rejected";
  for (const auto& [path, code, error] : o.second)
    s += " [" + path + " " + code + (error ? "" : " (w)") + "]";
  return s;
}

/// Draws a root and a valid instance of it (seeds shrink toward 0).
std::pair<const schema::Root*, json::Value> draw_instance() {
  const Env& e = env();
  const auto index = *rc::gen::inRange<std::size_t>(0, e.ir.roots.size());
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const schema::Root& root = e.ir.roots[index];
  json::Value value = e.generator.valid(root, seed);
  RC_LOG() << "root " << root.snake_name << ", generator seed " << seed << "\n";
  return {&root, std::move(value)};
}

/// A valid instance, or one that a structural family made rejected or warning (as a tree).
std::pair<const schema::Root*, json::Value> draw_base() {
  auto [root, value] = draw_instance();
  static const std::vector<Mutation> kStructural = {Mutation::kDropRequired, Mutation::kTypeConfusion,
                                                    Mutation::kIntegerEdge,  Mutation::kUnknownEnum,
                                                    Mutation::kUnknownTag,   Mutation::kForbiddenNull,
                                                    Mutation::kAbsentNull,   Mutation::kBrokenKnownVariant};
  if (*rc::gen::arbitrary<bool>()) {
    const Mutation m = *rc::gen::elementOf(kStructural);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    if (auto mutant = env().mutator.apply(*root, value, m, seed)) {
      RC_LOG() << "base mutation " << mutation_name(m) << " seed " << seed << ": " << mutant->description
               << "\n";
      value = json::parse(mutant->bytes).value();
    }
  }
  return {root, std::move(value)};
}

// Arbitrary JSON for unknown members: leaves first, recursion through gen::lazy with a depth that
// shrinks on every level, distinct keys (duplicates are a separate, implementation-defined input).
rc::Gen<json::Value> json_leaf() {
  using json::Value;
  return rc::gen::oneOf(
      rc::gen::just(Value::null()),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Value::boolean(b); }),
      rc::gen::map(rc::gen::inRange(-100000, 100000), [](int n) { return Value::number(std::to_string(n)); }),
      rc::gen::map(
          rc::gen::elementOf(std::vector<std::string>{"0.5", "-1.25E3", "1E400", "9007199254740993", "-0"}),
          [](const std::string& n) { return Value::number(n); }),
      rc::gen::map(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 6)),
                   [](const std::vector<int>& picks) {
                     static const char* const kPieces[] = {"a",  "Z",  " ",        "\"",
                                                           "\\", "\n", "\xc3\xa9", "\xf0\x9f\x98\x80"};
                     std::string s;
                     for (int p : picks) s += kPieces[p];
                     return Value::string(s);
                   }));
}

rc::Gen<json::Value> json_value(int depth) {
  if (depth <= 0) return json_leaf();
  auto children = rc::gen::mapcat(rc::gen::inRange(0, 4), [depth](int n) {
    return rc::gen::container<std::vector<json::Value>>(
        static_cast<std::size_t>(n), rc::gen::lazy([depth] { return json_value(depth - 1); }));
  });
  return rc::gen::weightedOneOf<json::Value>(
      {{3, json_leaf()},
       {1, rc::gen::map(children,
                        [](std::vector<json::Value> items) { return json::Value::array(std::move(items)); })},
       {1, rc::gen::map(children, [](std::vector<json::Value> items) {
          json::Value object = json::Value::object();
          for (std::size_t i = 0; i < items.size(); ++i)
            object.add("k" + std::to_string(i), std::move(items[i]));
          return object;
        })}});
}

RC_GTEST_PROP(DecoderProps, GeneratedValidInstanceIsAcceptedClean, ()) {
  auto [root, value] = draw_instance();
  const std::string bytes = json::write(value);
  RC_LOG() << bytes << "\n";
  const decoder::DecodeResult r = env().decoder.decode(*root, bytes);
  RC_ASSERT(show(outcome(r)) == std::string("accepted"));
}

RC_GTEST_PROP(DecoderProps, AcceptedPayloadRoundTripsWithTheSameWarnings, ()) {
  auto [root, value] = draw_instance();
  static const std::vector<Mutation> kKeepsMeaning = {
      Mutation::kUnknownMember,  Mutation::kUnknownEnum, Mutation::kUnknownTag,
      Mutation::kNumberSpelling, Mutation::kStringEdge,  Mutation::kWhitespace,
      Mutation::kDuplicateKey,   Mutation::kDeepNesting, Mutation::kAbsentNull};
  std::string bytes = json::write(value);
  if (*rc::gen::arbitrary<bool>()) {
    const Mutation m = *rc::gen::elementOf(kKeepsMeaning);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    if (auto mutant = env().mutator.apply(*root, value, m, seed)) {
      RC_LOG() << "mutation " << mutation_name(m) << " seed " << seed << ": " << mutant->description << "\n";
      bytes = mutant->bytes;
    }
  }
  RC_LOG() << bytes.substr(0, 2000) << "\n";
  const decoder::DecodeResult first = env().decoder.decode(*root, bytes);
  RC_TAG(first.accepted ? (first.has_warning() ? "accepted with warnings" : "accepted clean") : "rejected");
  if (!first.accepted) return;
  RC_ASSERT(first.encoded.has_value());
  RC_LOG() << "re-encoded: " << first.encoded->substr(0, 2000) << "\n";
  auto reparsed = json::parse(*first.encoded);
  RC_ASSERT(reparsed.ok());
  RC_ASSERT(json::semantically_equal(reparsed.value(), *first.raw));
  const decoder::DecodeResult second = env().decoder.decode(*root, *first.encoded);
  RC_ASSERT(second.accepted);
  RC_ASSERT(warnings(second) == warnings(first));
}

RC_GTEST_PROP(DecoderProps, UnknownMemberSurvivesTheRoundTrip, ()) {
  auto [root, value] = draw_base();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto mutant = env().mutator.apply(*root, value, Mutation::kUnknownMember, seed);
  RC_PRE(mutant.has_value());
  RC_LOG() << mutant->description << "\n" << mutant->bytes.substr(0, 2000) << "\n";
  const decoder::DecodeResult r = env().decoder.decode(*root, mutant->bytes);
  RC_TAG(r.accepted ? "accepted" : "rejected");
  if (!r.accepted) return;
  const json::Value* added = testing::at_pointer(*r.raw, mutant->path);
  RC_ASSERT(added != nullptr);
  const json::Value encoded = json::parse(*r.encoded).value();
  const json::Value* kept = testing::at_pointer(encoded, mutant->path);
  RC_ASSERT(kept != nullptr);
  RC_ASSERT(json::semantically_equal(*kept, *added));
}

RC_GTEST_PROP(DecoderProps, UnknownMemberContentNeverChangesTheOutcome, ()) {
  auto [root, value] = draw_base();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto mutant = env().mutator.apply(*root, value, Mutation::kUnknownMember, seed);
  RC_PRE(mutant.has_value());
  const json::Value other = *json_value(3);
  json::Value tree = json::parse(mutant->bytes).value();
  // Replace the added member's content in place (last occurrence, as the decoder reads it).
  const std::string key = testing::pointer_tokens(mutant->path).back();
  json::Value* parent =
      const_cast<json::Value*>(testing::at_pointer(tree, mutant->path.substr(0, mutant->path.rfind('/'))));
  RC_ASSERT(parent != nullptr && parent->is_object());
  for (auto& m : parent->members()) {
    if (m.key == key) m.value = other;
  }
  const std::string second = json::write(tree);
  RC_LOG() << mutant->description << "\nfirst:  " << mutant->bytes.substr(0, 1500)
           << "\nsecond: " << second.substr(0, 1500) << "\n";
  const Outcome a = outcome(env().decoder.decode(*root, mutant->bytes));
  const Outcome b = outcome(env().decoder.decode(*root, second));
  RC_TAG(a.first ? "accepted" : "rejected");
  RC_LOG() << show(a) << "\n" << show(b) << "\n";
  RC_ASSERT(a == b);
}

RC_GTEST_PROP(DecoderProps, NumberRespellingNeverChangesTheOutcome, ()) {
  auto [root, value] = draw_base();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto mutant = env().mutator.apply(*root, value, Mutation::kNumberSpelling, seed);
  RC_PRE(mutant.has_value());
  const std::string original = json::write(value);
  RC_LOG() << mutant->description << "\n" << original.substr(0, 1500) << "\n";
  const Outcome a = outcome(env().decoder.decode(*root, original));
  const Outcome b = outcome(env().decoder.decode(*root, mutant->bytes));
  RC_TAG(a.first ? "accepted" : "rejected");
  RC_LOG() << show(a) << "\n" << show(b) << "\n";
  RC_ASSERT(a == b);
}

}  // namespace
}  // namespace crosscheck::gen
