// Tests of the decoding contract, rule by rule, on the hand-written IR of
// tests/data/ir/decoder_rules.ir.json: outcome and exact (path, code, severity) diagnostics, and the
// round trip of every accepted case.
#include <gtest/gtest.h>

#include "decoder/decoder.hpp"
#include "decoder_fixture.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"

namespace crosscheck::decoder {
namespace {

using testing::E;
using testing::Expect;
using testing::W;

struct Case {
  const char* root;
  std::string input;
  bool accepted;
  std::vector<Expect> diagnostics;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.root << " " << c.input; }

class DecoderRules : public ::testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() { ir_ = new schema::Ir(testing::load_fixture("decoder_rules.ir.json")); }
  static void TearDownTestSuite() {
    delete ir_;
    ir_ = nullptr;
  }
  static schema::Ir* ir_;
};
schema::Ir* DecoderRules::ir_ = nullptr;

TEST_P(DecoderRules, OutcomeAndDiagnostics) {
  const Case& c = GetParam();
  Decoder decoder(*ir_);
  DecodeResult result = decoder.decode(testing::root_of(*ir_, c.root), c.input);
  EXPECT_EQ(result.accepted, c.accepted);
  EXPECT_EQ(testing::triples(result.diagnostics), testing::sorted(c.diagnostics));
  // Acceptance is exactly "no error-severity diagnostic".
  bool any_error = false;
  for (const auto& d : result.diagnostics) any_error = any_error || d.severity == Severity::kError;
  EXPECT_EQ(result.accepted, !any_error);
  ASSERT_TRUE(result.raw.has_value());
  if (!result.accepted) {
    EXPECT_FALSE(result.encoded.has_value());
    return;
  }
  // Round trip: the re-encoding parses and is semantically equal to the input (unknown members,
  // unknown tags and unknown enum values included); nothing is added (no defaults).
  ASSERT_TRUE(result.encoded.has_value());
  auto input = json::parse(c.input);
  auto encoded = json::parse(*result.encoded);
  ASSERT_TRUE(input.ok());
  ASSERT_TRUE(encoded.ok()) << *result.encoded;
  EXPECT_TRUE(json::semantically_equal(*input, *encoded)) << *result.encoded;
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const std::vector<Case> kScalars = {
    {"Scalars", R"({})", true, {}},
    {"Scalars", R"({"n":null,"b":false,"s":"","num":1E400,"any":{"x":[1,{"y":null}]}})", true, {}},
    {"Scalars", R"({"num":-0.5e-7})", true, {}},
    {"Scalars", R"({"n":0})", false, {{"/n", "invalid_type", E}}},
    {"Scalars", R"({"n":"null"})", false, {{"/n", "invalid_type", E}}},
    {"Scalars", R"({"b":"true"})", false, {{"/b", "invalid_type", E}}},  // no coercion
    {"Scalars", R"({"b":1})", false, {{"/b", "invalid_type", E}}},
    {"Scalars", R"({"s":1})", false, {{"/s", "invalid_type", E}}},
    {"Scalars", R"({"num":"1"})", false, {{"/num", "invalid_type", E}}},
    {"Scalars", R"({"num":true})", false, {{"/num", "invalid_type", E}}},
    {"Scalars", R"({"never":null})", false, {{"/never", "invalid_type", E}}},
    {"Scalars",
     R"({"never":null,"s":2,"b":null})",
     false,
     {{"/never", "invalid_type", E}, {"/s", "invalid_type", E}, {"/b", "invalid_type", E}}},
    {"Scalars", R"([])", false, {{"", "invalid_type", E}}},
    {"Scalars", R"(null)", false, {{"", "invalid_type", E}}},
    // Lengths and patterns are not checked (the IR has none): long and empty strings pass.
    {"Scalars", R"({"s":")" + repeat("x", 20000) + R"("})", true, {}},
    // Unknown members are kept at any depth and re-encoded.
    {"Scalars", R"({"zz":{"deep":[1,{"k":null}],"e":"\u00e9\ud800"},"s":"a"})", true, {}},
};

const std::vector<Case> kIntegers = {
    {"Integers", R"({"i":9007199254740991})", true, {}},
    {"Integers", R"({"i":-9007199254740991})", true, {}},
    {"Integers", R"({"i":9007199254740992})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":-9007199254740992})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":9007199254740991.0})", true, {}},
    {"Integers", R"({"i":90071992547409910E-1})", true, {}},
    {"Integers", R"({"i":1.0})", true, {}},
    {"Integers", R"({"i":1E2})", true, {}},
    {"Integers", R"({"i":10E-1})", true, {}},
    {"Integers", R"({"i":-0})", true, {}},
    {"Integers", R"({"i":0.0e5})", true, {}},
    {"Integers", R"({"i":1.5})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":1E400})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":1E-400})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":1.0000000000000001})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":"1"})", false, {{"/i", "invalid_type", E}}},  // no coercion
    {"Integers", R"({"i":true})", false, {{"/i", "invalid_type", E}}},
    {"Integers", R"({"i":null})", false, {{"/i", "invalid_type", E}}},
    // boundedInteger: the generator's minimum/maximum, inclusive, by exact value.
    {"Integers", R"({"count":0,"pct":1})", true, {}},
    {"Integers", R"({"count":-0,"pct":100.0})", true, {}},
    {"Integers", R"({"pct":0.5E1})", true, {}},
    {"Integers", R"({"count":-1})", false, {{"/count", "invalid_type", E}}},
    {"Integers", R"({"pct":101})", false, {{"/pct", "invalid_type", E}}},
    {"Integers", R"({"pct":0})", false, {{"/pct", "invalid_type", E}}},
    {"Integers", R"({"count":1.5})", false, {{"/count", "invalid_type", E}}},
    {"Integers", R"({"count":9007199254740992})", false, {{"/count", "invalid_type", E}}},
};

const std::vector<Case> kLiterals = {
    {"Literals", R"({"s":"2.0","n":1,"o":{"k":[1,true,null]}})", true, {}},
    {"Literals", R"({"n":1.0})", true, {}},  // numbers by exact value
    {"Literals", R"({"n":1E0})", true, {}},
    {"Literals", R"({"n":10E-1})", true, {}},
    {"Literals", R"({"o":{"k":[1.0,true,null]}})", true, {}},
    {"Literals", R"({"o":{"k":[],"k":[1,true,null]}})", true, {}},  // objects as maps, last key wins
    {"Literals", R"({"s":"1.0"})", false, {{"/s", "literal_mismatch", E}}},
    {"Literals", R"({"s":2.0})", false, {{"/s", "literal_mismatch", E}}},
    {"Literals", R"({"n":"1"})", false, {{"/n", "literal_mismatch", E}}},
    {"Literals", R"({"n":true})", false, {{"/n", "literal_mismatch", E}}},
    {"Literals", R"({"n":1.5})", false, {{"/n", "literal_mismatch", E}}},
    {"Literals", R"({"n":1.0000000000000001})", false, {{"/n", "literal_mismatch", E}}},
    {"Literals", R"({"o":{"k":[1,true]}})", false, {{"/o", "literal_mismatch", E}}},
    {"Literals", R"({"o":{"k":[1,true,null],"x":1}})", false, {{"/o", "literal_mismatch", E}}},
    {"Literals", R"({"o":{"k":[1,true,null],"k":[]}})", false, {{"/o", "literal_mismatch", E}}},
};

const std::vector<Case> kEnums = {
    {"Enums", R"({"role":"user","mixed":"x"})", true, {}},
    {"Enums", R"({"role":"admin"})", true, {{"/role", "unknown_enum", W}}},
    {"Enums", R"({"role":""})", true, {{"/role", "unknown_enum", W}}},
    {"Enums", R"({"role":1})", false, {{"/role", "invalid_type", E}}},
    {"Enums", R"({"role":null})", false, {{"/role", "invalid_type", E}}},
    {"Enums", R"({"mixed":1.0})", true, {}},
    {"Enums", R"({"mixed":null})", true, {}},
    {"Enums", R"({"mixed":"y"})", false, {{"/mixed", "invalid_type", E}}},  // not open: not all strings
    {"Enums", R"({"mixed":2})", false, {{"/mixed", "invalid_type", E}}},
    {"Enums",
     R"({"role":"admin","mixed":2})",
     false,
     {{"/role", "unknown_enum", W}, {"/mixed", "invalid_type", E}}},
};

const std::vector<Case> kObjects = {
    // additionalProperties:false is not enforced; unknown members are kept at depth.
    {"Closed", R"({"id":"a","extra":1,"inner":{"x":1,"more":{"deep":[true]}}})", true, {}},
    {"Closed", R"({})", false, {{"/id", "missing_required", E}}},
    {"Closed", R"({"id":"a","inner":{}})", false, {{"/inner/x", "missing_required", E}}},
    {"Closed", R"({"id":"a","inner":{"x":"1"}})", false, {{"/inner/x", "invalid_type", E}}},
    {"Closed", R"({"id":null})", false, {{"/id", "invalid_type", E}}},
    {"Closed", R"({"id":"a","inner":null})", false, {{"/inner", "invalid_type", E}}},
    // Duplicate keys: the last one wins.
    {"Closed", R"({"id":1,"id":"a"})", true, {}},
    {"Closed", R"({"id":"a","id":1})", false, {{"/id", "invalid_type", E}}},
    // Absent differs from null: a required nullable member must be present.
    {"Candidate", R"({})", false, {{"/candidate", "missing_required", E}}},
    {"Candidate", R"({"candidate":null})", true, {}},
    {"Candidate", R"({"candidate":{}})", false, {{"/candidate", "no_union_match", E}}},
    {"Candidate", R"({"candidate":{"value":null}})", true, {}},
    {"Candidate", R"({"candidate":{"value":0}})", true, {}},
    {"Candidate", R"({"candidate":{"value":false}})", true, {}},
    {"Candidate", R"({"candidate":{"value":""}})", true, {}},
    {"Candidate", R"({"candidate":{"value":{}}})", true, {}},
    // Forbidden property sets: every member present, even as null, is an error at the object.
    {"Forbidden", R"({"a":1})", true, {}},
    {"Forbidden", R"({"b":null})", true, {}},
    {"Forbidden", R"({"a":1,"b":null})", false, {{"", "invalid_type", E}}},
    {"Forbidden", R"({"c":null})", false, {{"", "invalid_type", E}}},
    {"Forbidden", R"({"a":null,"b":null,"c":1})", false, {{"", "invalid_type", E}, {"", "invalid_type", E}}},
    // JSON Pointer escaping: ~ as ~0, / as ~1.
    {"Escapes", R"({})", false, {{"/a~1b", "missing_required", E}, {"/m~0n", "missing_required", E}}},
    {"Escapes", R"({"a/b":1,"m~n":"x"})", false, {{"/a~1b", "invalid_type", E}}},
    // Typed additional members: every undeclared member's (last) value against the shape.
    {"Typed", R"({"default":"x","n":1,"m":-5})", true, {}},
    {"Typed", R"({"n":"s"})", false, {{"/n", "invalid_type", E}}},
    {"Typed", R"({"n":"s","n":1})", true, {}},
    {"Typed", R"({"n":1,"n":"s","m":"t"})", false, {{"/n", "invalid_type", E}, {"/m", "invalid_type", E}}},
    {"Typed", R"({"default":1})", false, {{"/default", "invalid_type", E}}},
    {"Typed", R"({"a/b":"s"})", false, {{"/a~1b", "invalid_type", E}}},
    // Arrays.
    {"Ints", R"([])", true, {}},
    {"Ints", R"([1,2.0,3E0])", true, {}},
    {"Ints", R"([1,"x",3,null])", false, {{"/1", "invalid_type", E}, {"/3", "invalid_type", E}}},
    {"Ints", R"({})", false, {{"", "invalid_type", E}}},
    {"Tree",
     R"({"name":"r","children":[{"name":"c","children":[]},{"children":[{"name":1}]}]})",
     false,
     {{"/children/1/name", "missing_required", E}, {"/children/1/children/0/name", "invalid_type", E}}},
};

const std::vector<Case> kTaggedUnions = {
    {"Event", R"({"type":"alpha","x":"s"})", true, {}},
    {"Event", R"({"type":"beta","extra":{"k":[1]}})", true, {}},
    {"Event", R"({"type":"gamma","y":true})", true, {}},  // the tag found through an intersection
    // Unknown tag: kept, with a warning at the union's path (not at /type).
    {"Event", R"({"type":"zeta","anything":[1,2]})", true, {{"", "unknown_variant", W}}},
    {"Event", R"({"type":""})", true, {{"", "unknown_variant", W}}},
    // Known tag, invalid body: the branch's errors plus invalid_known_variant at the union.
    {"Event",
     R"({"type":"alpha"})",
     false,
     {{"/x", "missing_required", E}, {"", "invalid_known_variant", E}}},
    {"Event",
     R"({"type":"gamma"})",
     false,
     {{"/y", "missing_required", E}, {"", "invalid_known_variant", E}}},
    {"Event",
     R"({"type":"alpha","x":1})",
     false,
     {{"/x", "invalid_type", E}, {"", "invalid_known_variant", E}}},
    // Not an object, or no string tag: invalid_type at path/<discriminator>.
    {"Event", R"({})", false, {{"/type", "invalid_type", E}}},
    {"Event", R"({"type":1})", false, {{"/type", "invalid_type", E}}},
    {"Event", R"({"type":null})", false, {{"/type", "invalid_type", E}}},
    {"Event", R"([])", false, {{"/type", "invalid_type", E}}},
    {"Event", R"("alpha")", false, {{"/type", "invalid_type", E}}},
    // Duplicate tags: the last one wins.
    {"Event", R"({"type":"zeta","type":"beta"})", true, {}},
    {"Event", R"({"type":"beta","type":"zeta"})", true, {{"", "unknown_variant", W}}},
    {"Event",
     R"({"type":"alpha","x":"s","type":"gamma"})",
     false,
     {{"/y", "missing_required", E}, {"", "invalid_known_variant", E}}},
    // Nested paths.
    {"Holder", R"({"ev":{"type":"zeta"}})", true, {{"/ev", "unknown_variant", W}}},
    {"Holder",
     R"({"ev":{"type":"beta"},"evs":[{"type":"beta"},{"type":"q"},{"type":"alpha"}]})",
     false,
     {{"/evs/1", "unknown_variant", W},
      {"/evs/2/x", "missing_required", E},
      {"/evs/2", "invalid_known_variant", E}}},
    {"Holder", R"({"ev":{"type":"beta"},"evs":[{"type":"q"}]})", true, {{"/evs/0", "unknown_variant", W}}},
    // A known tag excluded through intersection[variant, never] (as in intercept_request's event):
    // an error, while an unknown tag stays a warning (one from each union).
    {"Restricted", R"({"type":"alpha","x":"s"})", true, {}},
    {"Restricted", R"({"type":"beta"})", false, {{"", "invalid_type", E}, {"", "invalid_known_variant", E}}},
    {"Restricted", R"({"type":"zeta"})", true, {{"", "unknown_variant", W}, {"", "unknown_variant", W}}},
    {"Restricted",
     R"({"type":"alpha"})",
     false,
     {{"/x", "missing_required", E},
      {"", "invalid_known_variant", E},
      {"/x", "missing_required", E},
      {"", "invalid_known_variant", E}}},
};

const std::vector<Case> kUntaggedUnions = {
    {"OneOf", R"({"kind":"x"})", true, {}},
    {"OneOf", R"({"id":"s"})", true, {}},
    {"OneOf", R"({"kind":"x","id":"s"})", false, {{"", "ambiguous_union", E}}},
    {"OneOf", R"({})", false, {{"", "no_union_match", E}}},  // branch errors are not reported
    {"OneOf", R"({"kind":"y","id":2})", false, {{"", "no_union_match", E}}},
    {"AnyOf", R"({"kind":"x","id":"s"})", true, {}},  // anyOf: the first match
    {"AnyOf", R"({})", false, {{"", "no_union_match", E}}},
    // The selected (first) match's warnings are kept ...
    {"AnyWarn", R"({"role":"zz"})", true, {{"/role", "unknown_enum", W}}},
    {"AnyWarn", R"({"role":"a"})", true, {}},
    {"AnyWarn", R"(5)", true, {}},
    // ... and a failed attempt's warnings are dropped.
    {"DropWarn", R"({"role":"zz"})", true, {}},
    {"DropWarn", R"({"must":"s","role":"zz"})", true, {{"/role", "unknown_enum", W}}},
    {"IdOrNull", R"("s")", true, {}},
    {"IdOrNull", R"(7)", true, {}},
    {"IdOrNull", R"(null)", true, {}},
    {"IdOrNull", R"(1.5)", false, {{"", "no_union_match", E}}},
    {"IdOrNull", R"(true)", false, {{"", "no_union_match", E}}},
    {"IdOrNull", R"(9007199254740992)", false, {{"", "no_union_match", E}}},
    {"OneChain", R"({"c":{"d":null}})", true, {}},
    {"OneChain", R"({"c":{"d":{"c":1}}})", false, {{"", "no_union_match", E}}},
};

INSTANTIATE_TEST_SUITE_P(Scalars, DecoderRules, ::testing::ValuesIn(kScalars));
INSTANTIATE_TEST_SUITE_P(Integers, DecoderRules, ::testing::ValuesIn(kIntegers));
INSTANTIATE_TEST_SUITE_P(Literals, DecoderRules, ::testing::ValuesIn(kLiterals));
INSTANTIATE_TEST_SUITE_P(Enums, DecoderRules, ::testing::ValuesIn(kEnums));
INSTANTIATE_TEST_SUITE_P(Objects, DecoderRules, ::testing::ValuesIn(kObjects));
INSTANTIATE_TEST_SUITE_P(TaggedUnions, DecoderRules, ::testing::ValuesIn(kTaggedUnions));
INSTANTIATE_TEST_SUITE_P(UntaggedUnions, DecoderRules, ::testing::ValuesIn(kUntaggedUnions));

}  // namespace
}  // namespace crosscheck::decoder
