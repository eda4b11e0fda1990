// baseline_baseline_test.cpp: bucket patterns, entry matching, bad baseline files, byte-stable appends.
#include "baseline/baseline.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "json/write.hpp"
#include "layers/canonical/canonical_comparator.hpp"
#include "layers/structural/comparator.hpp"

namespace crosscheck::baseline {
namespace {

const std::string kBad = std::string(CROSSCHECK_TEST_DATA) + "/baseline/bad/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string load_error(const std::string& name) {
  auto b = parse_baseline(slurp(kBad + name), kBad + name);
  EXPECT_FALSE(b.ok()) << name << " was accepted";
  return b.ok() ? "" : b.error();
}

core::ImplResult result(const std::string& impl, core::Outcome outcome, std::vector<core::Diag> diags = {}) {
  core::ImplResult r;
  r.implementation = impl;
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  if (outcome == core::Outcome::kAccepted) r.encoded = R"({"size":9007199254740992})";
  return r;
}

/// A real divergence from the comparator: python accepts an unsafe integer the decoder rejects.
core::Divergence unsafe_integer_divergence() {
  using core::Outcome;
  auto found =
      layers::structural::compare("content_upload_receipt", R"({"size":9007199254740992})",
                                  {result("cpp", Outcome::kRejected, {{"/size", "invalid_type", "error"}}),
                                   result("python", Outcome::kAccepted)});
  EXPECT_EQ(found.size(), 1u);
  return found.front();
}

Entry entry(std::vector<std::string> impls, std::string bucket) {
  Entry e;
  e.id = "e";
  e.implementations = std::move(impls);
  e.bucket = std::move(bucket);
  e.reason = e.link = "x";
  return e;
}

TEST(BaselineGlob, StarMatchesAnyRunAndEverythingElseItself) {
  EXPECT_TRUE(glob_match("abc", "abc"));
  EXPECT_FALSE(glob_match("abc", "abcd"));
  EXPECT_FALSE(glob_match("abc", "xabc"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "a|b,c"));
  EXPECT_TRUE(glob_match("a*c", "ac"));
  EXPECT_TRUE(glob_match("a*c", "a|x|c"));
  EXPECT_FALSE(glob_match("a*c", "a|x|cd"));
  EXPECT_TRUE(glob_match("*python=accepted*|big*", "acceptance|cpp=rejected,python=accepted|x|big-integer"));
  EXPECT_TRUE(glob_match("a**b", "ab"));
  EXPECT_TRUE(glob_match("*a*a*a*", "banana and a"));
  EXPECT_FALSE(glob_match("*a*a*a*b", "banana and a"));
  // '?' and '[' are literal: signatures contain '?' for unknown member names.
  EXPECT_TRUE(glob_match("/?/x", "/?/x"));
  EXPECT_FALSE(glob_match("/?/x", "/a/x"));
  // A signature used verbatim as its own pattern matches itself, even with '*' path shapes in it.
  std::string signature = "diagnostics|cpp=rejected,python=rejected|python:+invalid_type@/items/*/id|";
  EXPECT_TRUE(glob_match(signature, signature));
}

TEST(BaselineGlob, BucketIdsAreSixteenLowercaseHexDigits) {
  EXPECT_TRUE(is_bucket_id("0123456789abcdef"));
  EXPECT_FALSE(is_bucket_id("0123456789ABCDEF"));
  EXPECT_FALSE(is_bucket_id("0123456789abcde"));
  EXPECT_FALSE(is_bucket_id("0123456789abcdef0"));
  EXPECT_FALSE(is_bucket_id("*23456789abcdef0"));
}

TEST(BaselineMatch, BucketIdOrSignatureGlobWithClassRootAndImplementationFilters) {
  auto d = unsafe_integer_divergence();
  ASSERT_EQ(d.cls, core::DivergenceClass::kAcceptance);
  EXPECT_TRUE(matches_divergence(entry({"python"}, d.bucket), "content_upload_receipt", d));
  EXPECT_TRUE(matches_divergence(entry({"python"}, d.signature), "content_upload_receipt", d));
  EXPECT_TRUE(matches_divergence(entry({"python"}, "*python=accepted*"), "content_upload_receipt", d));
  EXPECT_TRUE(matches_divergence(entry({"py*"}, "*"), "content_upload_receipt", d));
  EXPECT_FALSE(matches_divergence(entry({"python"}, "*python=rejected*"), "content_upload_receipt", d));
  EXPECT_FALSE(matches_divergence(entry({"python"}, "0000000000000000"), "content_upload_receipt", d));
  // Only for the implementations it names (cpp takes part: an entry for cpp matches too).
  EXPECT_FALSE(matches_divergence(entry({"rust"}, "*"), "content_upload_receipt", d));
  EXPECT_TRUE(matches_divergence(entry({"cpp"}, "*"), "content_upload_receipt", d));
  Entry with_class = entry({"python"}, "*");
  with_class.cls = "acceptance";
  EXPECT_TRUE(matches_divergence(with_class, "content_upload_receipt", d));
  with_class.cls = "warnings";
  EXPECT_FALSE(matches_divergence(with_class, "content_upload_receipt", d));
  Entry with_root = entry({"python"}, "*");
  with_root.root = "content_*";
  EXPECT_TRUE(matches_divergence(with_root, "content_upload_receipt", d));
  EXPECT_FALSE(matches_divergence(with_root, "intercept_request", d));
  // A matrix-only entry never matches a divergence.
  Entry cases_only = entry({"python"}, "*");
  cases_only.bucket.reset();
  cases_only.cases = {"content_upload_receipt/size-unsafe"};
  EXPECT_FALSE(matches_divergence(cases_only, "content_upload_receipt", d));
}

TEST(BaselineMatch, PatternsDoNotDependOnTheSignatureLayout) {
  // The same fault under two layouts (with and without the root, codes or paths): a pattern naming
  // only what both say matches both.
  std::string pattern = "*acceptance|*python=accepted*big-*";
  for (std::string signature :
       {"content_upload_receipt|acceptance|cpp=rejected,python=accepted|invalid_type@/size|big-integer",
        "acceptance|cpp=rejected,python=accepted,rust=accepted|invalid_type|big-number-in-typed-slot"}) {
    core::Divergence d;
    d.cls = core::DivergenceClass::kAcceptance;
    d.implementations = {"cpp", "python"};
    d.signature = signature;
    d.bucket = "0123456789abcdef";
    EXPECT_TRUE(matches_divergence(entry({"python"}, pattern), "content_upload_receipt", d)) << signature;
  }
}

TEST(BaselineMatch, Cases) {
  Entry e = entry({"python", "rust/*"}, "*");
  e.cases = {"intercept_request/request-id-unsafe-*", "effect/x"};
  EXPECT_TRUE(matches_case(e, "python", "intercept_request/request-id-unsafe-positive"));
  EXPECT_TRUE(matches_case(e, "rust/direct", "effect/x"));
  EXPECT_FALSE(matches_case(e, "rust", "effect/x"));
  EXPECT_FALSE(matches_case(e, "python", "effect/y"));
}

TEST(BaselineFile, TheShippedBaselineLoads) {
  std::string path = std::string(CROSSCHECK_TEST_DATA) + "/baseline/known.json";
  auto b = parse_baseline(slurp(path), path);
  ASSERT_TRUE(b.ok()) << b.error();
  ASSERT_GE(b->entries.size(), 1u);
  EXPECT_FALSE(b->entries.front().cases.empty());
  EXPECT_TRUE(b->entries.front().bucket.has_value());
  // Its unsafe-integer entry covers the comparator's divergence for that fault.
  auto d = unsafe_integer_divergence();
  EXPECT_TRUE(matches_divergence(b->entries.front(), "content_upload_receipt", d)) << d.signature;
}

// The shipped implementation-defined entries recognise the comparator's divergences on their own
// witnesses (the signature layout changed once: docs/signatures.md), with the SDKs' recorded answers.
TEST(BaselineFile, TheShippedEntriesCoverTheirWitnesses) {
  using core::Outcome;
  std::string path = std::string(CROSSCHECK_TEST_DATA) + "/baseline/known.json";
  auto b = parse_baseline(slurp(path), path);
  ASSERT_TRUE(b.ok()) << b.error();
  const core::Diag refused{"", "invalid_json", "error"};
  std::size_t checked = 0;
  for (const auto& e : b->entries) {
    if (!e.witness || !e.witness->input) continue;
    if (e.bucket && e.bucket->rfind("canonical|", 0) == 0) continue;  // layer 2: the next test
    const std::string& in = *e.witness->input;
    auto parsed = result("cpp", Outcome::kAccepted);
    parsed.encoded = in;
    auto python = parsed;
    python.implementation = "python";
    std::vector<core::ImplResult> answers{parsed, python, result("rust", Outcome::kRejected, {refused})};
    if (e.id == "sdk-0.10.1-python-deep-encode") {  // parses, then cannot encode
      answers[1].encoded.reset();
      answers[1].encode_error = "RecursionError: maximum recursion depth exceeded";
    }
    if (e.id == "sdk-0.10.1-rust-wide-integer-in-tagged-union") {  // parses, then cannot hydrate
      answers[2].diagnostics = {{"", "invalid_type", "error"}};
    }
    auto found = layers::structural::compare(e.witness->root, in, answers);
    bool covered = false;
    for (const auto& d : found) covered = covered || matches_divergence(e, e.witness->root, d);
    EXPECT_TRUE(covered) << e.id << ": " << (found.empty() ? "no divergence" : found.front().signature);
    ++checked;
  }
  EXPECT_EQ(checked, 4u);
}

// The shipped layer-2 entries recognise the canonical comparator's divergences on their witnesses,
// with the answers recorded in docs/findings.md (§9, §10, §11, §13).
TEST(BaselineFile, TheShippedLayerTwoEntriesCoverTheirWitnesses) {
  using core::Outcome;
  using core::Verdict;
  std::string path = std::string(CROSSCHECK_TEST_DATA) + "/baseline/known.json";
  auto b = parse_baseline(slurp(path), path);
  ASSERT_TRUE(b.ok()) << b.error();
  auto validated = [](std::string impl, Verdict v, std::string message = "") {
    core::ValidateResult r;
    r.implementation = std::move(impl);
    r.verdict = v;
    if (!message.empty()) r.message = std::move(message);
    return r;
  };
  std::size_t checked = 0;
  for (const auto& e : b->entries) {
    if (!e.witness || !e.witness->input || !e.bucket || e.bucket->rfind("canonical|", 0) != 0) continue;
    std::vector<core::ValidateResult> validations;
    std::vector<core::ImplResult> decodes;
    if (e.id == "sdk-0.10.1-python-validator-non-object") {
      validations = {validated("cpp", Verdict::kInvalid),
                     validated("python", Verdict::kError, "AttributeError"),
                     validated("rust", Verdict::kInvalid)};
      decodes = {result("cpp", Outcome::kRejected, {{"", "invalid_type", "error"}})};
    } else if (e.id == "sdk-0.10.1-rust-validator-panics-on-huge-number") {  // §11: 1E400 as the id
      validations = {
          validated("cpp", Verdict::kValid),
          validated("python", Verdict::kInvalid, "Canonical schema rejected capabilities-request: id"),
          validated("rust", Verdict::kError, "panic: internal error: entered unreachable code")};
    } else if (e.id == "sdk-0.10.1-python-pattern-final-newline") {  // §13: "q.C\n" as an extension name
      validations = {validated("cpp", Verdict::kInvalid, "propertyNames"),
                     validated("python", Verdict::kValid), validated("rust", Verdict::kUnsupported)};
    } else {  // the oneOf the codecs call ambiguous: cpp canonically valid, Python's validator runs its codec
      validations = {validated("cpp", Verdict::kValid),
                     validated("python", Verdict::kInvalid, "Generated codec")};
      decodes = {result("cpp", Outcome::kRejected, {{"", "ambiguous_union", "error"}}),
                 result("python", Outcome::kRejected, {{"", "ambiguous_union", "error"}})};
    }
    auto found = layers::canonical::compare_canonical(*e.witness->input, validations, decodes);
    bool covered = false;
    for (const auto& d : found) covered = covered || matches_divergence(e, e.witness->root, d);
    EXPECT_TRUE(covered) << e.id << ": " << (found.empty() ? "no divergence" : found.front().signature);
    ++checked;
  }
  EXPECT_EQ(checked, 5u);
}

TEST(BaselineFile, BadFilesNameTheFileTheEntryAndTheField) {
  EXPECT_EQ(
      load_error("not-json.json"),
      kBad + "not-json.json: not JSON: line 2, column 88 (byte 136): expected a member name, ',' or '}'");
  EXPECT_EQ(
      load_error("unknown-field.json"),
      kBad +
          "unknown-field.json: entries[1] (id \"typo\"): field 'reasn': unknown field (expected one of: id, "
          "implementations, bucket, cases, class, root, referenceWrong, reason, link, signature, witness)");
  EXPECT_EQ(load_error("wrong-type.json"), kBad +
                                               "wrong-type.json: entries[0] (id \"one-impl\"): field "
                                               "'implementations': expected an array, got string");
  EXPECT_EQ(
      load_error("duplicate-id.json"),
      kBad +
          "duplicate-id.json: entries[1] (id \"same\"): field 'id': expected a unique id (also entries[0])");
  EXPECT_EQ(load_error("no-pattern.json"),
            kBad +
                "no-pattern.json: entries[0] (id \"nothing-to-match\"): expected "
                "a 'bucket' pattern, a 'cases' list, or both");
  EXPECT_EQ(load_error("wrong-format.json"), kBad +
                                                 "wrong-format.json: field 'format': expected "
                                                 "\"crosscheck-baseline/1\", got \"crosscheck-baseline/2\"");
  EXPECT_EQ(load_error("reference-wrong-without-reference.json"),
            kBad +
                "reference-wrong-without-reference.json: entries[0] (id \"decoder-wrong\"): field "
                "'implementations': expected the reference implementation 'cpp' among them (referenceWrong "
                "says the reference is the one in the wrong)");
  EXPECT_NE(load_error("bad-class.json")
                .find("entries[0] (id \"c\"): field 'class': expected one of \"acceptance\""),
            std::string::npos);
}

TEST(BaselineFile, DuplicateKeysAreRefused) {
  auto b = parse_baseline(R"({"format": "crosscheck-baseline/1", "entries": [], "entries": []})", "f.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error(), "f.json: field 'entries': duplicate field (each field once)");
}

TEST(BaselineFile, AppendKeepsEveryExistingByteAndReadsBack) {
  // Odd but valid formatting must survive untouched.
  std::string text =
      "{ \"entries\" : [ {\"id\":\"old\",\"implementations\":[\"python\"],\"bucket\":\"x*\",\"reason\":\"r\","
      "\"link\":\"l\"}   ],\n\"format\":\"crosscheck-baseline/1\" , \"description\": \"a ] [ } in a "
      "string\"}\n";
  ASSERT_TRUE(parse_baseline(text, "t").ok());
  Entry e = entry({"rust"}, "acceptance|cpp=accepted,rust=rejected|+invalid_type|");
  e.id = "acceptance-0123456789abcdef";
  e.cls = "acceptance";
  e.witness = Witness{"effect", std::string("{\"type\":\"x\xff\"}"), "diverge-1.json",
                      "crosscheck replay diverge-1.json"};
  Entry f = entry({"python"}, "y*");
  f.id = "second";
  std::string out = append_entries(text, {e, f});
  std::size_t cut = text.find("}   ]") + 1;
  EXPECT_EQ(out.substr(0, cut), text.substr(0, cut));
  EXPECT_EQ(out.substr(out.size() - (text.size() - cut)), text.substr(cut));
  auto back = parse_baseline(out, "t");
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << out;
  ASSERT_EQ(back->entries.size(), 3u);
  EXPECT_EQ(back->entries[1].id, "acceptance-0123456789abcdef");
  EXPECT_EQ(*back->entries[1].witness->input, "{\"type\":\"x\xff\"}");  // not UTF-8: kept as base64
  EXPECT_EQ(back->entries[2].bucket, "y*");
  // Nothing to add: the text comes back as it was; a new file starts from the format line.
  EXPECT_EQ(append_entries(text, {}), text);
  auto fresh = parse_baseline(append_entries("", {f}), "t");
  ASSERT_TRUE(fresh.ok()) << fresh.error();
  EXPECT_EQ(fresh->entries.size(), 1u);
  auto empty_array =
      parse_baseline(append_entries("{\"format\": \"crosscheck-baseline/1\", \"entries\": [ ]}", {f}), "t");
  ASSERT_TRUE(empty_array.ok()) << empty_array.error();
  EXPECT_EQ(empty_array->entries.size(), 1u);
}

TEST(BaselineFile, ReferenceWrongIsReadAndWrittenBack) {
  const std::string text = R"({"format": "crosscheck-baseline/1", "entries": [
    {"id": "decoder-wrong", "implementations": ["cpp"], "bucket": "*big-number-in-typed-slot*",
     "referenceWrong": true, "reason": "r", "link": "l"},
    {"id": "sdk-wrong", "implementations": ["python*"], "bucket": "*", "referenceWrong": false,
     "reason": "r", "link": "l"}]})";
  auto b = parse_baseline(text, "t");
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_TRUE(b->entries[0].reference_wrong);
  EXPECT_FALSE(b->entries[1].reference_wrong);
  EXPECT_NE(json::write(entry_to_json(b->entries[0])).find("\"referenceWrong\":true"), std::string::npos);
  EXPECT_EQ(json::write(entry_to_json(b->entries[1])).find("referenceWrong"), std::string::npos);
  auto back = parse_baseline(append_entries("", {b->entries[0]}), "t");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back->entries[0].reference_wrong);
}

}  // namespace
}  // namespace crosscheck::baseline
