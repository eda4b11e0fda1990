// matrix_matrix_seed_test.cpp: matrix cases from findings (crosscheck matrix seed) on the mini schema: the
// decoder's expectation, content ids, semantic de-duplication, skipped inputs, the review list, output
// that validates against schemas/matrix.schema.json and is byte-identical on every run, merge conflicts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "layers/structural/comparator.hpp"
#include "matrix/matrix_seed.hpp"
#include "run/finding_file.hpp"
#include "schema/loader.hpp"

namespace crosscheck::matrix {
namespace {

using core::Outcome;
namespace fs = std::filesystem;

core::ImplResult answer(const std::string& impl, Outcome outcome, const std::string& input,
                        std::vector<core::Diag> diags = {}) {
  core::ImplResult r;
  r.implementation = impl;
  r.outcome = outcome;
  r.diagnostics = std::move(diags);
  if (outcome == Outcome::kAccepted) r.encoded = input;
  return r;
}

baseline::RunFinding finding(const std::string& name, const std::string& root, const std::string& input,
                             std::vector<core::ImplResult> results) {
  baseline::RunFinding rf;
  rf.path = "findings/" + name + ".json";
  rf.finding.root = root;
  rf.finding.input = input;
  rf.finding.results = std::move(results);
  rf.finding.divergences = layers::structural::compare(root, input, rf.finding.results);
  return rf;
}

class SeedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto ir = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    ir_ = new schema::Ir(std::move(ir).value());
  }
  static void TearDownTestSuite() { delete ir_; }

  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crosscheck-seed-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Findings of every kind seeding meets.
  static std::vector<baseline::RunFinding> findings() {
    std::vector<baseline::RunFinding> f;
    std::string ping = R"({"type": "ping", "count": 1.0})";
    f.push_back(finding("a", "event", ping,
                        {answer("cpp", Outcome::kAccepted, ping),
                         answer("python", Outcome::kRejected, ping, {{"/count", "invalid_type", "error"}})}));
    // The same payload semantically (member order, 1 == 1.0): one case.
    std::string same = R"({"count":1,"type":"ping"})";
    f.push_back(finding("b", "event", same,
                        {answer("cpp", Outcome::kAccepted, same),
                         answer("python", Outcome::kRejected, same, {{"/count", "invalid_type", "error"}})}));
    std::string stop = R"({"type":"stop","reason":"maybe"})";
    f.push_back(finding("c", "event", stop,
                        {answer("cpp", Outcome::kAccepted, stop, {{"/reason", "unknown_enum", "warning"}}),
                         answer("python", Outcome::kAccepted, stop, {{"/reason", "unknown_enum", "warning"}}),
                         answer("rust", Outcome::kRejected, stop, {{"/reason", "invalid_type", "error"}})}));
    std::string negative = R"({"type":"ping","count":-1})";
    f.push_back(finding("d", "event", negative,
                        {answer("cpp", Outcome::kRejected, negative, {{"/count", "invalid_type", "error"}}),
                         answer("python", Outcome::kAccepted, negative)}));
    std::string broken = R"({"type":)";
    f.push_back(finding("e", "event", broken,
                        {answer("cpp", Outcome::kRejected, broken, {{"", "invalid_json", "error"}}),
                         answer("python", Outcome::kError, broken)}));
    std::string dup = R"({"type":"ping","type":"pong"})";
    f.push_back(finding("f", "event", dup,
                        {answer("cpp", Outcome::kAccepted, R"({"type":"pong"})"),
                         answer("python", Outcome::kRejected, dup, {{"/type", "x", "error"}})}));
    std::string opaque_big = R"({"type":"pong","x":9007199254740993})";
    f.push_back(finding(
        "g", "event", opaque_big,
        {answer("cpp", Outcome::kAccepted, opaque_big), answer("python", Outcome::kError, opaque_big)}));
    std::string elsewhere = R"({"type":"ping"})";
    f.push_back(finding("h", "no_such_root", elsewhere,
                        {answer("cpp", Outcome::kAccepted, elsewhere),
                         answer("python", Outcome::kRejected, elsewhere, {{"", "x", "error"}})}));
    return f;
  }

  static schema::Ir* ir_;
  fs::path dir_;
};

schema::Ir* SeedTest::ir_ = nullptr;

TEST_F(SeedTest, CasesCarryTheDecodersExpectationAndStableIds) {
  auto r = seed_matrix(*ir_, findings(), nullptr, "out.json");
  ASSERT_EQ(r.added.size(), 3u);
  EXPECT_EQ(r.duplicates, 1u);
  EXPECT_EQ(r.skipped.at("input is not strict JSON in UTF-8"), 1u);
  EXPECT_EQ(r.skipped.at("input has duplicate keys"), 1u);
  EXPECT_EQ(r.skipped.at("implementation-defined divergences only"), 1u);
  EXPECT_EQ(r.skipped.at("root unknown to the schema"), 1u);
  std::map<std::string, const SeededCase*> by_value;
  for (const auto& s : r.added) {
    EXPECT_EQ(s.c.id.rfind("event/seed-", 0), 0u) << s.c.id;
    EXPECT_EQ(s.c.id.size(), std::string("event/seed-").size() + 12);
    by_value[s.c.text] = &s;
  }
  EXPECT_TRUE(std::is_sorted(r.added.begin(), r.added.end(),
                             [](const SeededCase& a, const SeededCase& b) { return a.c.id < b.c.id; }));
  // Number spelling is kept: the case holds the first finding's 1.0.
  ASSERT_TRUE(by_value.count(R"({"type":"ping","count":1.0})"));
  const SeededCase& ping = *by_value.at(R"({"type":"ping","count":1.0})");
  EXPECT_TRUE(ping.c.accepted);
  EXPECT_FALSE(ping.c.warning);
  ASSERT_EQ(ping.disagreements.size(), 1u);
  EXPECT_EQ(ping.disagreements[0].implementation, "python");
  EXPECT_EQ(ping.disagreements[0].answer, "rejected (invalid_type at '/count')");
  const SeededCase& stop = *by_value.at(R"({"type":"stop","reason":"maybe"})");
  EXPECT_TRUE(stop.c.accepted);
  EXPECT_TRUE(stop.c.warning);
  ASSERT_EQ(stop.disagreements.size(), 1u) << "python agrees, rust does not";
  EXPECT_EQ(stop.disagreements[0].implementation, "rust");
  const SeededCase& negative = *by_value.at(R"({"type":"ping","count":-1})");
  EXPECT_FALSE(negative.c.accepted);
  EXPECT_FALSE(negative.c.warning);
  // The review list names exactly the cases an SDK disagrees on.
  auto review = json::parse(r.review_text);
  ASSERT_TRUE(review.ok());
  EXPECT_EQ(review.value().find("cases")->items().size(), 3u);
}

TEST_F(SeedTest, OutputIsAValidMatrixAndTheSameOnEveryRun) {
  auto first = seed_matrix(*ir_, findings(), nullptr, "out.json");
  auto shuffled = findings();
  std::reverse(shuffled.begin(), shuffled.end());
  auto second = seed_matrix(*ir_, shuffled, nullptr, "out.json");
  EXPECT_EQ(first.matrix_text, second.matrix_text);
  EXPECT_EQ(first.review_text, second.review_text);
  auto parsed = json::parse(first.matrix_text);
  ASSERT_TRUE(parsed.ok()) << first.matrix_text;
  auto bad = json::shipped_schema("matrix.schema.json").validate(parsed.value());
  EXPECT_FALSE(bad) << bad->pointer << ": " << bad->message << "\n" << first.matrix_text;
  // The loader of `matrix run` reads it, and every case sits on its own line.
  std::string path = (dir_ / "seeded.json").string();
  run::write_file_atomically(path, first.matrix_text);
  auto m = load_matrix(path);
  EXPECT_EQ(m.cases.size(), 3u);
  for (const auto& c : m.cases)
    EXPECT_NE(first.matrix_text.find("    " + case_line(c) + ""), std::string::npos);
}

TEST_F(SeedTest, MergeAddsNothingTwiceAndKeepsTheFileByteForByte) {
  std::string path = (dir_ / "matrix.json").string();
  std::string hand_written =
      "{\n  \"contract\": \"hand-written\",\n  \"cases\": [\n"
      "    {\"id\": \"event/pong\", \"root\": \"event\", \"value\": {\"type\": \"pong\"}, \"accepted\": "
      "true, \"warning\": false},\n"
      "    {\"id\": \"event/negative-count\", \"root\": \"event\", \"value\": {\"count\": -1.0, \"type\": "
      "\"ping\"}, \"accepted\": false, \"warning\": false}\n"
      "  ]\n}\n";
  run::write_file_atomically(path, hand_written);
  auto existing = load_matrix(path);
  auto merged = seed_matrix(*ir_, findings(), &existing, path);
  ASSERT_EQ(merged.added.size(), 2u) << "the negative count is already there, written another way";
  EXPECT_EQ(merged.duplicates, 2u);
  std::size_t cut = hand_written.find("}\n  ]");
  EXPECT_EQ(merged.matrix_text.substr(0, cut + 1), hand_written.substr(0, cut + 1));
  run::write_file_atomically(path, merged.matrix_text);
  auto again_in = load_matrix(path);
  auto again = seed_matrix(*ir_, findings(), &again_in, path);
  EXPECT_TRUE(again.added.empty());
  EXPECT_EQ(again.matrix_text, merged.matrix_text);
}

TEST_F(SeedTest, AConflictingExpectationIsFatalAndNamesBothFilesAndTheCase) {
  std::string path = (dir_ / "matrix.json").string();
  run::write_file_atomically(path,
                             "{\"contract\": \"c\", \"cases\": [\n"
                             "  {\"id\": \"event/stop-maybe\", \"root\": \"event\", \"value\": "
                             "{\"reason\": \"maybe\", \"type\": \"stop\"}, "
                             "\"accepted\": false, \"warning\": false}\n]}\n");
  auto existing = load_matrix(path);
  try {
    seed_matrix(*ir_, findings(), &existing, path);
    FAIL() << "a conflicting expectation was merged";
  } catch (const Fatal& e) {
    std::string what = e.what();
    EXPECT_EQ(e.code(), kExitUsage);
    EXPECT_NE(
        what.find(path + " case event/stop-maybe expects rejected, but the C++ decoder says accepted with a "
                         "warning for the same payload in findings/c.json (seeded id event/seed-"),
        std::string::npos)
        << what;
    EXPECT_NE(what.find("nothing written"), std::string::npos);
  }
}

TEST(MatrixCanonical, SemanticallyEqualValuesHaveOneText) {
  auto a = json::parse(R"({"b":[1,1.50E1,"\u00e9"],"a":{"y":-0,"x":null}})");
  auto b = json::parse(R"({"a":{"x":null,"y":0},"b":[1.0,15,"é"]})");
  auto c = json::parse(R"({"a":{"x":null,"y":0},"b":[1.0,15,"e"]})");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(canonical_text(a.value()), canonical_text(b.value()));
  EXPECT_NE(canonical_text(a.value()), canonical_text(c.value()));
}

}  // namespace
}  // namespace crosscheck::matrix
