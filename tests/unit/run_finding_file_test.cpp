// Tests of finding records: names by kind, JSON round trip, atomic files, errors naming the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::run {
namespace {

namespace fs = std::filesystem;
using core::DivergenceClass;

Finding sample() {
  Finding f;
  f.root = "content_reference";
  f.input = std::string("{\"ref\":\"x\",\"size\":null}\xff", 24);  // not UTF-8: kept as bytes
  core::Divergence d;
  d.cls = DivergenceClass::kAcceptance;
  d.implementations = {"cpp", "python"};
  d.detail = "accepted by python; rejected by cpp";
  d.bucket = "0123456789abcdef";
  d.signature = "content_reference|acceptance|...";
  f.divergences.push_back(d);
  core::ImplResult r;
  r.implementation = "python";
  r.outcome = core::Outcome::kAccepted;
  r.encoded = "{\"ref\":\"x\"}";
  r.diagnostics = {{"/size", "unknown_enum", "warning"}};
  f.results.push_back(r);
  f.traits = {"invalid-utf8"};
  f.seed = 42;
  f.source = "generated";
  f.replay = "crosscheck replay out/diverge-x.json";
  return f;
}

fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("crosscheck-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(p);
  return p;
}

TEST(FindingStore, NamesByKind) {
  Finding f = sample();
  EXPECT_EQ(finding_file_name(f), "diverge-" + finding_hash(f.root, f.input) + ".json");
  f.divergences[0].cls = DivergenceClass::kCrash;
  f.divergences[0].implementations = {"go/direct"};
  EXPECT_EQ(finding_file_name(f), "crash-go_direct-" + finding_hash(f.root, f.input) + ".json");
  f.divergences[0].cls = DivergenceClass::kTimeout;
  EXPECT_EQ(finding_file_name(f).rfind("timeout-go_direct-", 0), 0u);
  EXPECT_NE(finding_hash("a", "x"), finding_hash("b", "x"));
  EXPECT_EQ(finding_hash("a", "x").size(), 40u);
}

TEST(FindingStore, WritesAtomicallyAndReadsBack) {
  fs::path dir = temp_dir("store");
  FindingStore store(dir.string());
  std::string path = store.write(sample());
  EXPECT_TRUE(fs::exists(path));
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << "temporary file left behind";
  }
  auto loaded = FindingStore::load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const Finding& f = loaded.value();
  EXPECT_EQ(f.input, sample().input);
  EXPECT_EQ(f.root, "content_reference");
  ASSERT_EQ(f.divergences.size(), 1u);
  EXPECT_EQ(f.divergences[0].cls, DivergenceClass::kAcceptance);
  EXPECT_EQ(f.divergences[0].bucket, "0123456789abcdef");
  ASSERT_EQ(f.results.size(), 1u);
  EXPECT_EQ(f.results[0].encoded.value(), "{\"ref\":\"x\"}");
  EXPECT_EQ(f.results[0].diagnostics[0].code, "unknown_enum");
  EXPECT_EQ(f.seed.value(), 42u);
  EXPECT_EQ(f.traits, std::vector<std::string>{"invalid-utf8"});
  fs::remove_all(dir);
}

TEST(FindingStore, BadFilesAreNamedWithTheField) {
  fs::path dir = temp_dir("bad");
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream((dir / name).string()) << text;
    return (dir / name).string();
  };
  auto r1 = FindingStore::load(write("a.json", "{not json"));
  ASSERT_FALSE(r1.ok());
  EXPECT_NE(r1.error().find("a.json: not JSON"), std::string::npos);
  auto r2 = FindingStore::load(write("b.json", R"({"format":"crosscheck-finding/9"})"));
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().find("b.json: /format: expected \"crosscheck-finding/1\" (format version)"),
            std::string::npos)
      << r2.error();
  auto r3 = FindingStore::load(
      write("c.json", R"({"format":"crosscheck-finding/1","root":"x","input":{"base64":"!!"}})"));
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.error().find("c.json: /input/base64: "), std::string::npos) << r3.error();
  auto r4 = FindingStore::load((dir / "missing.json").string());
  ASSERT_FALSE(r4.ok());
  EXPECT_NE(r4.error().find("cannot be read"), std::string::npos);
  fs::remove_all(dir);
}

TEST(FindingStore, UnwritableFolderIsFatal) {
  if (geteuid() == 0) {
    // root ignores permissions; a path under a regular file can never be a folder.
    fs::path file = temp_dir("file");
    std::ofstream(file.string()) << "x";
    EXPECT_THROW(FindingStore((file / "sub").string()), Fatal);
    fs::remove(file);
  } else {
    EXPECT_THROW(FindingStore("/proc/crosscheck-cannot-create"), Fatal);
  }
}

// An adapter may echo bytes that are not UTF-8 (and messages may hold anything): the file must still
// be valid UTF-8 JSON, and the re-encoding must come back byte for byte.
TEST(FindingStore, BytesThatAreNotTextStayExactAndTheFileStaysUtf8) {
  Finding f = sample();
  f.results[0].encoded = std::string("{\"id\":\"\xf0\x9f\x98\x80\x80\"}");
  f.results[0].message = std::string("bad \xc3 byte");
  f.divergences[0].detail = std::string("\xff\xfe detail");
  std::string text = json::write(finding_to_json(f));
  EXPECT_TRUE(json::is_valid_utf8(text));
  auto parsed = json::parse(text);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  auto back = finding_from_json(parsed.value());
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().results[0].encoded.value(), f.results[0].encoded.value());
  EXPECT_EQ(back.value().results[0].message.value(), "bad \xef\xbf\xbd byte");
}

TEST(FindingStore, LayerTwoResultsRoundTrip) {
  Finding f = sample();
  f.divergences[0].layer = core::kStructuralLayer;
  core::Divergence canonical;
  canonical.cls = DivergenceClass::kCanonicalAcceptance;
  canonical.layer = core::kCanonicalLayer;
  canonical.implementations = {"cpp", "python"};
  canonical.detail = "valid for python; invalid for cpp at '/ref'";
  canonical.implementation_defined = true;
  canonical.bucket = "fedcba9876543210";
  canonical.signature = "canonical|canonical-acceptance|cpp=invalid,python=valid|format|date-time-lower-case";
  f.divergences.push_back(canonical);
  f.document = "content-reference";
  core::ValidateResult ref;
  ref.implementation = "cpp";
  ref.verdict = core::Verdict::kInvalid;
  ref.error_paths = {"/ref", ""};
  ref.error_keywords = {"format", "required"};
  ref.message = "format: not a date-time";
  ref.implementation_defined = {"date-time-lower-case"};
  core::ValidateResult py;
  py.implementation = "python";
  py.verdict = core::Verdict::kValid;
  core::ValidateResult go;
  go.implementation = "go";
  go.verdict = core::Verdict::kCrash;
  go.stderr_tail = "panic: boom";
  f.validations = {ref, py, go};

  fs::path dir = temp_dir("layer2");
  FindingStore store(dir.string());
  auto loaded = FindingStore::load(store.write(f));
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  const Finding& back = loaded.value();
  EXPECT_EQ(back.document, "content-reference");
  ASSERT_EQ(back.divergences.size(), 2u);
  EXPECT_EQ(back.divergences[0].layer, core::kStructuralLayer);
  EXPECT_EQ(back.divergences[1].layer, core::kCanonicalLayer);
  EXPECT_EQ(back.divergences[1].cls, DivergenceClass::kCanonicalAcceptance);
  EXPECT_TRUE(back.divergences[1].implementation_defined);
  EXPECT_EQ(back.divergences[1].signature, canonical.signature);
  ASSERT_EQ(back.validations.size(), 3u);
  EXPECT_EQ(back.validations[0].implementation, "cpp");
  EXPECT_EQ(back.validations[0].verdict, core::Verdict::kInvalid);
  EXPECT_EQ(back.validations[0].error_paths, (std::vector<std::string>{"/ref", ""}));
  EXPECT_EQ(back.validations[0].error_keywords, (std::vector<std::string>{"format", "required"}));
  EXPECT_EQ(back.validations[0].message.value(), "format: not a date-time");
  EXPECT_EQ(back.validations[0].implementation_defined, std::vector<std::string>{"date-time-lower-case"});
  EXPECT_EQ(back.validations[1].verdict, core::Verdict::kValid);
  EXPECT_TRUE(back.validations[1].error_paths.empty());
  EXPECT_FALSE(back.validations[1].message);
  EXPECT_EQ(back.validations[2].verdict, core::Verdict::kCrash);
  EXPECT_EQ(back.validations[2].stderr_tail, "panic: boom");
  // Writing what was read gives the same file.
  EXPECT_EQ(json::write(finding_to_json(back)), json::write(finding_to_json(f)));

  // A finding of a run without layer 2 has neither member; one written before layers existed (no
  // "layer") loads as structural.
  json::Value old = finding_to_json(sample());
  EXPECT_EQ(old.find("validations"), nullptr);
  EXPECT_EQ(old.find("document"), nullptr);
  std::string text = json::write(old);
  const std::string layer_member = "\"layer\":\"structural\",";
  ASSERT_NE(text.find(layer_member), std::string::npos) << text;
  text.erase(text.find(layer_member), layer_member.size());
  auto parsed = json::parse(text);
  ASSERT_TRUE(parsed.ok());
  auto older = finding_from_json(parsed.value());
  ASSERT_TRUE(older.ok()) << older.error();
  EXPECT_EQ(older.value().divergences[0].layer, core::kStructuralLayer);

  // A verdict outside the list is refused, naming the field.
  json::Value bad = finding_to_json(f);
  std::string bad_text = json::write(bad);
  bad_text.replace(bad_text.find("\"verdict\":\"valid\""), 17, "\"verdict\":\"maybe\"");
  auto bad_parsed = json::parse(bad_text);
  ASSERT_TRUE(bad_parsed.ok());
  auto refused = finding_from_json(bad_parsed.value());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("/validations/1/verdict"), std::string::npos) << refused.error();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace crosscheck::run
