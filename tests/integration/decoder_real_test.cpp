// The decoder on the real schema bundle that set-up installed: one hand-written payload per
// construct (unknown members, unknown and excluded event tags, open enums, safe integers,
// forbidden sets, typed additional members, literals, untagged unions), and the same answers from
// the IR after a trip through the --emit-ir layout.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <tuple>

#include "decoder/decoder.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "schema/ir_json.hpp"
#include "schema/loader.hpp"

namespace crosscheck::decoder {
namespace {

using Expect = std::tuple<std::string, std::string, Severity>;
constexpr Severity E = Severity::kError;
constexpr Severity W = Severity::kWarning;

/// A valid tool.before intercept request; ID, ORIGIN and EXTRA are replaced per case.
const std::string kRequest =
    R"({"jsonrpc":"2.0","id":ID,"method":"hooks/intercept","params":{"protocolVersion":"draft",)"
    R"("capabilities":{"effects":["deny","allow"]},"event":{"type":"tool.before","id":"evt-1",)"
    R"("time":"2026-01-01T00:00:00Z","source":"test","path":"/","harness":{"name":"h","version":"1"},)"
    R"("session":{"id":"s1"},"call":{"id":"c1"},"tool":{"name":"bash","origin":"ORIGIN","input":{"cmd":"ls"}}EXTRA}}})";

std::string request(const std::string& id = "1", const std::string& origin = "native",
                    const std::string& extra = "") {
  std::string s = kRequest;
  auto put = [&](const std::string& key, const std::string& value) {
    s.replace(s.find(key), key.size(), value);
  };
  put("ID", id);
  put("ORIGIN", origin);
  put("EXTRA", extra);
  return s;
}

std::string with_event(const std::string& event) {
  return R"({"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{"protocolVersion":"draft",)"
         R"("capabilities":{"effects":["deny"]},"event":)" +
         event + "}}";
}

struct Case {
  const char* root;
  std::string input;
  bool accepted;
  std::vector<Expect> diagnostics;
};

std::vector<Case> cases() {
  const std::string event = "/params/event";
  return {
      {"intercept_request", request(), true, {}},
      // Unknown members at every depth are kept (ExecutionEventTool is additionalProperties:false).
      {"intercept_request", request("\"req-1\"", "native", R"(,"vendor":{"deep":[1,{"x":null}]})"), true, {}},
      // An unknown event type: kept, one warning from Event's union and one from the interceptable one.
      {"intercept_request",
       with_event(R"({"type":"vendor.future","anything":{"x":[1]}})"),
       true,
       {{event, "unknown_variant", W}, {event, "unknown_variant", W}}},
      // A known but non-interceptable type (intersection[variant, never]): an error.
      {"intercept_request",
       with_event(
           R"({"type":"session.end","id":"e","time":"t","source":"s","harness":{"name":"h","version":"1"},)"
           R"("session":{"id":"s1"},"reason":"done","outcome":"completed"})"),
       false,
       {{event, "invalid_type", E}, {event, "invalid_known_variant", E}}},
      // A known type with a missing member: the branch's error and invalid_known_variant, from both unions.
      {"intercept_request",
       [] {
         std::string s = request();
         s.erase(s.find(R"("path":"/",)"), 11);
         return s;
       }(),
       false,
       {{event + "/path", "missing_required", E},
        {event, "invalid_known_variant", E},
        {event + "/path", "missing_required", E},
        {event, "invalid_known_variant", E}}},
      // An open enum: an unknown origin warns (checked by both unions), an unknown effect name too.
      {"intercept_request",
       request("1", "vendor.future"),
       true,
       {{event + "/tool/origin", "unknown_enum", W}, {event + "/tool/origin", "unknown_enum", W}}},
      // Safe integers only, no coercion of the literal.
      {"intercept_request", request("9007199254740991"), true, {}},
      {"intercept_request", request("-9007199254740991.0"), true, {}},
      {"intercept_request", request("9007199254740992"), false, {{"/id", "no_union_match", E}}},
      {"intercept_request", request("1.5"), false, {{"/id", "no_union_match", E}}},
      {"intercept_request",
       [] {
         std::string s = request();
         s.replace(s.find(R"("2.0")"), 5, R"("1.0")");
         return s;
       }(),
       false,
       {{"/jsonrpc", "literal_mismatch", E}}},
      // Effect has no discriminator (two "flow" variants): an unknown type is no match, not a warning.
      {"effect", R"({"type":"deny","reason":"r","vendor":{"k":1}})", true, {}},
      {"effect", R"({"type":"vendor.x"})", false, {{"", "no_union_match", E}}},
      {"effect", R"({"type":"flow"})", false, {{"", "no_union_match", E}}},
      // Forbidden property sets hold even for a null value.
      {"content_reference", R"({"ref":"x","x-extra":1})", true, {}},
      {"content_reference", R"({"ref":"x","size":null})", false, {{"", "invalid_type", E}}},
      // Typed additional members (session counters are bounded integers).
      {"session_end_event",
       R"({"type":"session.end","id":"e","time":"t","source":"s","harness":{"name":"h","version":"1"},)"
       R"("session":{"id":"s1"},"reason":"done","outcome":"completed","counters":{"toolCalls":3,"x":-1}})",
       false,
       {{"/counters/x", "invalid_type", E}}},
      {"intercept_request", "{\"jsonrpc\":", false, {{"", "invalid_json", E}}},
  };
}

std::vector<Expect> triples(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Expect> out;
  for (const auto& d : diagnostics) out.emplace_back(d.path, d.code, d.severity);
  std::sort(out.begin(), out.end());
  return out;
}

class DecoderReal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto path = schema::default_schema_path();
    if (!path) return;
    auto loaded = schema::load_schema(*path);
    if (!loaded.ok()) {
      load_error_ = new std::string(loaded.error().message());
      return;
    }
    ir_ = new schema::Ir(std::move(loaded).value());
  }
  static void TearDownTestSuite() {
    delete ir_;
    delete load_error_;
  }
  void SetUp() override {
    ASSERT_NE(ir_, nullptr) << (load_error_
                                    ? "cannot load the installed schema bundle (run ./setup install): " +
                                          *load_error_
                                    : std::string("no schema bundle installed: run ./setup install"));
  }
  static schema::Ir* ir_;
  static std::string* load_error_;
};
schema::Ir* DecoderReal::ir_ = nullptr;
std::string* DecoderReal::load_error_ = nullptr;

void check_cases(const schema::Ir& ir, const char* label) {
  Decoder decoder(ir);
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(label) + " " + c.root + " " + c.input);
    const schema::Root* root = ir.find_root(c.root);
    ASSERT_NE(root, nullptr) << "the bundle has no root " << c.root;
    DecodeResult r = decoder.decode(*root, c.input);
    EXPECT_EQ(r.accepted, c.accepted);
    std::vector<Expect> expected = c.diagnostics;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(triples(r.diagnostics), expected);
    if (r.accepted) {
      ASSERT_TRUE(r.encoded.has_value());
      auto again = json::parse(*r.encoded);
      auto input = json::parse(c.input);
      ASSERT_TRUE(again.ok() && input.ok());
      EXPECT_TRUE(json::semantically_equal(*again, *input)) << *r.encoded;
    }
  }
}

TEST_F(DecoderReal, OnePayloadPerConstruct) { check_cases(*ir_, "bundle"); }

TEST_F(DecoderReal, SameAnswersAfterTheEmitIrRoundTrip) {
  auto rebuilt = schema::ir_from_json(ir_->to_json());
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.error();
  EXPECT_EQ(rebuilt->types.size(), ir_->types.size());
  EXPECT_EQ(rebuilt->roots.size(), ir_->roots.size());
  EXPECT_TRUE(json::semantically_equal(rebuilt->to_json(), ir_->to_json()));
  check_cases(*rebuilt, "emit-ir");
}

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Runs build/crosscheck decode with `args` (already shell-quoted), `input` on stdin.
CliRun run_decode(const std::string& args, const std::string& input) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("crosscheck-decoder-real-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "in", std::ios::binary) << input;
  const std::string binary = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";
  EXPECT_TRUE(fs::exists(binary)) << binary << " is missing: build the crosscheck target";
  const std::string command = "'" + binary + "' decode " + args + " < '" + (dir / "in").string() + "' > '" +
                              (dir / "out").string() + "' 2> '" + (dir / "err").string() + "'";
  CliRun run;
  const int raw = std::system(command.c_str());
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = slurp(dir / "out");
  run.err = slurp(dir / "err");
  fs::remove_all(dir);
  return run;
}

TEST_F(DecoderReal, CliPrintsOutcomeDiagnosticsAndTheEncodedValue) {
  CliRun accepted =
      run_decode("--root intercept_request -", request("1", "vendor.future", R"(,"x":{"y":1,"y":2})"));
  ASSERT_EQ(accepted.status, 0) << accepted.err;
  auto out = json::parse(accepted.out);
  ASSERT_TRUE(out.ok()) << accepted.out;
  EXPECT_EQ(out->find("outcome")->string_value(), "accepted");
  const auto& diagnostics = out->find("diagnostics")->items();
  ASSERT_EQ(diagnostics.size(), 2u);
  EXPECT_EQ(diagnostics[0].find("path")->string_value(), "/params/event/tool/origin");
  EXPECT_EQ(diagnostics[0].find("code")->string_value(), "unknown_enum");
  EXPECT_EQ(diagnostics[0].find("severity")->string_value(), "warning");
  EXPECT_FALSE(diagnostics[0].find("message")->string_value().empty());
  const json::Value* encoded = out->find("encoded");
  ASSERT_TRUE(encoded && encoded->is_object());  // a value, not a string
  auto input = json::parse(request("1", "vendor.future", R"(,"x":{"y":1,"y":2})"));
  EXPECT_TRUE(json::semantically_equal(*encoded, *input));

  CliRun rejected = run_decode("--root effect -", R"({"type":"vendor.x"})");
  EXPECT_EQ(rejected.status, 1) << rejected.err;
  auto rejected_out = json::parse(rejected.out);
  ASSERT_TRUE(rejected_out.ok()) << rejected.out;
  EXPECT_EQ(rejected_out->find("outcome")->string_value(), "rejected");
  EXPECT_TRUE(rejected_out->find("encoded")->is_null());

  CliRun not_json = run_decode("--root effect -", "{\"type\"");
  EXPECT_EQ(not_json.status, 1);
  EXPECT_NE(not_json.out.find("\"invalid_json\""), std::string::npos) << not_json.out;
}

TEST_F(DecoderReal, CliUsageErrorsExitTwo) {
  CliRun unknown = run_decode("--root no_such_root -", "{}");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown root no_such_root"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("intercept_request"), std::string::npos)
      << unknown.err;  // lists the known roots
  CliRun missing = run_decode("--root effect /nonexistent/payload.json", "");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("/nonexistent/payload.json"), std::string::npos) << missing.err;
  CliRun bad_schema = run_decode("--schema /nonexistent/schemas.json --root effect -", "{}");
  EXPECT_EQ(bad_schema.status, 2);
  EXPECT_NE(bad_schema.err.find("/nonexistent/schemas.json"), std::string::npos) << bad_schema.err;
  CliRun no_root = run_decode("-", "{}");
  EXPECT_EQ(no_root.status, 2);
}

}  // namespace
}  // namespace crosscheck::decoder
