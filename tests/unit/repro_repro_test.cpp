// repro_repro_test.cpp: reproducers from findings (crosscheck repro): what is asserted for each class
// (the reference's answer), refusals (an SDK that does not deviate, layer 3, the reference itself, a
// witness that is not UTF-8, a protocol break), byte-stable output, hostile text kept out of the code
// (quotes, backslashes, NUL, newlines, bytes that are not UTF-8), the Cargo.toml against the adapter's,
// and an output folder that exists.
#include "repro/repro.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run/finding_file.hpp"
#include "util/file.hpp"

namespace crosscheck::repro {
namespace {

namespace fs = std::filesystem;

core::ImplResult result(const std::string& impl, core::Outcome outcome, std::vector<core::Diag> diags = {}) {
  core::ImplResult r;
  r.implementation = impl;
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  return r;
}

core::Divergence divergence(core::DivergenceClass cls, std::vector<std::string> impls,
                            const std::string& bucket, const std::string& signature,
                            const std::string& layer = core::kStructuralLayer) {
  core::Divergence d;
  d.cls = cls;
  d.layer = layer;
  d.implementations = std::move(impls);
  d.bucket = bucket;
  d.signature = signature;
  return d;
}

/// §1 of docs/findings.md: python accepts 2^53 in an integer slot, cpp rejects it.
run::Finding unsafe_integer() {
  run::Finding f;
  f.root = "content_upload_receipt";
  f.input = R"({"ref":"","sha256":"","size":9007199254740992})";
  f.results = {result("cpp", core::Outcome::kRejected, {{"/size", "invalid_type", "error"}}),
               result("python", core::Outcome::kAccepted), result("rust", core::Outcome::kAccepted)};
  f.divergences = {divergence(core::DivergenceClass::kAcceptance, {"cpp", "python", "rust"},
                              "381f891214283240",
                              "acceptance|cpp=rejected,python=accepted,rust=accepted|invalid_type|")};
  f.replay = "crosscheck replay 'run/findings/diverge-x.json'";
  return f;
}

SdkInfo python_sdk() {
  SdkInfo s;
  s.name = "python";
  s.language = "python";
  s.path = "text";
  s.version = "0.10.1";
  s.manifest_sha256 = "43180d87";
  s.source_repository = "agenthooksprotocol/agent-hooks-protocol";
  s.source_commit = "1d98c19b";
  s.protocol_version = "draft";
  return s;
}

SdkInfo rust_sdk() {
  SdkInfo s = python_sdk();
  s.name = s.language = "rust";
  s.cargo_lock = "# lock\n";
  return s;
}

std::string only_file(const Plan& plan, const SdkInfo& sdk) {
  auto files = write_reproducer(plan, sdk);
  EXPECT_TRUE(files.ok()) << (files.ok() ? "" : files.error());
  return files.ok() ? files.value().front().content : "";
}

/// Printable ASCII, line ends and tabs (Go indents with tabs) only.
bool ascii_lines(const std::string& text) {
  for (unsigned char c : text)
    if (c != '\n' && c != '\t' && (c < 0x20 || c >= 0x7f)) return false;
  return true;
}

TEST(Repro, AcceptanceAssertsTheReferencesRejection) {
  auto plan = plan_reproducer(unsafe_integer(), "run/findings/diverge-x.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan->checks.size(), 1u);
  EXPECT_EQ(plan->checks[0].kind, Check::Kind::kOutcome);
  EXPECT_FALSE(plan->checks[0].expect);
  EXPECT_EQ(plan->blame_basis, "reference");
  const std::string py = only_file(plan.value(), python_sdk());
  EXPECT_NE(py.find("result = generated.parse_content_upload_receipt(text)\n"), std::string::npos) << py;
  EXPECT_NE(py.find("    assert not result[\"ok\"], "), std::string::npos) << py;
  EXPECT_NE(py.find("\ndef test_content_upload_receipt_"), std::string::npos);
  EXPECT_NE(py.find("if __name__ == \"__main__\":"), std::string::npos);
  EXPECT_NE(py.find("# SDK: python agenthooksprotocol 0.10.1"), std::string::npos);
  EXPECT_NE(py.find("schemaManifestSha256 43180d87"), std::string::npos);
  EXPECT_NE(py.find("# Replay with crosscheck: crosscheck replay 'run/findings/diverge-x.json'"),
            std::string::npos);
  // The witness is data: base64, never the payload's text outside a comment.
  EXPECT_NE(py.find("eyJyZWYiOiIiLCJzaGEyNTYiOiIiLCJzaXplIjo5MDA3MTk5MjU0NzQwOTkyfQ=="), std::string::npos);
  const std::string rs = only_file(plan.value(), rust_sdk());
  EXPECT_NE(rs.find("agenthooksprotocol = { version = \"=0.10.1\", features = [\"interop\"] }"),
            std::string::npos);
  auto files = write_reproducer(plan.value(), rust_sdk());
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ(files.value()[1].path, "src/lib.rs");
  EXPECT_NE(files.value()[1].content.find("assert!(!result.is_ok(), "), std::string::npos);
  EXPECT_NE(files.value()[1].content.find("#[test]"), std::string::npos);
  EXPECT_EQ(files.value()[2].path, "Cargo.lock");
}

TEST(Repro, OutputIsByteStable) {
  for (const SdkInfo& sdk : {python_sdk(), rust_sdk()}) {
    auto a = plan_reproducer(unsafe_integer(), "f.json", "rust", sdk.language);
    auto b = plan_reproducer(unsafe_integer(), "f.json", "rust", sdk.language);
    ASSERT_TRUE(a.ok() && b.ok());
    auto fa = write_reproducer(a.value(), sdk), fb = write_reproducer(b.value(), sdk);
    ASSERT_TRUE(fa.ok() && fb.ok());
    ASSERT_EQ(fa->size(), fb->size());
    for (std::size_t i = 0; i < fa->size(); ++i) {
      EXPECT_EQ(fa.value()[i].path, fb.value()[i].path);
      EXPECT_EQ(fa.value()[i].content, fb.value()[i].content);
    }
  }
}

TEST(Repro, EachClassAssertsWhatItIsAbout) {
  run::Finding f;
  f.root = "content_selection";
  f.input = R"({"default":"x"})";
  f.results = {result("cpp", core::Outcome::kAccepted, {{"/default", "unknown_enum", "warning"}}),
               result("python", core::Outcome::kAccepted, {{"", "unknown_enum", "warning"}})};
  f.divergences = {divergence(core::DivergenceClass::kWarnings, {"cpp", "python"}, "b1", "warnings|...")};
  auto plan = plan_reproducer(f, "f.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(plan->checks[0].kind, Check::Kind::kWarnings);
  EXPECT_NE(only_file(plan.value(), python_sdk())
                .find("assert diagnostics(result, \"warning\") == [(\"unknown_enum\", \"/default\")], "),
            std::string::npos);

  f.results = {result("cpp", core::Outcome::kRejected, {{"/ref", "missing_required", "error"}}),
               result("python", core::Outcome::kRejected, {{"/ref", "invalid_type", "error"}})};
  f.divergences = {
      divergence(core::DivergenceClass::kDiagnostics, {"cpp", "python"}, "b2", "diagnostics|...")};
  plan = plan_reproducer(f, "f.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_NE(
      only_file(plan.value(), python_sdk())
          .find("assert sorted(set(diagnostics(result, \"error\"))) == [(\"missing_required\", \"/ref\")], "),
      std::string::npos);

  // Rust refuses 128 levels as JSON where cpp parses them: the check is about the text, not the outcome.
  f.results = {result("cpp", core::Outcome::kRejected, {{"/x", "invalid_type", "error"}}),
               result("rust", core::Outcome::kRejected, {{"", "invalid_json", "error"}})};
  f.divergences = {divergence(core::DivergenceClass::kAcceptance, {"cpp", "rust"}, "b3", "acceptance|...")};
  plan = plan_reproducer(f, "f.json", "rust", "rust");
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(plan->checks[0].kind, Check::Kind::kParsed);
  EXPECT_TRUE(plan->checks[0].expect);

  // A round trip: accepted, and the re-encoding is the input.
  f.results = {result("cpp", core::Outcome::kAccepted), result("python", core::Outcome::kAccepted)};
  f.results[1].encode_error = "RecursionError: maximum recursion depth exceeded";
  f.divergences = {
      divergence(core::DivergenceClass::kRoundTripSelf, {"python"}, "b4", "round-trip-self|python|")};
  plan = plan_reproducer(f, "f.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  const std::string py = only_file(plan.value(), python_sdk());
  EXPECT_NE(py.find("encoded = generated.encode_content_selection(result[\"value\"])"), std::string::npos);
  EXPECT_NE(py.find("assert same_value(encoded, text), "), std::string::npos);
  EXPECT_NE(py.find("RecursionError"), std::string::npos) << "the SDK's recorded answer is named";

  // Layer 2: the validator's verdict; an SDK error is asserted as the reference's verdict.
  f.root = "intercept_request";
  f.input = "0";
  f.document = "intercept-request";
  f.results = {};
  core::ValidateResult ref, sdk;
  ref.implementation = "cpp";
  ref.verdict = core::Verdict::kInvalid;
  ref.error_paths = {""};
  sdk.implementation = "python";
  sdk.verdict = core::Verdict::kError;
  sdk.message = "AttributeError: 'int' object has no attribute 'get'";
  f.validations = {ref, sdk};
  f.divergences = {divergence(core::DivergenceClass::kSdkError, {"python"}, "e35d",
                              "canonical|sdk-error|python||", "canonical")};
  plan = plan_reproducer(f, "f.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  EXPECT_EQ(plan->checks[0].kind, Check::Kind::kVerdict);
  const std::string v = only_file(plan.value(), python_sdk());
  EXPECT_NE(v.find("runtime.Validator().validate(DOCUMENT, value)"), std::string::npos);
  EXPECT_NE(v.find("assert canonical_verdict(text) == \"invalid\", "), std::string::npos);
  EXPECT_NE(v.find("DOCUMENT = \"intercept-request\""), std::string::npos);
  EXPECT_EQ(v.find("generated.parse_"), std::string::npos) << "no layer-1 call for a layer-2 check";
  auto rust_files = write_reproducer(plan.value(), rust_sdk());
  ASSERT_TRUE(rust_files.ok());
  EXPECT_NE(rust_files.value()[1].content.find("assert_eq!(canonical_verdict(&text), \"invalid\", "),
            std::string::npos);
}

TEST(Repro, RefusesWhatItCannotReproduce) {
  // cpp rejects, python rejects too: python is not blamed.
  run::Finding f = unsafe_integer();
  f.results[1].outcome = core::Outcome::kRejected;
  f.divergences[0].implementations = {"cpp", "rust"};
  auto plan = plan_reproducer(f, "f.json", "python", "python");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("python does not deviate in this finding"), std::string::npos) << plan.error();
  EXPECT_NE(plan.error().find("rust does"), std::string::npos) << plan.error();

  plan = plan_reproducer(unsafe_integer(), "f.json", "go", "go");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("go does not deviate"), std::string::npos);

  run::Finding bytes = unsafe_integer();
  bytes.input = std::string("{\"x\":\"\xff\"}");
  plan = plan_reproducer(bytes, "f.json", "python", "python");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("not UTF-8"), std::string::npos);

  run::Finding protocol = unsafe_integer();
  protocol.divergences = {divergence(core::DivergenceClass::kProtocol, {"python"}, "p1", "protocol|python|")};
  plan = plan_reproducer(protocol, "f.json", "python", "python");
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("adapter protocol"), std::string::npos);

  // The reference is never the one a reproducer shows wrong.
  run::Finding by_majority = unsafe_integer();
  by_majority.divergences[0].implementation_defined = true;
  plan = plan_reproducer(by_majority, "f.json", "cpp", "python");
  ASSERT_FALSE(plan.ok());

  // A direct path has no writer.
  auto ok = plan_reproducer(unsafe_integer(), "f.json", "python", "python");
  ASSERT_TRUE(ok.ok());
  SdkInfo direct = python_sdk();
  direct.path = "direct";
  EXPECT_FALSE(write_reproducer(ok.value(), direct).ok());
  SdkInfo cobol = python_sdk();
  cobol.language = "cobol";
  EXPECT_FALSE(write_reproducer(ok.value(), cobol).ok());

  // Go and TypeScript: layer 1 only.
  run::Finding l2 = unsafe_integer();
  l2.document = "content-upload-receipt";
  core::ValidateResult ref, sdk;
  ref.implementation = "cpp";
  ref.verdict = core::Verdict::kInvalid;
  sdk.implementation = "go";
  sdk.verdict = core::Verdict::kValid;
  l2.validations = {ref, sdk};
  l2.divergences = {divergence(core::DivergenceClass::kCanonicalAcceptance, {"cpp", "go"}, "c1",
                               "canonical|canonical-acceptance|cpp=invalid,go=valid||", "canonical")};
  auto go_plan = plan_reproducer(l2, "f.json", "go", "go");
  ASSERT_TRUE(go_plan.ok()) << go_plan.error();
  SdkInfo go = python_sdk();
  go.name = go.language = "go";
  auto refused = write_reproducer(go_plan.value(), go);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("layer 1 only"), std::string::npos);
}

TEST(Repro, GoAndTypeScriptFromTheAdaptersEntrypointsMarkedUnverified) {
  run::Finding f = unsafe_integer();
  f.input = std::string("{\"size\":\"\xff\"}");  // Go's parse takes bytes: not refused for go
  auto plan = plan_reproducer(f, "f.json", "python", "go");
  ASSERT_TRUE(plan.ok()) << plan.error();
  SdkInfo go = python_sdk();
  go.name = go.language = "go";
  go.version = "unknown";
  go.verified = false;
  auto files = write_reproducer(plan.value(), go);
  ASSERT_TRUE(files.ok()) << files.error();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ(files.value()[0].path, "go.mod");
  const std::string& test = files.value()[1].content;
  EXPECT_NE(test.find("// unverified: no checkout was available"), std::string::npos);
  EXPECT_NE(test.find("result := ahp.ParseContentUploadReceipt(input)"), std::string::npos);
  EXPECT_NE(test.find("\tif result.OK {\n\t\tt.Fatal(\"python answers accepted;"), std::string::npos) << test;
  EXPECT_NE(test.find("func TestContentUploadReceipt_"), std::string::npos);
  EXPECT_TRUE(ascii_lines(test));

  EXPECT_FALSE(plan_reproducer(f, "f.json", "python", "typescript").ok()) << "TypeScript's parse takes text";
  auto ts_plan = plan_reproducer(unsafe_integer(), "f.json", "python", "typescript");
  ASSERT_TRUE(ts_plan.ok());
  SdkInfo ts = go;
  ts.name = ts.language = "typescript";
  auto ts_files = write_reproducer(ts_plan.value(), ts);
  ASSERT_TRUE(ts_files.ok());
  const std::string& js = ts_files.value()[0].content;
  EXPECT_EQ(ts_files.value()[0].path, "repro.test.mjs");
  EXPECT_NE(js.find("import { parseContentUploadReceipt, encodeContentUploadReceipt } from "
                    "\"agenthooksprotocol/generated\";"),
            std::string::npos);
  EXPECT_NE(js.find("assert.equal(result.ok, false, "), std::string::npos);

  EXPECT_EQ(go_string(std::string("\"\\\0\xff\xf0\x9f\x98\x80", 8)), "\"\\\"\\\\\\u0000\\xff\\U0001f600\"");
  EXPECT_EQ(go_string("\xed\xa0\x80"), "\"\\xed\\xa0\\x80\"") << "a lone surrogate's bytes as they are";
  EXPECT_EQ(js_string(std::string("\"\0\xff\xf0\x9f\x98\x80\xed\xa0\x80", 10)),
            "\"\\\"\\u0000\\ufffd\\u{1f600}\\ud800\"");
}

/// Layer 3: a scenario row on which python derived continuationRemaining where the reference omitted it,
/// and rust rejected the response the reference derived a result for.
run::Finding scenario_row() {
  run::Finding f;
  f.root = "intercept_response";
  f.input = R"({"id":"row-"1"","request":{},"response":{},"expected":{}})";
  run::ScenarioCase s;
  s.mode = run::kScenarioClients;
  s.file = "gen.json";
  s.id = "row-\"1\"";
  s.clients = {"python", "rust"};
  s.entries = {{"cpp", "passed", "derived", "met", std::nullopt, std::nullopt, {}, ""},
               {"python", "passed", "derived", "met", std::nullopt, std::nullopt, {}, ""},
               {"rust", "failed", "rejected", "rejected the response", std::nullopt, std::nullopt, {}, ""}};
  f.scenario = s;
  f.results = {result("cpp", core::Outcome::kAccepted), result("python", core::Outcome::kAccepted),
               result("rust", core::Outcome::kRejected)};
  f.results[0].encoded = R"({"decision":"allow","messages":[]})";
  f.results[1].encoded = R"({"decision":"allow","messages":[],"continuationRemaining":1})";
  f.divergences = {
      divergence(core::DivergenceClass::kContextualResult, {"cpp", "python"}, "r1",
                 "contextual-result/turn.finish.before/continuationRemaining", "contextual"),
      divergence(core::DivergenceClass::kContextualAcceptance, {"cpp", "python", "rust"}, "a1",
                 "contextual-acceptance/turn.finish.before/cpp=derived,python=derived,rust=rejected",
                 "contextual"),
      divergence(core::DivergenceClass::kContextualExpectation, {"python"}, "e1",
                 "contextual-expectation/python/turn.finish.before/unasserted:continuationRemaining",
                 "contextual")};
  return f;
}

TEST(Repro, LayerThreeRunsThePythonClientOnTheRowBesideIt) {
  auto plan = plan_reproducer(scenario_row(), "f.json", "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  ASSERT_EQ(plan->checks.size(), 1u) << "the row's expectation is not asserted";
  EXPECT_EQ(plan->checks[0].kind, Check::Kind::kContextualKeys);
  EXPECT_EQ(plan->checks[0].keys, std::vector<std::string>{"continuationRemaining"});
  auto files = write_reproducer(plan.value(), python_sdk());
  ASSERT_TRUE(files.ok()) << files.error();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ(files.value()[1].path, "scenario.json");
  EXPECT_EQ(files.value()[1].content, "{\"version\":1,\"scenarios\":[" + scenario_row().input + "]}\n")
      << "the row's exact bytes";
  const std::string& py = files.value()[0].content;
  EXPECT_NE(py.find("ROW_ID = \"row-\\\"1\\\"\"\n"), std::string::npos) << py;
  EXPECT_NE(py.find("INTEROP + [\"client\", \"--config\", client]"), std::string::npos);
  EXPECT_NE(py.find("assert row[\"actual\"].get(\"continuationRemaining\") == REFERENCE_RESULT_0.get("
                    "\"continuationRemaining\"), "),
            std::string::npos);
  EXPECT_EQ(py.find("shell=True"), std::string::npos);

  auto rust = plan_reproducer(scenario_row(), "f.json", "rust", "python");
  ASSERT_TRUE(rust.ok()) << rust.error();
  ASSERT_EQ(rust->checks.size(), 1u);
  EXPECT_EQ(rust->checks[0].kind, Check::Kind::kContextualAnswer);
  EXPECT_TRUE(rust->checks[0].expect);
  EXPECT_FALSE(write_reproducer(rust.value(), rust_sdk()).ok()) << "layer 3: python only";

  run::Finding only_expectation = scenario_row();
  only_expectation.divergences.resize(3);
  only_expectation.divergences.erase(only_expectation.divergences.begin(),
                                     only_expectation.divergences.begin() + 2);
  auto refused = plan_reproducer(only_expectation, "f.json", "python", "python");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("expectation"), std::string::npos);

  run::Finding servers = scenario_row();
  servers.scenario->mode = run::kScenarioServers;
  refused = plan_reproducer(servers, "f.json", "python", "python");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("--servers"), std::string::npos);
}

TEST(Repro, HostileTextStaysData) {
  // Quotes, a backslash, a newline, NUL, invalid UTF-8, a lone surrogate, U+2028, a comment end, CR.
  static constexpr char kHostile[] = "\"\\\n'''\0\xff\xed\xa0\x80 \xe2\x80\xa8 */ \r";
  const std::string hostile(kHostile, sizeof kHostile - 1);  // every byte, the NUL inside included
  EXPECT_EQ(comment_text("a\"b\\c\nd"), "a\"b\\\\c\\x0ad");
  EXPECT_EQ(comment_text(std::string("\0\xff", 2)), "\\x00\\xff");
  EXPECT_EQ(comment_text("abcdef", 3), "abc... (6 bytes)");
  EXPECT_EQ(python_string(std::string("\"\\\0", 3)), "\"\\\"\\\\\\u0000\"");
  EXPECT_EQ(python_string("\xff"), "\"\\udcff\"");
  EXPECT_EQ(python_string("\xed\xa0\x80"), "\"\\ud800\"") << "a lone surrogate (WTF-8) as Python keeps it";
  EXPECT_EQ(python_string("\xf0\x9f\x98\x80"), "\"\\U0001f600\"");
  EXPECT_EQ(rust_string(std::string("\"\\\0\xff", 4)), "\"\\\"\\\\\\u{0}\\u{fffd}\"");
  EXPECT_TRUE(ascii_lines(python_string(hostile)));
  EXPECT_TRUE(ascii_lines(rust_string(hostile)));
  EXPECT_EQ(python_string(hostile).find('\n'), std::string::npos);

  // A finding whose every text member is hostile: the files are ASCII, the header lines all comments.
  run::Finding f = unsafe_integer();
  f.input = std::string("{\"a\\\"'''\\n\":\"\xe2\x80\xa8\",\"\\u0000\":0}");
  f.results[0].diagnostics = {{hostile, "invalid_type", "error"}};
  f.divergences[0].bucket = hostile;
  f.divergences[0].signature = hostile;
  f.replay = "crosscheck replay '" + hostile + "'";
  auto plan = plan_reproducer(f, hostile, "python", "python");
  ASSERT_TRUE(plan.ok()) << plan.error();
  for (const SdkInfo& sdk : {python_sdk(), rust_sdk()}) {
    auto files = write_reproducer(plan.value(), sdk);
    ASSERT_TRUE(files.ok());
    for (const auto& file : files.value()) {
      if (file.path == "Cargo.lock") continue;
      EXPECT_TRUE(ascii_lines(file.content)) << file.path;
      // Every line before the code is a comment: nothing of the finding became code.
      const std::string prefix = sdk.language == "python" ? "# " : (file.path == "Cargo.toml" ? "# " : "// ");
      std::size_t at = 0;
      for (int line = 0; line < 10; ++line) {
        EXPECT_EQ(file.content.compare(at, prefix.size(), prefix), 0) << file.path << " line " << line;
        at = file.content.find('\n', at) + 1;
      }
    }
  }
}

TEST(Repro, CargoTomlPinsWhatTheAdapterPins) {
  auto adapter = read_file_bytes(fs::path(CROSSCHECK_SOURCE_DIR) / "adapters/rust/Cargo.toml");
  ASSERT_TRUE(adapter);
  auto plan = plan_reproducer(unsafe_integer(), "f.json", "rust", "rust");
  ASSERT_TRUE(plan.ok());
  auto files = write_reproducer(plan.value(), rust_sdk());
  ASSERT_TRUE(files.ok());
  const std::string toml = files.value()[0].content;
  const std::string deps = toml.substr(toml.find("[dependencies]\n") + 15);
  int lines = 0;
  for (std::size_t at = 0; at < deps.size() && deps[at] != '\n';) {
    const std::size_t end = deps.find('\n', at);
    const std::string line = deps.substr(at, end - at);
    EXPECT_NE(adapter->find(line), std::string::npos) << "adapters/rust/Cargo.toml has no line " << line;
    ++lines;
    at = end + 1;
  }
  EXPECT_EQ(lines, 4);
  for (const char* profile : {"debug = 0\n", "incremental = false\n", "codegen-units = 16\n"}) {
    EXPECT_NE(toml.find(profile), std::string::npos);
    EXPECT_NE(adapter->find(profile), std::string::npos);
  }
}

TEST(Repro, AnExistingFolderIsRefusedUnlessForced) {
  const fs::path dir = fs::temp_directory_path() / ("repro-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::vector<OutputFile> files{{"a.py", "one\n"}, {"src/b.rs", "two\n"}};
  auto written = write_files(dir.string(), files, false);
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(written->size(), 2u);
  EXPECT_EQ(*read_file_bytes(dir / "src/b.rs"), "two\n");
  files[0].content = "changed\n";
  auto refused = write_files(dir.string(), files, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("exists"), std::string::npos);
  EXPECT_EQ(*read_file_bytes(dir / "a.py"), "one\n") << "nothing overwritten";
  ASSERT_TRUE(write_files(dir.string(), files, true).ok());
  EXPECT_EQ(*read_file_bytes(dir / "a.py"), "changed\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace crosscheck::repro
