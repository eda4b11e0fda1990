// Tests of the adapter conformance suite (`crosscheck adapters --check`): the fake adapter in --strict
// mode passes every check; the permissive fake and the misbehaving ones fail exactly the checks
// that cover what they do wrong; crosscheck serve-adapter (when built) passes every check.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "exec/conformance.hpp"
#include "schema/loader.hpp"

namespace crosscheck::exec::conformance {
namespace {

using namespace std::chrono_literals;

const std::string kFake = std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/fake_adapter.py";

// The system interpreter when there is one: a version-manager shim (pyenv) costs a quarter second
// per start, and these tests start some fifty processes.
std::string python() { return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

AdapterSpec fake(std::vector<std::string> args) {
  AdapterSpec spec;
  spec.name = "fake";  // what the fake's hello calls itself
  spec.argv = {python(), kFake};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  return spec;
}

Options quick(std::vector<std::string> only = {}) {
  Options o;
  o.deadline = 5000ms;
  o.hello_deadline = 10000ms;
  o.only = std::move(only);
  return o;
}

std::map<std::string, const CheckResult*> by_name(const Report& r) {
  std::map<std::string, const CheckResult*> out;
  for (const auto& c : r.checks) out[c.name] = &c;
  return out;
}

std::set<std::string> failed(const Report& r) {
  std::set<std::string> out;
  for (const auto& c : r.checks) {
    if (!c.passed) out.insert(c.name);
  }
  return out;
}

TEST(Conformance, StrictFakePassesEveryCheck) {
  Report r = run(fake({"--strict"}), quick());
  ASSERT_FALSE(r.start_error) << *r.start_error;
  EXPECT_TRUE(r.passed()) << format(r);
  std::vector<std::string> names;
  for (const auto& c : r.checks) names.push_back(c.name);
  EXPECT_EQ(names, check_names());  // every check ran, none skipped
  auto checks = by_name(r);
  EXPECT_NE(checks["handshake"]->detail.find("fake 0.0.1 (python"), std::string::npos);
  EXPECT_NE(checks["bench-op"]->detail.find("3 iterations"), std::string::npos);
  EXPECT_NE(checks["refuses-protocol-999"]->detail.find("exit status 2"), std::string::npos);
  EXPECT_NE(format(r).find("all 16 checks passed"), std::string::npos);
}

TEST(Conformance, ConcurrentStrictFakeMayAnswerInAnyOrder) {
  Report r = run(fake({"--strict", "--concurrent"}), quick());
  EXPECT_TRUE(r.passed()) << format(r);
}

// The pool's permissive fake accepts whatever comes and dies on what it cannot decode: exactly the
// error-rule checks fail, and the checks after each death still run on a fresh process.
TEST(Conformance, PermissiveFakeFailsTheErrorRules) {
  Report r = run(fake({}), quick());
  ASSERT_FALSE(r.start_error) << *r.start_error;
  EXPECT_EQ(failed(r), (std::set<std::string>{"unknown-root", "invalid-base64", "invalid-json", "not-utf8",
                                              "bad-request-lines", "refuses-protocol-999"}))
      << format(r);
  EXPECT_EQ(r.checks.size(), check_names().size());
  auto checks = by_name(r);
  EXPECT_NE(checks["unknown-root"]->detail.find("answered accepted, want unsupported"), std::string::npos)
      << checks["unknown-root"]->detail;
  // It crashed on the request: the reason says so, with its Python traceback from stderr.
  EXPECT_NE(checks["invalid-base64"]->detail.find("died"), std::string::npos)
      << checks["invalid-base64"]->detail;
  EXPECT_NE(checks["invalid-base64"]->stderr_tail.find("Error"), std::string::npos);
  // The fake says it is python: a string entrypoint, so non-UTF-8 bytes must be refused as such.
  EXPECT_NE(checks["not-utf8"]->detail.find("want error \"input is not UTF-8\""), std::string::npos)
      << checks["not-utf8"]->detail;
  EXPECT_NE(checks["refuses-protocol-999"]->detail.find("exited with status 1"), std::string::npos)
      << checks["refuses-protocol-999"]->detail;
  EXPECT_NE(format(r).find("FAIL invalid-json"), std::string::npos);
}

TEST(Conformance, WrongIdFailsTheIdCheck) {
  Report r = run(fake({"--strict", "--always", "WRONGID"}),
                 quick({"ids-echoed", "pipelining", "refuses-protocol-999"}));
  auto checks = by_name(r);
  ASSERT_TRUE(checks.count("ids-echoed")) << format(r);
  EXPECT_TRUE(checks["handshake"]->passed);
  EXPECT_FALSE(checks["ids-echoed"]->passed);
  EXPECT_NE(checks["ids-echoed"]->detail.find("request id 1 was answered with id 1000000001"),
            std::string::npos)
      << checks["ids-echoed"]->detail;
  EXPECT_FALSE(checks["pipelining"]->passed);
  EXPECT_NE(checks["pipelining"]->detail.find("which no request had"), std::string::npos);
  EXPECT_TRUE(checks["refuses-protocol-999"]->passed);
  EXPECT_EQ(r.checks.size(), 4u);  // handshake and the three chosen
}

TEST(Conformance, GarbageAnswerFailsWithTheLine) {
  Report r = run(fake({"--strict", "--always", "GARBAGE"}), quick({"ids-echoed"}));
  auto checks = by_name(r);
  EXPECT_FALSE(checks["ids-echoed"]->passed);
  EXPECT_NE(checks["ids-echoed"]->detail.find("not JSON"), std::string::npos) << checks["ids-echoed"]->detail;
  EXPECT_NE(checks["ids-echoed"]->detail.find("this is not json"), std::string::npos);
}

TEST(Conformance, SecondAnswerIsChargedToTheCheckThatCausedIt) {
  // Every answer is doubled: the repeat is seen by the check whose stream it lands in.
  Report r = run(fake({"--strict", "--always", "TWICE"}), quick({"ids-echoed", "pipelining"}));
  auto checks = by_name(r);
  EXPECT_FALSE(checks["ids-echoed"]->passed);
  EXPECT_NE(checks["ids-echoed"]->detail.find("request id 42 was answered with id 1"), std::string::npos)
      << checks["ids-echoed"]->detail;
  EXPECT_FALSE(checks["pipelining"]->passed);
  EXPECT_NE(checks["pipelining"]->detail.find("a second answer for id"), std::string::npos)
      << checks["pipelining"]->detail;
}

TEST(Conformance, HangIsATimeoutNotAWait) {
  Options o = quick({"ids-echoed"});
  o.deadline = 300ms;
  Report r = run(fake({"--strict", "--always", "HANG"}), o);
  auto checks = by_name(r);
  EXPECT_FALSE(checks["ids-echoed"]->passed);
  EXPECT_NE(checks["ids-echoed"]->detail.find("nothing came within 300 ms"), std::string::npos)
      << checks["ids-echoed"]->detail;
  EXPECT_NE(checks["ids-echoed"]->stderr_tail.find("hanging on request 1"), std::string::npos);
}

TEST(Conformance, AdapterThatCannotStart) {
  AdapterSpec missing;
  missing.name = "missing";
  missing.argv = {"/nonexistent/crosscheck-adapter"};
  Report r = run(missing, quick());
  ASSERT_TRUE(r.start_error);
  EXPECT_TRUE(r.checks.empty());
  EXPECT_FALSE(r.passed());
  EXPECT_NE(format(r).find("CANNOT START"), std::string::npos);

  Report dies = run(fake({"--mode", "exit-in-hello"}), quick());
  ASSERT_TRUE(dies.start_error);
  EXPECT_NE(dies.start_error->find("exited with status 3"), std::string::npos) << *dies.start_error;
  EXPECT_NE(dies.start_stderr_tail.find("refusing to start"), std::string::npos);
}

TEST(Conformance, BadHelloFailsTheHandshakeOnly) {
  AdapterSpec wrong_name = fake({"--strict"});
  wrong_name.name = "notfake";
  Report r = run(wrong_name, quick());
  ASSERT_EQ(r.checks.size(), 1u) << format(r);
  EXPECT_FALSE(r.checks[0].passed);
  EXPECT_NE(r.checks[0].detail.find("is not the configured name \"notfake\""), std::string::npos);

  Report p2 = run(fake({"--mode", "protocol2"}), quick());
  ASSERT_EQ(p2.checks.size(), 1u);
  EXPECT_NE(p2.checks[0].detail.find("protocol 2 (expected 1)"), std::string::npos) << p2.checks[0].detail;
}

// Layer 2: an adapter that lists the canonical layer is held to the validate op's rules; one that
// does not is not asked.
TEST(Conformance, ValidateOp) {
  Options o = quick({"validate-op"});
  o.validate_document = "fake-invalid";
  Report r = run(fake({"--strict", "--canonical"}), o);
  auto checks = by_name(r);
  ASSERT_TRUE(checks.count("validate-op")) << format(r);
  EXPECT_TRUE(checks["validate-op"]->passed) << format(r);
  EXPECT_NE(checks["validate-op"]->detail.find("an unknown document unsupported"), std::string::npos)
      << checks["validate-op"]->detail;
  EXPECT_NE(checks["handshake"]->detail.find("layers structural+canonical"), std::string::npos);

  // A document the fake does not validate answers unsupported where the check wants a verdict.
  o.validate_document = "intercept-request";
  Report unknown = run(fake({"--strict", "--canonical"}), o);
  EXPECT_EQ(failed(unknown), (std::set<std::string>{"validate-op"})) << format(unknown);
  EXPECT_NE(by_name(unknown)["validate-op"]->detail.find("answered unsupported"), std::string::npos);

  Report structural = run(fake({"--strict"}), quick({"validate-op"}));
  EXPECT_TRUE(structural.passed()) << format(structural);
  EXPECT_NE(by_name(structural)["validate-op"]->detail.find("not asked"), std::string::npos);
}

// The batch op: a well-behaved batching adapter passes every check; one that lists the op and then
// answers batches wrongly fails exactly batch-op.
TEST(Conformance, BatchOp) {
  Report r = run(fake({"--strict", "--canonical", "--batch", "8"}), quick({"batch-op"}));
  EXPECT_TRUE(r.passed()) << format(r);
  auto checks = by_name(r);
  ASSERT_TRUE(checks.count("batch-op")) << format(r);
  EXPECT_NE(checks["batch-op"]->detail.find("9 entries refused"), std::string::npos)
      << checks["batch-op"]->detail;
  EXPECT_NE(checks["handshake"]->detail.find("batch max 8"), std::string::npos);

  for (const char* lie : {"split", "reorder", "drop", "duplicate", "wrongid"}) {
    Report liar = run(fake({"--strict", "--batch", "8", "--batch-lie", lie}), quick({"batch-op"}));
    EXPECT_EQ(failed(liar), (std::set<std::string>{"batch-op"})) << lie << "\n" << format(liar);
  }
  // Lists 8 but refuses more than 2: the batch of 4 entries is refused where answers were due.
  Report refuses = run(fake({"--strict", "--batch", "8", "--batch-accepts", "2"}), quick({"batch-op"}));
  EXPECT_EQ(failed(refuses), (std::set<std::string>{"batch-op"})) << format(refuses);

  Report single = run(fake({"--strict"}), quick({"batch-op"}));
  EXPECT_TRUE(single.passed()) << format(single);
  EXPECT_NE(by_name(single)["batch-op"]->detail.find("no batch op"), std::string::npos);
}

// The C++ decoder behind the protocol, on the installed schema, when this build dir has the binary.
TEST(Conformance, ServeAdapterPassesEveryCheck) {
  std::string exe = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";
  if (!std::filesystem::exists(exe) || !schema::default_schema_path()) {
    GTEST_SKIP() << "no " << exe << " or no installed schema";
  }
  AdapterSpec spec;
  spec.name = "cpp";
  spec.argv = {exe, "serve-adapter"};
  Report r = run(spec, quick());
  ASSERT_FALSE(r.start_error) << *r.start_error;
  EXPECT_TRUE(r.passed()) << format(r);
  EXPECT_EQ(r.checks.size(), check_names().size());
  // The real schema has content_reference: the large payload is accepted and re-encoded.
  EXPECT_NE(by_name(r)["large-payload"]->detail.find("answered accepted"), std::string::npos)
      << by_name(r)["large-payload"]->detail;
}

// serve-adapter --echo-input (bench_adapters --protocol-floor) answers without decoding: the suite must
// not let it pass for a decoder, and its hello must not claim to be the reference.
TEST(Conformance, ServeAdapterEchoInputIsNoDecoder) {
  std::string exe = std::string(CROSSCHECK_BINARY_DIR) + "/crosscheck";
  if (!std::filesystem::exists(exe) || !schema::default_schema_path()) {
    GTEST_SKIP() << "no " << exe << " or no installed schema";
  }
  AdapterSpec spec;
  spec.name = "cpp-echo";
  spec.argv = {exe, "serve-adapter", "--echo-input"};
  Report r = run(spec, quick());
  ASSERT_FALSE(r.start_error) << *r.start_error;
  EXPECT_FALSE(r.passed()) << format(r);
  EXPECT_EQ(failed(r), (std::set<std::string>{"invalid-json", "not-utf8"})) << format(r);
  // Named cpp-echo, and it claims no canonical layer (its validate answers would be the reference's).
  EXPECT_NE(by_name(r)["handshake"]->detail.find("cpp-echo"), std::string::npos)
      << by_name(r)["handshake"]->detail;
  EXPECT_NE(by_name(r)["handshake"]->detail.find("layers structural,"), std::string::npos)
      << by_name(r)["handshake"]->detail;
}

}  // namespace
}  // namespace crosscheck::exec::conformance
