// The canonical reference validator on the real schema bundle that set-up installed: it loads (every
// keyword in the subset), its verdicts on the corpus examples and on hand-written invalid variants
// agree with the Python SDK's own validator (agenthooksprotocol.runtime.Validator), and
// `crosscheck validate` answers with the documented exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "canonical/canonical_validator.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "python_validator.hpp"
#include "schema/loader.hpp"

namespace crosscheck::canonical {
namespace {

namespace fs = std::filesystem;
const std::string kSource = CROSSCHECK_SOURCE_DIR;
const std::string kPython = kSource + "/.venv/bin/python";
const std::string kBinary = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

fs::path temp_dir() {
  fs::path dir = fs::path(CROSSCHECK_BINARY_DIR) / "test-out" / "canonical_real";
  fs::create_directories(dir);
  return dir;
}

struct Payload {
  std::string name, document, bytes;
  bool expect_valid;  ///< the reference's verdict, checked independently of the SDK
};

/// One of the corpus examples with `edit` applied: member `key` of the object at `pointer` set to `value`.
std::string edited(const std::string& file, const std::string& pointer, const std::string& key,
                   const char* value) {
  auto parsed = json::parse(slurp(kSource + "/corpus/examples/" + file));
  json::Value doc = std::move(parsed).value();
  json::Value* node = &doc;
  std::string rest = pointer;
  while (!rest.empty()) {
    std::size_t next = rest.find('/', 1);
    std::string token = rest.substr(1, next == std::string::npos ? std::string::npos : next - 1);
    node = node->is_array() ? &node->items()[std::stoul(token)] : node->find(token);
    rest = next == std::string::npos ? "" : rest.substr(next);
  }
  json::Value v = value ? std::move(json::parse(value).value()) : json::Value();
  if (json::Value* existing = node->find(key)) {
    *existing = std::move(v);
  } else {
    node->add(key, std::move(v));
  }
  return json::write(doc);
}

std::vector<Payload> payloads() {
  std::vector<Payload> out;
  for (const auto& entry : fs::directory_iterator(kSource + "/corpus/examples")) {
    std::string file = entry.path().filename().string();
    std::string root = file.substr(0, file.find('.'));
    std::string document = root;
    for (char& c : document) c = c == '_' ? '-' : c;
    bool invalid = file.find("not-interceptable") != std::string::npos ||
                   file.find("unknown-event-tag") != std::string::npos;
    out.push_back({file, document, slurp(entry.path()), !invalid});
  }
  const std::string tb = "intercept_request.tool-before.json";
  const std::string ev = "/params/event";
  out.push_back(
      {"time with a space", "intercept-request", edited(tb, ev, "time", R"("2026-01-01 00:00:00Z")"), false});
  out.push_back({"time lower-case t z", "intercept-request",
                 edited(tb, ev, "time", R"("2026-01-01t00:00:00z")"), true});
  out.push_back(
      {"time on Feb 30", "intercept-request", edited(tb, ev, "time", R"("2026-02-30T00:00:00Z")"), false});
  out.push_back({"time with -00:00", "intercept-request",
                 edited(tb, ev, "time", R"("2026-01-01T00:00:00-00:00")"), true});
  out.push_back({"unknown member in the closed event tool", "intercept-request",
                 edited(tb, ev + "/tool", "vendorField", "1"), false});
  out.push_back(
      {"unknown member in the open event", "intercept-request", edited(tb, ev, "vendorField", "1"), true});
  out.push_back({"empty event id", "intercept-request", edited(tb, ev, "id", R"("")"), false});
  out.push_back({"event id of one astral character", "intercept-request",
                 edited(tb, ev, "id", R"("\ud83d\ude00")"), true});
  out.push_back({"wrong protocol version", "intercept-request",
                 edited(tb, "/params", "protocolVersion", R"("1.0")"), false});
  out.push_back({"duplicate capability effect", "intercept-request",
                 edited(tb, "/params/capabilities", "effects", R"(["deny","deny"])"), false});
  const std::string reg = "registration.http-backend.json";
  out.push_back(
      {"relative backend url", "registration", edited(reg, "/hooks/0/transport", "url", R"("/ahp")"), false});
  out.push_back({"backend url with a space", "registration",
                 edited(reg, "/hooks/0/transport", "url", R"("https://guard.acme.dev/a hp")"), false});
  out.push_back({"plain http backend url", "registration",
                 edited(reg, "/hooks/0/transport", "url", R"("http://guard.acme.dev/ahp")"), true});
  out.push_back({"ftp backend url", "registration",
                 edited(reg, "/hooks/0/transport", "url", R"("ftp://guard.acme.dev/ahp")"), false});
  out.push_back({"negative timeout", "registration",
                 edited(reg, "/hooks/0/subscriptions/0", "timeoutMs", "-1"), false});
  out.push_back({"timeout 2000.0", "registration",
                 edited(reg, "/hooks/0/subscriptions/0", "timeoutMs", "2000.0"), true});
  const std::string deny = "intercept_response.deny.json";
  out.push_back({"deny without reason", "intercept-response",
                 edited(deny, "/result/effects/0", "reason", R"("")"), false});
  out.push_back({"unknown effect member", "intercept-response",
                 edited(deny, "/result/effects/0", "extra", "true"), false});
  return out;
}

class RealCanonical : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = schema::default_schema_path();
    if (!path_)
      GTEST_SKIP() << "no schema bundle installed (.deps/schema-path is absent): run ./setup install";
    auto ir = schema::load_schema(*path_);
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    auto v = CanonicalValidator::from_ir(ir.value());
    ASSERT_TRUE(v.ok()) << "the real bundle uses something outside the subset: " << v.error().text();
    validator_.emplace(std::move(v.value()));
  }
  std::optional<std::string> path_;
  std::optional<CanonicalValidator> validator_;
};

TEST_F(RealCanonical, BundleLoadsWithEveryDocumentNamed) {
  EXPECT_GE(validator_->documents().size(), 30u);
  for (const char* name : {"intercept-request", "intercept-response", "registration", "capabilities",
                           "capabilities-request", "capabilities-response", "observe-notification", "schema"})
    EXPECT_TRUE(validator_->knows(name)) << name;
}

TEST_F(RealCanonical, ReferenceVerdictsOnExamplesAndVariants) {
  for (const Payload& p : payloads()) {
    auto r = validator_->validate(p.document, p.bytes);
    ASSERT_TRUE(r) << p.document;
    std::string errors;
    for (const auto& e : r->errors) errors += "\n  " + e.path + " " + e.keyword + ": " + e.message;
    EXPECT_EQ(r->valid, p.expect_valid) << p.name << errors;
  }
}

/// The Python SDK's verdict on each payload, "valid" or "invalid" (a refusal by its codec, or no codec
/// for the document, is a refusal too): one interpreter for all of them.
std::vector<std::string> python_verdicts(const std::vector<Payload>& list) {
  std::vector<std::pair<std::string, std::string>> payloads;
  for (const Payload& p : list) payloads.emplace_back(p.document, p.bytes);
  std::vector<std::string> out = testing::python_validator_verdicts(kPython, temp_dir(), payloads);
  for (std::string& verdict : out)
    if (verdict != "valid") verdict = "invalid";
  return out;
}

TEST_F(RealCanonical, AgreesWithThePythonSdkValidator) {
  ASSERT_TRUE(fs::exists(kPython)) << "the SDK venv is missing (" << kPython << "): run ./setup install";
  std::vector<Payload> list = payloads();
  std::vector<std::string> python = python_verdicts(list);
  ASSERT_EQ(python.size(), list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto r = validator_->validate(list[i].document, list[i].bytes);
    EXPECT_EQ(r->valid ? "valid" : "invalid", python[i]) << list[i].name;
  }
}

struct CommandRun {
  int status;
  std::string out, err;
};

CommandRun crosscheck(const std::string& args, const std::string& stdin_text = "") {
  const fs::path dir = temp_dir();
  std::ofstream(dir / "stdin.txt", std::ios::binary) << stdin_text;
  const std::string command = "'" + kBinary + "' " + args + " < '" + (dir / "stdin.txt").string() + "' > '" +
                              (dir / "out.txt").string() + "' 2> '" + (dir / "err.txt").string() + "'";
  int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out.txt"), slurp(dir / "err.txt")};
}

TEST_F(RealCanonical, ValidateCommandExitCodes) {
  const std::string example = kSource + "/corpus/examples/intercept_request.tool-before.json";
  CommandRun ok = crosscheck("validate --document intercept-request '" + example + "'");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(ok.out, "{\"outcome\":\"valid\",\"errors\":[],\"implementationDefined\":[]}\n");

  CommandRun bad =
      crosscheck("validate --document registration -", R"({"protocolVersion":"draft","hooks":[]})");
  EXPECT_EQ(bad.status, 1) << bad.err;
  auto parsed = json::parse(bad.out);
  ASSERT_TRUE(parsed.ok()) << bad.out;
  EXPECT_EQ(parsed.value().find("outcome")->string_value(), "invalid");
  ASSERT_FALSE(parsed.value().find("errors")->items().empty());
  const json::Value& first = parsed.value().find("errors")->items()[0];
  EXPECT_TRUE(first.find("path") && first.find("keyword") && first.find("message")) << bad.out;

  CommandRun not_json = crosscheck("validate --document registration -", "{\"hooks\":");
  EXPECT_EQ(not_json.status, 1);
  EXPECT_NE(not_json.out.find("\"keyword\":\"json\""), std::string::npos) << not_json.out;
  EXPECT_NE(not_json.out.find("line 1, column 10"), std::string::npos) << not_json.out;

  CommandRun unknown = crosscheck("validate --document no-such-document -", "{}");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown document no-such-document; known documents: "), std::string::npos)
      << unknown.err;
  EXPECT_NE(unknown.err.find("intercept-request"), std::string::npos) << unknown.err;

  CommandRun usage = crosscheck("validate -", "{}");
  EXPECT_EQ(usage.status, 2);
  CommandRun missing = crosscheck("validate --document registration /no/such/file.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("/no/such/file.json"), std::string::npos) << missing.err;

  // The schema option the other commands take: a folder without a schema is exit 2.
  CommandRun no_schema = crosscheck("validate --document registration --schema /nonexistent -", "{}");
  EXPECT_EQ(no_schema.status, 2);
}

TEST_F(RealCanonical, OutOfSubsetKeywordStopsLoadingWithExit2) {
  // The real bundle with one keyword the validator does not implement, and no lock beside it.
  auto bundle = json::parse(slurp(*path_));
  ASSERT_TRUE(bundle.ok());
  json::Value documents = std::move(bundle).value();
  for (json::Value& doc : documents.items()) {
    if (doc.find("$id")->string_value().ends_with("/registration.schema.json"))
      doc.find("properties")->find("hooks")->add("unevaluatedItems", json::Value::boolean(false));
  }
  const fs::path dir = temp_dir() / "out-of-subset";
  fs::create_directories(dir);
  std::ofstream(dir / "schemas.json") << json::write(documents);
  CommandRun r = crosscheck(
      "validate --document registration --schema '" + (dir / "schemas.json").string() + "' -", "{}");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("registration.schema.json#/properties/hooks/unevaluatedItems"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace crosscheck::canonical
