// fixtures_manifest_test.cpp: reading an upstream-layout fixtures manifest, resolving its paths,
// checking sha256s and framing stdio-jsonl files; every bad input is exit 2 naming the case and field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "fixtures/manifest.hpp"
#include "schema/sha256.hpp"
#include "util/result.hpp"

namespace crosscheck::fixtures {
namespace {
namespace fs = std::filesystem;

const fs::path kUpstream = fs::path(CROSSCHECK_TEST_DATA) / "fixtures/upstream-layout/fixtures/draft";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

class ManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("crosscheck-fixtures-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// A manifest of one http-json case whose file holds `body`, with `fields` spliced into the case.
  void one_case(const std::string& body, const std::string& fields = "",
                const std::string& path = "http/a.json") {
    write(dir_ / "http/a.json", body);
    write(dir_ / "manifest.json",
          R"({"cases": [{"id": "http.a.valid", "path": ")" + path +
              R"(", "binding": "http-json", "schema": "schema/draft/request.schema.json", )"
              R"("expectedValid": true, "requirements": [], "sha256": ")" +
              schema::sha256_hex(body) + "\"" + fields + "}]}");
  }

  std::string fatal(const std::function<void()>& f) {
    try {
      f();
    } catch (const Fatal& e) {
      EXPECT_EQ(e.code(), kExitUsage);
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }

  fs::path dir_;
};

TEST_F(ManifestTest, ReadsTheUpstreamLayoutAndFindsTheRepositoryRoot) {
  Manifest m = load_manifest(kUpstream);
  ASSERT_EQ(m.cases.size(), 9u);
  EXPECT_EQ(m.snapshot_version, "draft");
  // The paths say fixtures/draft/...: the root is two folders up.
  EXPECT_EQ(m.root, fs::absolute(kUpstream).lexically_normal().parent_path().parent_path());
  const FixtureCase& stdio = m.cases[0];
  EXPECT_EQ(stdio.id, "stdio.intercept-requests.valid");
  EXPECT_EQ(stdio.binding, Binding::kStdioJsonl);
  EXPECT_TRUE(stdio.expected_valid);
  EXPECT_EQ(stdio.aggregate_expected_valid, std::optional<bool>(true));
  EXPECT_EQ(stdio.file, m.root / "fixtures/draft/stdio/intercept-requests.valid.jsonl");
  const FixtureCase& observe = m.cases[4];
  EXPECT_EQ(observe.event_schema, std::optional<std::string>("schema/draft/tool-after.schema.json"));
  EXPECT_EQ(m.cases[7].binding, Binding::kRegistrationJson);
  EXPECT_FALSE(m.cases[7].aggregate_expected_valid);
  auto files = read_files(m);
  ASSERT_EQ(files.size(), 9u);
  EXPECT_EQ(files[0].messages.size(), 3u);
  EXPECT_FALSE(files[0].framing_error);
  EXPECT_EQ(files[2].messages.size(), 2u);
  EXPECT_EQ(files[2].messages[1].line, 2u);
}

TEST_F(ManifestTest, PathsRelativeToTheFolderItself) {
  one_case(R"({"a": 1})");
  Manifest m = load_manifest(dir_);
  EXPECT_EQ(m.root, fs::absolute(dir_).lexically_normal());
  auto files = read_files(m);
  ASSERT_EQ(files[0].messages.size(), 1u);
  EXPECT_EQ(files[0].messages[0].bytes, R"({"a": 1})");
}

TEST_F(ManifestTest, MissingFolderAndManifest) {
  EXPECT_NE(fatal([&] { load_manifest(dir_ / "nowhere"); }).find("no such folder"), std::string::npos);
  std::string e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find((dir_ / "manifest.json").string() + ": no such file"), std::string::npos) << e;
}

TEST_F(ManifestTest, MalformedManifestNamesTheFileCaseAndPointer) {
  write(dir_ / "manifest.json", "{\"cases\": [");
  std::string e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("manifest.json: not JSON: line 1"), std::string::npos) << e;

  one_case("{}", R"(, "binding": "grpc")");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find(R"(cases[0] (id "http.a.valid"): field 'binding' (/cases/0/binding))"), std::string::npos)
      << e;

  one_case("{}", R"(, "expectedvalid": true)");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("/cases/0/expectedvalid"), std::string::npos) << e;

  write(dir_ / "manifest.json", R"({"cases": [{"id": "x"}]})");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("required field is missing"), std::string::npos) << e;
}

TEST_F(ManifestTest, DuplicateIdsAndEscapingPathsAreRefused) {
  std::string body = "{}";
  write(dir_ / "http/a.json", body);
  std::string c =
      R"({"id": "same", "path": "http/a.json", "binding": "http-json", "schema": "s/x.schema.json", )"
      R"("expectedValid": true, "requirements": [], "sha256": ")" +
      schema::sha256_hex(body) + "\"}";
  write(dir_ / "manifest.json", "{\"cases\": [" + c + ", " + c + "]}");
  std::string e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find(R"(cases[1] (id "same"): /cases/1/id: expected a unique id)"), std::string::npos) << e;

  one_case("{}", "", "../outside.json");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("/cases/0/path: expected no empty, '.' or '..' segment"), std::string::npos) << e;
  one_case("{}", "", "http/\\u001b[31ma.json");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("/cases/0/path: expected no control characters"), std::string::npos) << e;
  one_case("{}", "", "/etc/passwd");
  e = fatal([&] { load_manifest(dir_); });
  EXPECT_NE(e.find("/cases/0/path"), std::string::npos) << e;
}

TEST_F(ManifestTest, MissingFileAndSha256MismatchAreListedTogether) {
  one_case(R"({"a": 1})");
  Manifest m = load_manifest(dir_);
  write(dir_ / "http/a.json", R"({"a": 2})");
  std::string e = fatal([&] { read_files(m); });
  EXPECT_NE(e.find(R"(cases[0] (id "http.a.valid"): /cases/0/sha256: http/a.json has sha256 )" +
                   schema::sha256_hex(R"({"a": 2})") + ", the manifest expects " +
                   schema::sha256_hex(R"({"a": 1})")),
            std::string::npos)
      << e;
  fs::remove(dir_ / "http/a.json");
  e = fatal([&] { read_files(m); });
  EXPECT_NE(
      e.find("/cases/0/path: http/a.json: no such file (expected it at " + (dir_ / "http/a.json").string()),
      std::string::npos)
      << e;
  EXPECT_NE(e.find("nothing was run"), std::string::npos);
}

TEST(Frame, StdioJsonlIsOneMessagePerLine) {
  auto f = frame(Binding::kStdioJsonl, "{\"a\":1}\n{\"b\":2}\n");
  ASSERT_EQ(f.messages.size(), 2u);
  EXPECT_EQ(f.messages[1].bytes, "{\"b\":2}");
  EXPECT_EQ(f.messages[1].line, 2u);
  EXPECT_FALSE(f.framing_error);
}

TEST(Frame, StdioJsonlFramingFaults) {
  EXPECT_EQ(*frame(Binding::kStdioJsonl, "{}").framing_error, "the last line does not end in LF");
  EXPECT_EQ(*frame(Binding::kStdioJsonl, "{}\r\n").framing_error,
            "line 1 holds a CR (expected LF line ends only)");
  auto blank = frame(Binding::kStdioJsonl, "{}\n\n{}\n");
  EXPECT_EQ(*blank.framing_error, "line 2 is empty (expected one message per line)");
  EXPECT_EQ(blank.messages.size(), 2u);
  EXPECT_EQ(blank.messages[1].line, 3u);
  EXPECT_TRUE(frame(Binding::kStdioJsonl, "").framing_error);
}

TEST(Frame, HttpAndRegistrationAreTheWholeFile) {
  auto f = frame(Binding::kHttpJson, "{\n  \"a\": 1\n}\n");
  ASSERT_EQ(f.messages.size(), 1u);
  EXPECT_EQ(f.messages[0].bytes, "{\n  \"a\": 1\n}\n");
  EXPECT_FALSE(f.framing_error);
  EXPECT_EQ(frame(Binding::kRegistrationJson, "x").messages.size(), 1u);
}

}  // namespace
}  // namespace crosscheck::fixtures
