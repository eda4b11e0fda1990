// fixtures_fixture_seed_test.cpp: fixture cases from layer-2 findings (crosscheck fixtures seed): the
// reference's verdict as expectedValid, one case per (document, witness), what is skipped and why,
// merging (kept, already there, a conflicting expectation), byte-stable output whatever the finding
// order, and the manifest writer read back by the one reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fixtures/fixture_seed.hpp"
#include "fixtures/manifest.hpp"
#include "util/result.hpp"

namespace crosscheck::fixtures {
namespace {

namespace fs = std::filesystem;

baseline::RunFinding finding(const std::string& document, const std::string& input, core::Verdict ref,
                             core::Outcome decode = core::Outcome::kAccepted) {
  baseline::RunFinding rf;
  rf.path = "run/diverge-" + input + ".json";
  rf.finding.root = "x";
  rf.finding.input = input;
  rf.finding.document = document;
  core::ValidateResult v;
  v.implementation = "cpp";
  v.verdict = ref;
  core::ValidateResult p;
  p.implementation = "python";
  p.verdict = ref == core::Verdict::kValid ? core::Verdict::kInvalid : core::Verdict::kValid;
  rf.finding.validations = {v, p};
  core::ImplResult r;
  r.implementation = "cpp";
  r.outcome = decode;
  rf.finding.results = {r};
  return rf;
}

TEST(FixturesSeed, TheReferencesVerdictIsTheExpectation) {
  std::vector<baseline::RunFinding> fs{finding("intercept-request", "{\"a\":1}", core::Verdict::kInvalid),
                                       finding("registration", "{}", core::Verdict::kValid),
                                       finding("intercept-request", "{\"a\":1}", core::Verdict::kInvalid)};
  auto out = seed_fixtures(fs, nullptr);
  ASSERT_TRUE(out.ok()) << out.error();
  ASSERT_EQ(out->cases.size(), 2u);
  EXPECT_EQ(out->added, 2u);
  EXPECT_EQ(out->already, 1u) << "the same witness twice is one case";
  const FixtureCase& ir = out->cases[0];
  EXPECT_EQ(ir.id.rfind("crosscheck.intercept-request.", 0), 0u) << ir.id;
  EXPECT_FALSE(ir.expected_valid);
  EXPECT_EQ(ir.binding, Binding::kHttpJson);
  EXPECT_EQ(ir.schema, "schema/draft/intercept-request.schema.json");
  EXPECT_EQ(ir.path, "http/" + ir.id + ".invalid.json");
  EXPECT_EQ(out->files.at(ir.path), "{\"a\":1}");
  const FixtureCase& reg = out->cases[1];
  EXPECT_TRUE(reg.expected_valid);
  EXPECT_EQ(reg.binding, Binding::kRegistrationJson);
  EXPECT_EQ(reg.path, "registration/" + reg.id + ".valid.json");
}

TEST(FixturesSeed, SkipsWhatIsNoLayerTwoCase) {
  std::vector<baseline::RunFinding> fs{
      finding("", "{}", core::Verdict::kValid), finding("capabilities", "1", core::Verdict::kError),
      finding("json-rpc-message", "{}", core::Verdict::kValid, core::Outcome::kRejected)};
  fs.push_back(finding("capabilities", "2", core::Verdict::kValid));
  fs.back().finding.scenario = run::ScenarioCase{};
  auto out = seed_fixtures(fs, nullptr);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->cases.empty());
  EXPECT_EQ(out->skipped.size(), 4u);
  EXPECT_EQ(out->skipped.at("the reference's layers disagree (canonically valid, structurally rejected)"),
            1u);
}

TEST(FixturesSeed, MinimizedWitnessFirst) {
  auto rf = finding("capabilities", "{\"big\":[1,2,3]}", core::Verdict::kInvalid);
  rf.minimized = finding("capabilities", "{\"big\":[]}", core::Verdict::kInvalid).finding;
  rf.min_path = "run/x.min.json";
  auto out = seed_fixtures({rf}, nullptr);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->files.size(), 1u);
  EXPECT_EQ(out->files.begin()->second, "{\"big\":[]}");
}

TEST(FixturesSeed, ByteStableWhateverTheOrderAndReadBackByTheReader) {
  std::vector<baseline::RunFinding> fs{
      finding("intercept-request", "{\"b\":2}", core::Verdict::kInvalid),
      finding("capabilities", "{}", core::Verdict::kValid),
      finding("intercept-request", "{\"a\":\"\\\"\"}", core::Verdict::kValid)};
  auto a = seed_fixtures(fs, nullptr);
  std::reverse(fs.begin(), fs.end());
  auto b = seed_fixtures(fs, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  const std::string ta = manifest_text("s", "draft", a->cases), tb = manifest_text("s", "draft", b->cases);
  EXPECT_EQ(ta, tb);
  EXPECT_EQ(a->files, b->files);

  const fs::path dir = fs::temp_directory_path() / ("fixtures-seed-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const auto& [path, bytes] : a->files) {
    fs::create_directories((dir / path).parent_path());
    std::ofstream(dir / path, std::ios::binary) << bytes;
  }
  std::ofstream(dir / "manifest.json", std::ios::binary) << ta;
  Manifest m = load_manifest(dir);
  EXPECT_EQ(m.status, "s");
  EXPECT_EQ(m.snapshot_version, "draft");
  ASSERT_EQ(m.cases.size(), a->cases.size());
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    EXPECT_EQ(m.cases[i].id, a->cases[i].id);
    EXPECT_EQ(m.cases[i].path, a->cases[i].path);
    EXPECT_EQ(m.cases[i].expected_valid, a->cases[i].expected_valid);
    EXPECT_EQ(m.cases[i].sha256, a->cases[i].sha256);
  }
  EXPECT_NO_THROW(read_files(m)) << "every sha256 is the file's";
  EXPECT_EQ(manifest_text(m.status, m.snapshot_version, m.cases), ta) << "reader and writer agree";
  fs::remove_all(dir);
}

TEST(FixturesSeed, MergeKeepsTheFolderAndRefusesAContradiction) {
  auto first = seed_fixtures({finding("capabilities", "{}", core::Verdict::kValid)}, nullptr);
  ASSERT_TRUE(first.ok());
  auto again = seed_fixtures({finding("capabilities", "{}", core::Verdict::kValid),
                              finding("registration", "[]", core::Verdict::kInvalid)},
                             &first->cases);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->added, 1u);
  EXPECT_EQ(again->already, 1u);
  ASSERT_EQ(again->cases.size(), 2u);
  EXPECT_EQ(again->cases[0].id, first->cases[0].id) << "the folder's cases first";
  EXPECT_EQ(again->files.size(), 1u) << "only the new case's file is written";
  auto contradiction = first->cases;
  contradiction[0].expected_valid = false;
  auto refused = seed_fixtures({finding("capabilities", "{}", core::Verdict::kValid)}, &contradiction);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find(first->cases[0].id), std::string::npos);
}

}  // namespace
}  // namespace crosscheck::fixtures
