// Tests of the comparator: each divergence class, what must NOT diverge, traits and buckets.
#include <gtest/gtest.h>

#include "differential/comparator.hpp"

namespace crosscheck::differential {
namespace {

ImplResult accepted(std::string impl, std::string encoded, std::vector<Diag> diags = {}) {
  ImplResult r;
  r.implementation = std::move(impl);
  r.outcome = Outcome::kAccepted;
  r.encoded = std::move(encoded);
  r.diagnostics = std::move(diags);
  return r;
}

ImplResult rejected(std::string impl, std::vector<Diag> diags) {
  ImplResult r;
  r.implementation = std::move(impl);
  r.outcome = Outcome::kRejected;
  r.diagnostics = std::move(diags);
  return r;
}

ImplResult failed(std::string impl, Outcome outcome, std::string message) {
  ImplResult r;
  r.implementation = std::move(impl);
  r.outcome = outcome;
  r.message = std::move(message);
  return r;
}

std::vector<DivergenceClass> classes(const std::vector<Divergence>& ds) {
  std::vector<DivergenceClass> out;
  for (const auto& d : ds) out.push_back(d.cls);
  return out;
}

const char* kInput = R"({"b": [1.0, "\u00e9"], "a": {"x": null}})";

TEST(Comparator, AllowedDifferencesAreNotDivergences) {
  // Key order, whitespace, number spelling and escape spelling may all change on re-encoding.
  auto ds = compare("root", kInput,
                    {accepted("cpp", R"({"a":{"x":null},"b":[1,"é"]})"),
                     accepted("python", "{ \"b\" : [ 1E0 , \"\\u00E9\" ] , \"a\" : { \"x\" : null } }"),
                     accepted("go", R"({"a":{"x":null},"b":[10E-1,"\u00e9"]})")});
  EXPECT_TRUE(ds.empty()) << ds.front().detail;
}

TEST(Comparator, Acceptance) {
  auto ds = compare("root", kInput,
                    {accepted("cpp", kInput), rejected("python", {{"/a", "invalid_type", "error"}})});
  ASSERT_EQ(classes(ds), std::vector<DivergenceClass>{DivergenceClass::kAcceptance});
  EXPECT_EQ(ds[0].implementations, (std::vector<std::string>{"cpp", "python"}));
  EXPECT_NE(ds[0].detail.find("invalid_type at '/a'"), std::string::npos);
  EXPECT_FALSE(ds[0].implementation_defined);
}

TEST(Comparator, WarningsCompareAsMultisetsOfPathAndCode) {
  Diag w1{"/e", "unknown_enum", "warning"}, w2{"/v", "unknown_variant", "warning"};
  EXPECT_TRUE(
      compare("root", kInput, {accepted("cpp", kInput, {w1, w2}), accepted("py", kInput, {w2, w1})}).empty());
  auto ds = compare("root", kInput, {accepted("cpp", kInput, {w1}), accepted("py", kInput, {w1, w1})});
  ASSERT_EQ(classes(ds), std::vector<DivergenceClass>{DivergenceClass::kWarnings});
  ds = compare("root", kInput, {accepted("cpp", kInput, {w1}), accepted("py", kInput, {})});
  ASSERT_EQ(classes(ds), std::vector<DivergenceClass>{DivergenceClass::kWarnings});
}

TEST(Comparator, PathsWithoutWarningsAreLeftOutOfTheWarningComparison) {
  Diag w{"/e", "unknown_enum", "warning"};
  CompareOptions o;
  o.without_warnings = {"python/direct"};
  EXPECT_TRUE(
      compare("root", kInput, {accepted("python", kInput, {w}), accepted("python/direct", kInput, {})}, o)
          .empty());
  EXPECT_FALSE(
      compare("root", kInput, {accepted("python", kInput, {w}), accepted("python/direct", kInput, {})})
          .empty());
}

TEST(Comparator, DiagnosticsOfTwoRejections) {
  Diag e1{"/a", "missing_required", "error"}, e2{"/a", "invalid_type", "error"};
  EXPECT_TRUE(compare("root", kInput, {rejected("cpp", {e1}), rejected("py", {e1})}).empty());
  auto ds = compare("root", kInput, {rejected("cpp", {e1}), rejected("py", {e2})});
  ASSERT_EQ(classes(ds), std::vector<DivergenceClass>{DivergenceClass::kDiagnostics});
  CompareOptions quiet;
  quiet.compare_diagnostics = false;
  EXPECT_TRUE(compare("root", kInput, {rejected("cpp", {e1}), rejected("py", {e2})}, quiet).empty());
}

TEST(Comparator, RoundTripSelfAndCross) {
  // python drops a member, go changes a number: both differ from the input, and from each other.
  auto ds = compare("root", kInput,
                    {accepted("cpp", kInput), accepted("python", R"({"b":[1,"é"],"a":{}})"),
                     accepted("go", R"({"b":[2,"é"],"a":{"x":null}})")});
  std::vector<DivergenceClass> expect{DivergenceClass::kRoundTripSelf, DivergenceClass::kRoundTripSelf,
                                      DivergenceClass::kRoundTripCross};
  ASSERT_EQ(classes(ds), expect);
  EXPECT_NE(ds[0].detail.find("'/a/x'"), std::string::npos);
  EXPECT_NE(ds[1].detail.find("'/b/0'"), std::string::npos);
}

TEST(Comparator, EncodeFailureAndGarbageEncoding) {
  ImplResult r = accepted("rust", "");
  r.encoded.reset();
  r.encode_error = "exactly one variant must be selected";
  auto ds = compare("root", kInput, {accepted("cpp", kInput), r, accepted("py", "{not json")});
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].cls, DivergenceClass::kRoundTripSelf);
  EXPECT_NE(ds[0].detail.find("exactly one variant"), std::string::npos);
  EXPECT_EQ(ds[1].cls, DivergenceClass::kRoundTripSelf);
  EXPECT_NE(ds[1].detail.find("not JSON"), std::string::npos);
}

TEST(Comparator, FailuresOfOneImplementation) {
  auto ds =
      compare("root", kInput,
              {accepted("cpp", kInput), failed("a", Outcome::kCrash, "signal 11"),
               failed("b", Outcome::kTimeout, "no answer in 10 s"), failed("c", Outcome::kError, "KeyError"),
               failed("d", Outcome::kProtocol, "wrong id"), failed("e", Outcome::kUnsupported, "")});
  std::vector<DivergenceClass> expect{DivergenceClass::kCrash, DivergenceClass::kTimeout,
                                      DivergenceClass::kSdkError, DivergenceClass::kProtocol};
  EXPECT_EQ(classes(ds), expect);  // unsupported is skew, not a divergence
}

TEST(Comparator, ImplementationDefinedInputsAreLabelled) {
  std::string dup = R"({"a":1,"a":2})";
  auto ds = compare("root", dup, {accepted("cpp", R"({"a":2})"), accepted("py", R"({"a":1})")});
  ASSERT_FALSE(ds.empty());
  EXPECT_TRUE(ds[0].implementation_defined);
  EXPECT_EQ(analyse_input(dup).names(), std::vector<std::string>{"duplicate-keys"});
  EXPECT_EQ(analyse_input(R"(["\ud800"])").names(), std::vector<std::string>{"lone-surrogate"});
  EXPECT_EQ(analyse_input("[1E400]").names(), (std::vector<std::string>{"huge-exponent", "big-integer"}));
  EXPECT_EQ(analyse_input("[1.5E400]").names(), (std::vector<std::string>{"huge-exponent", "big-integer"}));
  EXPECT_EQ(analyse_input("[1E-400]").names(), std::vector<std::string>{"huge-exponent"});
  EXPECT_EQ(analyse_input("[9007199254740992]").names(), std::vector<std::string>{"big-integer"});
  EXPECT_EQ(analyse_input("[-0]").names(), std::vector<std::string>{"negative-zero"});
  EXPECT_EQ(analyse_input("[\"\xff\"]").names(), (std::vector<std::string>{"not-json", "invalid-utf8"}));
  EXPECT_TRUE(analyse_input(std::string(150, '[') + std::string(150, ']')).deep_nesting);
  EXPECT_FALSE(analyse_input(R"({"a":[1.5,9007199254740991,"x"]})").any());
}

TEST(Comparator, BigIntegersInTypedSlotsAreContractNotFree) {
  std::string in = R"({"size":9007199254740992,"opaque":{"n":1E400}})";
  EXPECT_EQ(analyse_input(in).big_number_paths, (std::vector<std::string>{"/size", "/opaque/n"}));
  // The oracle rejects the integer slot: a contract divergence, not an implementation-defined one.
  auto typed =
      compare("root", in, {rejected("cpp", {{"/size", "invalid_type", "error"}}), accepted("python", in)});
  ASSERT_EQ(typed.size(), 1u);
  EXPECT_FALSE(typed[0].implementation_defined);
  // Nobody names the number: it is in an opaque position, and behaviour there is free.
  auto opaque =
      compare("root", in, {rejected("cpp", {{"", "invalid_json", "error"}}), accepted("python", in)});
  ASSERT_EQ(opaque.size(), 1u);
  EXPECT_TRUE(opaque[0].implementation_defined);
}

TEST(Comparator, BucketsAbstractIndicesAndUnknownNames) {
  std::set<std::string, std::less<>> known{"params", "items"};
  EXPECT_EQ(path_shape("/params/items/12/vendorX", &known), "/params/items/*/?");
  EXPECT_EQ(path_shape("", &known), "");
  CompareOptions o;
  o.known_names = &known;
  auto d1 = compare("root", kInput,
                    {accepted("cpp", kInput), rejected("py", {{"/items/1/zz", "invalid_type", "error"}})}, o);
  auto d2 = compare("root", kInput,
                    {accepted("cpp", kInput), rejected("py", {{"/items/7/qq", "invalid_type", "error"}})}, o);
  auto d3 =
      compare("root", kInput,
              {accepted("cpp", kInput), rejected("py", {{"/items/7/qq", "missing_required", "error"}})}, o);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(d1[0].bucket, d2[0].bucket);
  EXPECT_NE(d1[0].bucket, d3[0].bucket);
  EXPECT_EQ(d1[0].bucket.size(), 16u);
  EXPECT_EQ(outcome_tuple({rejected("py", {}), accepted("cpp", kInput)}), "cpp=accepted,py=rejected");
}

// One fault is one bucket: across roots, slots and random member names; different faults stay apart.
TEST(Comparator, BucketsAreOneFaultNotOneSlot) {
  std::set<std::string, std::less<>> known{"a", "b", "x", "items"};
  CompareOptions o;
  o.known_names = &known;
  // The same acceptance fault under two roots and two slots.
  auto r1 = compare("effect", kInput,
                    {accepted("cpp", kInput), rejected("py", {{"/a/x", "invalid_type", "error"}})}, o);
  auto r2 = compare("catalogue", kInput,
                    {accepted("cpp", kInput), rejected("py", {{"/b/0", "invalid_type", "error"}})}, o);
  ASSERT_EQ(r1.size(), 1u);
  ASSERT_EQ(r2.size(), 1u);
  EXPECT_EQ(r1[0].bucket, r2[0].bucket);
  EXPECT_EQ(r1[0].signature.find("effect"), std::string::npos);
  // Diagnostics: paths differ, the codes each side has to itself are the same: one bucket.
  auto d1 = compare("r", kInput,
                    {rejected("cpp", {{"/a", "invalid_type", "error"}, {"/b", "missing_required", "error"}}),
                     rejected("py", {{"", "invalid_json", "error"}})},
                    o);
  auto d2 =
      compare("r", kInput,
              {rejected("cpp", {{"/b/1", "invalid_type", "error"}, {"/x", "missing_required", "error"}}),
               rejected("py", {{"", "invalid_json", "error"}})},
              o);
  auto d3 = compare("r", kInput,
                    {rejected("cpp", {{"/b/1", "forbidden_property", "error"}}),
                     rejected("py", {{"", "invalid_json", "error"}})},
                    o);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(d1[0].cls, DivergenceClass::kDiagnostics);
  EXPECT_EQ(d1[0].bucket, d2[0].bucket);
  EXPECT_NE(d1[0].bucket, d3[0].bucket);
  // An SDK failure bucket does not depend on the other implementations' outcomes or the root.
  auto e1 = compare("r1", "\x80",
                    {rejected("cpp", {{"", "invalid_json", "error"}}), failed("py", Outcome::kError, "x")});
  auto e2 = compare("r2", "\x81", {accepted("cpp", "1"), failed("py", Outcome::kError, "y")});
  ASSERT_FALSE(e1.empty());
  ASSERT_FALSE(e2.empty());
  EXPECT_EQ(e1.back().signature.substr(0, 13), "sdk-error|py|");
}

TEST(Comparator, BucketsKeepTraitsAndTypedBigNumbersApart) {
  std::string big = R"({"size":9007199254740992})";
  std::string str = R"({"size":"1"})";
  auto typed =
      compare("r", big, {rejected("cpp", {{"/size", "invalid_type", "error"}}), accepted("py", big)});
  auto confusion =
      compare("r", str, {rejected("cpp", {{"/size", "invalid_type", "error"}}), accepted("py", str)});
  ASSERT_EQ(typed.size(), 1u);
  ASSERT_EQ(confusion.size(), 1u);
  // A big number in an integer slot (the known safe-integer divergence) must not hide a string accepted
  // there.
  EXPECT_NE(typed[0].bucket, confusion[0].bucket);
  EXPECT_NE(typed[0].signature.find("big-number-in-typed-slot"), std::string::npos);
}

TEST(Comparator, RoundTripBucketsNameTheKindOfChangeNotThePath) {
  std::set<std::string, std::less<>> known{"a"};
  CompareOptions o;
  o.known_names = &known;
  auto drop1 = compare("r", R"({"a":1,"zz":2})",
                       {accepted("cpp", R"({"a":1,"zz":2})"), accepted("py", R"({"a":1})")}, o);
  auto drop2 = compare("r", R"({"a":1,"qq":[3]})",
                       {accepted("cpp", R"({"a":1,"qq":[3]})"), accepted("py", R"({"a":1})")}, o);
  auto number = compare("r", R"({"a":1,"zz":2})",
                        {accepted("cpp", R"({"a":1,"zz":2})"), accepted("py", R"({"a":1,"zz":3})")}, o);
  auto self = [](const std::vector<Divergence>& ds) {
    for (const auto& d : ds)
      if (d.cls == DivergenceClass::kRoundTripSelf) return d;
    return Divergence{};
  };
  EXPECT_EQ(self(drop1).bucket, self(drop2).bucket);
  EXPECT_NE(self(drop1).bucket, self(number).bucket);
  EXPECT_NE(self(drop1).signature.find("unknown-member:dropped"), std::string::npos);
  EXPECT_NE(self(drop1).detail.find("/zz"), std::string::npos);
}

// An extra error under a code both sides use still shows in the bucket (codes are kept, paths decide
// which of them differ): otherwise the fault would share a bucket with "same codes, other paths".
TEST(Comparator, AnExtraErrorUnderASharedCodeIsNamed) {
  std::set<std::string, std::less<>> known{"a", "b"};
  CompareOptions o;
  o.known_names = &known;
  auto d = compare("r", kInput,
                   {rejected("cpp", {{"/a", "invalid_type", "error"}}),
                    rejected("faulty", {{"/a", "invalid_type", "error"}, {"/b", "invalid_type", "error"}})},
                   o);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].signature.find("faulty:+invalid_type"), std::string::npos) << d[0].signature;
}

}  // namespace
}  // namespace crosscheck::differential
