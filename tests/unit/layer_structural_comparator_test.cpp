// Tests of the comparator: each divergence class, what must NOT diverge, traits and buckets.
#include <gtest/gtest.h>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "json/parse.hpp"
#include "layers/structural/comparator.hpp"

namespace crosscheck::layers::structural {

using core::Diag;
using core::Divergence;
using core::DivergenceClass;
using core::ImplResult;
using core::Outcome;

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
  // Diagnostics: paths differ, the codes each side has to itself are the same: one bucket; other codes,
  // another bucket.
  auto d1 = compare("r", kInput,
                    {rejected("cpp", {{"/a", "invalid_type", "error"}, {"/b", "missing_required", "error"}}),
                     rejected("py", {{"/a", "invalid_type", "error"}})},
                    o);
  auto d2 =
      compare("r", kInput,
              {rejected("cpp", {{"/b/1", "invalid_type", "error"}, {"/x", "missing_required", "error"}}),
               rejected("py", {{"/b/1", "invalid_type", "error"}})},
              o);
  auto d3 =
      compare("r", kInput,
              {rejected("cpp", {{"/b/1", "forbidden_property", "error"}, {"/a", "invalid_type", "error"}}),
               rejected("py", {{"/a", "invalid_type", "error"}})},
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

// --- text refused as JSON by some, parsed by others -----------------------------------------------

std::string nested(std::size_t levels, const std::string& inner = "0") {
  return std::string(levels, '[') + inner + std::string(levels, ']');
}

Diag error(std::string path, std::string code) { return {std::move(path), std::move(code), "error"}; }

/// The divergence of an implementation refusing the text as JSON, or an empty one.
Divergence refusal(const std::vector<Divergence>& ds) {
  for (const auto& d : ds) {
    if (d.signature.find(":invalid_json|") != std::string::npos) return d;
  }
  return Divergence{};
}

// Rust refusing deep text is one fault: what the others then found in the payload, and every other
// trait the input has, stay out of its bucket.
TEST(Comparator, RefusingTheTextIsOneBucketWhateverTheOthersFound) {
  const std::string plain = R"({"x":)" + nested(150) + "}";
  const std::string busy = R"({"size":9007199254740992,"d":1,"d":2,"n":-0,"x":)" + nested(150) + "}";
  auto a = compare(
      "r", plain,
      {accepted("cpp", plain), accepted("python", plain), rejected("rust", {error("", "invalid_json")})});
  auto b = compare("r", busy,
                   {rejected("cpp", {error("/size", "invalid_type"), error("/zz", "missing_required")}),
                    rejected("python", {error("/zz", "missing_required")}),
                    rejected("rust", {error("", "invalid_json")})});
  auto c = compare("r", busy,
                   {rejected("cpp", {error("/u", "no_union_match"), error("", "invalid_known_variant")}),
                    accepted("python", busy), rejected("rust", {error("", "invalid_json")})});
  ASSERT_FALSE(refusal(a).bucket.empty());
  EXPECT_EQ(refusal(a).signature,
            "acceptance|cpp=parsed,python=parsed,rust=rejected|rust:invalid_json|deep-nesting");
  EXPECT_TRUE(refusal(a).implementation_defined);
  EXPECT_EQ(refusal(b).bucket, refusal(a).bucket) << refusal(b).signature;
  EXPECT_EQ(refusal(c).bucket, refusal(a).bucket) << refusal(c).signature;
  EXPECT_EQ(a.size(), 1u);
  // What cpp and python disagree on is compared on its own, among them: here the known safe-integer
  // divergence, a contract one, which the refusal must not hide.
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].signature,
            "diagnostics|cpp=rejected,python=rejected|cpp:+invalid_type|big-number-in-typed-slot");
  EXPECT_FALSE(b[1].implementation_defined);
  EXPECT_EQ(b[1].implementations, (std::vector<std::string>{"cpp", "python"}));
}

TEST(Comparator, TheRefusalBucketNamesTheTraitThatStopsAParser) {
  const std::string surrogate = R"({"x":"\ud800","d":1,"d":2})";
  const std::string both = R"({"x":"\ud800","y":)" + nested(150) + "}";
  auto refused = [](const std::string& in) {
    return refusal(compare("r", in, {accepted("cpp", in), rejected("rust", {error("", "invalid_json")})}));
  };
  EXPECT_EQ(refused(surrogate).signature,
            "acceptance|cpp=parsed,rust=rejected|rust:invalid_json|lone-surrogate");
  // Several such traits: one bucket by the first of depth, surrogates, number length and range.
  EXPECT_EQ(refused(both).signature, "acceptance|cpp=parsed,rust=rejected|rust:invalid_json|deep-nesting");
  // Nothing that stops a parser: refusing plain JSON breaks the contract.
  const std::string clean = R"({"x":[1,2]})";
  EXPECT_EQ(refused(clean).signature, "acceptance|cpp=parsed,rust=rejected|rust:invalid_json|");
  EXPECT_FALSE(refused(clean).implementation_defined);
  // Everyone refuses the text: they agree, whatever paths their errors carry.
  EXPECT_TRUE(compare("r", nested(1500),
                      {rejected("cpp", {error("/0/0", "invalid_json")}),
                       rejected("rust", {error("", "invalid_json")})})
                  .empty());
}

// A trait makes a divergence free only where the implementations differ: elsewhere in the input it
// decides nothing, and the divergence stays the contract fault it is, in that fault's bucket.
TEST(Comparator, TraitsCountOnlyWhereTheImplementationsDiffer) {
  const std::string alone = R"({"size":"1"})";
  const std::string busy = R"({"a":"\ud800","b":{"k":1,"k":2},"size":"1","z":)" + nested(120) + "}";
  auto contract = [](const std::string& in) {
    return compare("r", in, {rejected("cpp", {error("/size", "invalid_type")}), accepted("py", in)});
  };
  ASSERT_EQ(contract(busy).size(), 1u);
  EXPECT_FALSE(contract(busy)[0].implementation_defined);
  EXPECT_EQ(contract(busy)[0].bucket, contract(alone)[0].bucket) << contract(busy)[0].signature;
  // Where they differ holds the duplicate key: that, and only that, decides.
  auto free = compare("r", busy, {accepted("cpp", busy), rejected("py", {error("/b/k", "invalid_type")})});
  ASSERT_EQ(free.size(), 1u);
  EXPECT_TRUE(free[0].implementation_defined);
  EXPECT_EQ(free[0].signature, "acceptance|cpp=accepted,py=rejected|invalid_type|duplicate-keys");
  // Below a union error, the trait nearest to it decides, not every trait further down.
  const std::string variant = R"({"u":{"size":9007199254740992,"meta":{"a":{"b":1,"b":2}}}})";
  auto in_union =
      compare("r", variant,
              {rejected("cpp", {error("/u", "no_union_match"), error("", "invalid_known_variant")}),
               accepted("py", variant)});
  ASSERT_EQ(in_union.size(), 1u);
  EXPECT_EQ(in_union[0].signature, "acceptance|cpp=rejected,py=accepted|no_union_match|big-integer");
  // A big number in a typed slot that both report alike is not what their other difference is about.
  const std::string big = R"({"size":9007199254740992})";
  auto other = compare("r", big,
                       {rejected("cpp", {error("/size", "invalid_type"), error("/ref", "missing_required")}),
                        rejected("py", {error("/size", "invalid_type")})});
  auto safe = compare("r", big,
                      {rejected("cpp", {error("/size", "invalid_type"), error("/ref", "missing_required")}),
                       rejected("py", {error("/ref", "missing_required")})});
  ASSERT_EQ(other.size(), 1u);
  ASSERT_EQ(safe.size(), 1u);
  EXPECT_EQ(other[0].signature, "diagnostics|cpp=rejected,py=rejected|cpp:+missing_required|");
  EXPECT_EQ(safe[0].signature,
            "diagnostics|cpp=rejected,py=rejected|cpp:+invalid_type|big-number-in-typed-slot");
}

// An SDK that rejects without saying where (no error diagnostic) could be refusing any part of the
// input: every trait counts, as for a crash, so a big number anywhere is not a contract claim.
TEST(Comparator, ARejectionThatNamesNoPlaceKeepsEveryTrait) {
  const std::string in = R"({"type":"flow","x":{"k":123456789012345678901234567890}})";
  auto refused = compare("r", in, {accepted("cpp", in), rejected("rs", {})});
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_TRUE(refused[0].implementation_defined) << refused[0].signature;
  EXPECT_EQ(refused[0].signature, "acceptance|cpp=accepted,rs=rejected|none|big-integer");
  // Without such a trait it stays a contract divergence.
  const std::string plain = R"({"type":"flow","x":{"k":1}})";
  auto contract = compare("r", plain, {accepted("cpp", plain), rejected("rs", {})});
  ASSERT_EQ(contract.size(), 1u);
  EXPECT_FALSE(contract[0].implementation_defined);
  // Two rejections, one of them without an error: the same rule.
  auto both = compare("r", in, {rejected("cpp", {error("/type", "invalid_type")}), rejected("rs", {})});
  ASSERT_EQ(both.size(), 1u);
  EXPECT_TRUE(both[0].implementation_defined) << both[0].signature;
  // A rejection that names its place still counts only the traits there.
  auto placed = compare("r", in, {accepted("cpp", in), rejected("rs", {error("/type", "invalid_type")})});
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_FALSE(placed[0].implementation_defined) << placed[0].signature;
}

// --- input traits -------------------------------------------------------------------------------

TEST(InputTraits, SitesSayWhereEachTraitIs) {
  auto t = analyse_input(R"({"a":{"k":1,"k":"\ud800"},"x/y":[-0,1E400],"\udc00":0})");
  std::vector<std::pair<std::string, std::string>> sites;
  for (const auto& s : t.sites) sites.emplace_back(s.trait, s.path);
  std::vector<std::pair<std::string, std::string>> expect{
      {"lone-surrogate", "/a/k"},   {"duplicate-keys", "/a/k"}, {"negative-zero", "/x~1y/0"},
      {"huge-exponent", "/x~1y/1"}, {"big-integer", "/x~1y/1"}, {"lone-surrogate", "/\xed\xb0\x80"}};
  EXPECT_EQ(sites, expect);
  EXPECT_EQ(t.big_number_paths, std::vector<std::string>{"/x~1y/1"});
  // An escaped key equals its plain spelling: that is a duplicate too.
  EXPECT_TRUE(analyse_input(R"({"a":1,"\u0061":2})").duplicate_keys);
  EXPECT_FALSE(analyse_input(R"({"a":1,"b":{"a":2}})").duplicate_keys);
}

// analyse_input() scans without recursion: any depth costs heap, not call stack (an ASan Debug build
// overflowed its stack on 10,001 levels when it recursed).
TEST(InputTraits, AHundredThousandLevelsDeep) {
  const std::size_t levels = 100000;
  const std::string arrays = nested(levels);
  auto t = analyse_input(arrays);
  EXPECT_FALSE(t.not_json);
  EXPECT_TRUE(t.deep_nesting);
  EXPECT_EQ(t.depth, levels);  // the innermost 0
  ASSERT_EQ(t.sites.size(), 1u);
  std::string site;
  for (std::size_t i = 0; i < InputTraits::kDeepNesting + 1; ++i) site += "/0";
  EXPECT_EQ(t.sites[0].path, site);
  std::string objects;
  for (std::size_t i = 0; i < levels; ++i) objects += R"({"a":)";
  objects += "\"\\ud800\"" + std::string(levels, '}');
  auto o = analyse_input(objects);
  EXPECT_EQ(o.names(), (std::vector<std::string>{"lone-surrogate", "deep-nesting"}));
  EXPECT_EQ(o.sites.back().path.size(), 2 * levels);
  EXPECT_TRUE(analyse_input(arrays.substr(1)).not_json);  // one ']' too many
  // compare() on such an input does not recurse either.
  auto ds = compare("r", arrays, {accepted("cpp", arrays), rejected("rust", {error("", "invalid_json")})});
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].signature, "acceptance|cpp=parsed,rust=rejected|rust:invalid_json|deep-nesting");
}

// What analyse_input() calls JSON is what json::parse accepts (the scanner has its own grammar).
TEST(InputTraits, JsonIsWhatTheParserAccepts) {
  // clang-format off
  const std::vector<std::string> inputs = {
      "", " ", "0", "-0", "01", "-", "1.", ".5", "1e", "1e+", "1E-7", "+1", "[1,]", "[,1]", "[1 2]", "{}",
      R"({"a"})", R"({"a":})", R"({"a":1,})", R"({,})", R"({1:2})", "[1]x", "[1] ", " [1]\n", "tru", "true",
      "nul", "null", "[true,false,null]", "truex", R"("a)", R"("\x")", R"("\u12")", R"("\u12G4")", "\"\t\"",
      "\"\x01\"", R"("\ud800\udc00")", R"("\ud800\u0041")", "\xEF\xBB\xBF{}", "[\"\xC3\"]",
      "[\"\xED\xA0\x80\"]", R"({"a":[{"b":[]}]})", "[[]", "[]]", R"({"a":1}})", R"(["\"])", R"(["\\"])"};
  // clang-format on
  for (const auto& in : inputs) {
    EXPECT_EQ(analyse_input(in).not_json, !json::parse(in).ok()) << "input: " << in;
  }
}

}  // namespace
}  // namespace crosscheck::layers::structural
