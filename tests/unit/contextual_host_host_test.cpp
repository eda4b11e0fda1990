// host_host_test.cpp: the reference host on every row of crosscheck's own scenario file (its expected
// or expectError, and the rule each rejected row breaks), and on hand-checked requests and responses,
// one or more per rule of docs/host.md. Runs on the schema bundle set-up installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/host/host.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "schema/loader.hpp"
#include "util/file.hpp"

namespace crosscheck::host {
namespace {

const canonical::CanonicalValidator* validator() {
  static std::unique_ptr<canonical::CanonicalValidator> loaded = [] {
    std::unique_ptr<canonical::CanonicalValidator> out;
    auto path = schema::default_schema_path();
    if (!path) return out;
    auto ir = schema::load_schema(*path);
    if (!ir.ok()) return out;
    auto v = canonical::CanonicalValidator::from_ir(ir.value());
    if (v.ok()) out = std::make_unique<canonical::CanonicalValidator>(std::move(v.value()));
    return out;
  }();
  return loaded.get();
}

#define REQUIRE_SCHEMA() \
  if (!validator()) GTEST_SKIP() << "no installed schema bundle (./setup install)"

json::Value v(std::string_view text) {
  auto p = json::parse(text);
  EXPECT_TRUE(p.ok()) << text;
  return p.ok() ? std::move(p.value()) : json::Value();
}

const char* kAllCaps = R"({"effects":["deny","allow","ask","modify","return","message","flow","inject"],)"
                       R"("modify":{"input":{"replace":true,"merge":true}},"flow":{"operations":["stop"]},)"
                       R"("inject":{"context":{"append":true,"deliverAt":["now","next_turn"]}}})";

std::string tool_request(const std::string& caps = kAllCaps, const std::string& state = "",
                         const std::string& input = R"({"task":1})") {
  return R"({"jsonrpc":"2.0","id":"r","method":"hooks/intercept","params":{"protocolVersion":"draft",)"
         R"("event":{"id":"r","source":"urn:crosscheck:scenario","type":"tool.before",)"
         R"("time":"2026-12-01T00:00:00Z","harness":{"name":"crosscheck","version":"0.1.0"},)"
         R"("call":{"id":"call-r"},"path":"native","tool":{"name":"task","input":)" +
         input + R"(,"origin":"native"}},"capabilities":)" + caps +
         (state.empty() ? "" : R"(,"state":)" + state) + "}}";
}

std::string finish_request(const std::string& flow = R"({"operations":["stop","continue"],)"
                                                     R"("remainingContinuations":2,"continuationCount":0})") {
  return R"({"jsonrpc":"2.0","id":"r","method":"hooks/intercept","params":{"protocolVersion":"draft",)"
         R"("event":{"id":"r","source":"urn:crosscheck:scenario","type":"turn.finish.before",)"
         R"("time":"2026-12-01T00:00:00Z","harness":{"name":"crosscheck","version":"0.1.0"},)"
         R"("turn":{"id":"turn-r"},"outcome":"completed","continuationCount":0,"items":[]},)"
         R"("capabilities":{"effects":["flow","message"],"flow":)" +
         flow + "}}}";
}

std::string response(const std::string& effects) {
  return R"({"jsonrpc":"2.0","id":"r","result":{"protocolVersion":"draft","effects":)" + effects + "}}";
}

Applied run(const std::string& request, const std::string& resp) {
  return apply(*validator(), v(request), v(resp));
}

void expect_rejected(const Applied& a, const char* rule) {
  EXPECT_FALSE(a.accepted) << json::write(a.result);
  EXPECT_EQ(a.rule, rule) << a.message;
  EXPECT_TRUE(json::semantically_equal(a.result, v(R"({"rejected":true})")));
}

void expect_result(const Applied& a, const std::string& expected) {
  EXPECT_TRUE(a.accepted) << a.rule << ": " << a.message;
  EXPECT_TRUE(a.host_accepted) << a.rule << ": " << a.message;
  EXPECT_TRUE(json::semantically_equal(a.result, v(expected)))
      << "got " << json::write(a.result) << "\nwant " << expected;
}

TEST(Host, EveryRowOfTheCompositionFile) {
  REQUIRE_SCHEMA();
  auto file = scenario::read_scenario_file(std::string(CROSSCHECK_TEST_DATA) + "/scenarios/composition.json");
  ASSERT_TRUE(file.ok()) << file.error().text();
  // The rule each rejected row breaks, checked by hand against the row's comment.
  const std::map<std::string, std::string> rules = {{"unknown-effect-after-valid", kUnknownEffectType},
                                                    {"unadvertised-effect", kEffectNotAdvertised},
                                                    {"unadvertised-target", kModifyTarget},
                                                    {"unadvertised-operation", kModifyOperation},
                                                    {"wrong-response-id", kIdCorrelation},
                                                    {"wrong-protocol-version", kProtocolVersion},
                                                    {"null-effects", kEffectsList},
                                                    {"finish-continue-exhausted", kContinuationAllowance},
                                                    {"inject-unadvertised-delivery", kInjectDelivery}};
  std::size_t rejected = 0;
  for (const auto& row : file->rows) {
    SCOPED_TRACE(row.id);
    Applied a = apply(*validator(), row.request(), row.response());
    if (row.expect_error()) {
      ++rejected;
      ASSERT_TRUE(rules.count(row.id)) << "a rejected row without a hand-checked rule";
      expect_rejected(a, rules.at(row.id).c_str());
      continue;
    }
    ASSERT_TRUE(a.accepted && a.host_accepted) << a.rule << ": " << a.message;
    for (const auto& m : row.expected()->members()) {
      const json::Value* got = a.result.find(m.key);
      ASSERT_TRUE(got) << "missing " << m.key;
      EXPECT_TRUE(json::semantically_equal(*got, m.value)) << m.key << ": " << json::write(*got);
    }
    // The verifier contract: nothing unasserted among the keys that must not leak.
    for (const char* key :
         {"result", "flow", "injections", "continuationInstructions", "continuationRemaining", "rejected"})
      EXPECT_TRUE(!a.result.contains(key) || row.expected()->contains(key)) << "unasserted " << key;
  }
  EXPECT_EQ(rejected, rules.size());
  EXPECT_EQ(file->rows.size(), 32u);
}

// tests/data/scenarios/state.json (generate.py): a stop or continue accepted earlier in the occurrence,
// with its instructions and injections; every asserted key exact, nothing unasserted, nothing open.
TEST(Host, EveryRowOfTheStateFile) {
  REQUIRE_SCHEMA();
  auto file = scenario::read_scenario_file(std::string(CROSSCHECK_TEST_DATA) + "/scenarios/state.json");
  ASSERT_TRUE(file.ok()) << file.error().text();
  for (const auto& row : file->rows) {
    SCOPED_TRACE(row.id);
    Applied a = apply(*validator(), row.request(), row.response());
    ASSERT_TRUE(a.accepted && a.host_accepted) << a.rule << ": " << a.message;
    for (const auto& m : row.expected()->members()) {
      const json::Value* got = a.result.find(m.key);
      ASSERT_TRUE(got) << "missing " << m.key;
      EXPECT_TRUE(json::semantically_equal(*got, m.value)) << m.key << ": " << json::write(*got);
    }
    for (const auto& m : a.result.members())
      EXPECT_TRUE(row.expected()->contains(m.key)) << "unasserted " << m.key;
    EXPECT_TRUE(open_keys(row.request(), row.response()).empty());
  }
  EXPECT_EQ(file->rows.size(), 10u);
}

TEST(Host, AnEarlierStopStaysAndAnEarlierContinueYieldsToStop) {
  REQUIRE_SCHEMA();
  const std::string flow =
      R"({"operations":["stop","continue"],"remainingContinuations":2,"continuationCount":0})";
  auto with_state = [&](const std::string& state) {
    std::string r = finish_request(flow);
    return r.substr(0, r.size() - 2) + R"(,"state":)" + state + "}}";
  };
  // An earlier stop, then a continue: stop; the instruction kept after the earlier ones; nothing spent.
  expect_result(
      run(with_state(R"({"permission":"none","candidate":null,"flow":"stop","instructions":["a"]})"),
          response(R"([{"type":"flow","operation":"continue","instruction":"b"}])")),
      R"({"decision":"allow","executed":false,"messages":[],"flow":"stop",)"
      R"("continuationInstructions":["a","b"],"continuationRemaining":2})");
  // state.flow none is no earlier flow: nothing resolves, nothing is reported.
  expect_result(run(with_state(R"({"permission":"none","candidate":null,"flow":"none"})"), response("[]")),
                R"({"decision":"allow","executed":false,"messages":[]})");
  // At tool.before an earlier stop keeps the tool from running and an incoming candidate from applying.
  expect_result(run(tool_request(kAllCaps, R"({"permission":"allow","candidate":{"value":7},"flow":"stop"})"),
                    response("[]")),
                R"({"decision":"allow","executed":false,"input":{"task":1},"messages":[],"flow":"stop"})");
}

TEST(Host, OpenKeysNameTheChoicesTheContractLeavesOpen) {
  const std::string flow =
      R"({"operations":["stop","continue"],"remainingContinuations":2,"continuationCount":0})";
  auto with_state = [&](const std::string& state) {
    std::string r = finish_request(flow);
    return v(r.substr(0, r.size() - 2) + R"(,"state":)" + state + "}}");
  };
  auto keys = [](const std::vector<OpenKey>& open) {
    std::vector<std::string> out;
    for (const auto& o : open) out.push_back(o.key + ":" + o.choice);
    return out;
  };
  const json::Value neutral = v(response("[]"));
  const json::Value again = v(response(R"([{"type":"flow","operation":"continue","instruction":"b"}])"));
  // An earlier continue and no continue here: is the unit spent here?
  EXPECT_EQ(
      keys(open_keys(with_state(R"({"permission":"none","candidate":null,"flow":"continue"})"), neutral)),
      std::vector<std::string>{"continuationRemaining:incoming-continue-allowance"});
  // ... not when this response continues too (one unit), nor when a stop wins.
  EXPECT_TRUE(
      open_keys(with_state(R"({"permission":"none","candidate":null,"flow":"continue"})"), again).empty());
  EXPECT_TRUE(open_keys(with_state(R"({"permission":"none","candidate":null,"flow":"continue"})"),
                        v(response(R"([{"type":"flow","operation":"stop","reason":"r"}])")))
                  .empty());
  // Earlier instructions with no flow resolved: are they reported?
  EXPECT_EQ(
      keys(open_keys(with_state(R"({"permission":"none","candidate":null,"instructions":["a"]})"), neutral)),
      std::vector<std::string>{"continuationInstructions:incoming-instructions-reported"});
  // No state, or state without flow members: nothing is open.
  EXPECT_TRUE(open_keys(v(finish_request(flow)), again).empty());
  EXPECT_TRUE(
      open_keys(v(tool_request(kAllCaps, R"({"permission":"none","candidate":null})")), neutral).empty());
}

TEST(Host, EnvelopeVersionCorrelation) {
  REQUIRE_SCHEMA();
  expect_rejected(run(tool_request(), R"({"jsonrpc":"1.0","id":"r","result":{"protocolVersion":"draft"}})"),
                  kEnvelope);
  expect_rejected(run(tool_request(), R"({"jsonrpc":"2.0","id":"r","error":{"code":-32600,"message":"x"}})"),
                  kEnvelope);
  expect_rejected(run(tool_request(), R"({"jsonrpc":"2.0","id":"r","result":[]})"), kEnvelope);
  expect_rejected(run(tool_request(), R"({"jsonrpc":"2.0","id":"R","result":{"protocolVersion":"draft"}})"),
                  kIdCorrelation);
  expect_rejected(run(tool_request(), R"({"jsonrpc":"2.0","result":{"protocolVersion":"draft"}})"),
                  kIdCorrelation);
  expect_rejected(
      run(tool_request(), R"({"jsonrpc":"2.0","id":"r","result":{"protocolVersion":"2025-01-01"}})"),
      kProtocolVersion);
  expect_rejected(run(tool_request(), response("null")), kEffectsList);
  expect_rejected(run(tool_request(), response("{}")), kEffectsList);
}

TEST(Host, UnknownTypeAndCanonicalResponse) {
  REQUIRE_SCHEMA();
  // One unknown type fails the whole response, wherever it stands, and nothing of it leaks.
  expect_rejected(
      run(tool_request(), response(R"([{"type":"org.example.x"},{"type":"message","text":"a"}])")),
      kUnknownEffectType);
  expect_rejected(run(tool_request(), response(R"([{"type":"allow"},{"text":"no type"}])")),
                  kUnknownEffectType);
  expect_rejected(run(tool_request(), response(R"([{"type":"message","text":5}])")), kResponseCanonical);
  expect_rejected(run(tool_request(), response(R"([{"type":"allow","extra":1}])")), kResponseCanonical);
  // A modify of input whose value is not an object breaks its contract already in the schema.
  expect_rejected(
      run(tool_request(), response(R"([{"type":"modify","target":"input","operation":"merge","value":[]}])")),
      kResponseCanonical);
}

TEST(Host, BoundaryAdvertisedTargetOperation) {
  REQUIRE_SCHEMA();
  expect_rejected(
      run(tool_request(R"({"effects":["allow"]})"), response(R"([{"type":"deny","reason":"x"}])")),
      kEffectNotAdvertised);
  // The request's schema keeps a boundary from advertising what it cannot take; a response may still
  // carry it.
  expect_rejected(run(finish_request(), response(R"([{"type":"deny","reason":"x"}])")), kEffectBoundary);
  expect_rejected(run(finish_request(), response(R"([{"type":"return","value":1}])")), kReturnBoundary);
  expect_rejected(
      run(tool_request(), response(R"([{"type":"modify","target":"workspace","operation":"merge",)"
                                   R"("value":{"cwd":"file:///x"}}])")),
      kModifyTarget);
  expect_rejected(run(tool_request(), response(R"([{"type":"modify","target":"prompt","operation":"merge",)"
                                               R"("value":[{"id":"m","role":"user","parts":[{"id":"m-p",)"
                                               R"("kind":"text","mediaType":"text/plain","selection":"body",)"
                                               R"("text":"x"}]}]}])")),
                  kModifyTarget);
  expect_rejected(
      run(tool_request(R"({"effects":["modify"],"modify":{"input":{"replace":true,"merge":false}}})"),
          response(R"([{"type":"modify","target":"input","operation":"merge","value":{"a":1}}])")),
      kModifyOperation);
  expect_rejected(run(finish_request(R"({"operations":["continue"],"remainingContinuations":1,)"
                                     R"("continuationCount":0})"),
                      response(R"([{"type":"flow","operation":"stop","reason":"x"}])")),
                  kFlowOperation);
}

TEST(Host, ContinuationAndInject) {
  REQUIRE_SCHEMA();
  std::string exhausted =
      R"({"operations":["stop","continue"],"remainingContinuations":0,"continuationCount":0})";
  expect_rejected(run(finish_request(exhausted), response(R"([{"type":"flow","operation":"continue"}])")),
                  kContinuationAllowance);
  // Stop does not salvage an exhausted continuation request.
  expect_rejected(
      run(finish_request(exhausted), response(R"([{"type":"flow","operation":"stop","reason":"x"},)"
                                              R"({"type":"flow","operation":"continue"}])")),
      kContinuationAllowance);
  // Stop alone with no allowance left is fine: nothing is consumed.
  expect_result(
      run(finish_request(exhausted), response(R"([{"type":"flow","operation":"stop","reason":"x"}])")),
      R"({"decision":"allow","executed":false,"messages":[],"flow":"stop",)"
      R"("continuationInstructions":[],"continuationRemaining":0})");
  std::string inject = R"([{"type":"inject","target":"context","operation":"append","deliverAt":"next_turn",)"
                       R"("value":[{"id":"m","role":"user","parts":[{"id":"m-p","kind":"text",)"
                       R"("mediaType":"text/plain","selection":"body","text":"x"}]}]}])";
  expect_rejected(
      run(tool_request(R"({"effects":["inject"],"inject":{"context":{"append":true,"deliverAt":["now"]}}})"),
          response(inject)),
      kInjectDelivery);
  Applied a = run(tool_request(), response(inject));
  ASSERT_TRUE(a.accepted) << a.message;
  ASSERT_TRUE(a.result.find("injections"));
  EXPECT_TRUE(json::semantically_equal(*a.result.find("injections"), v(inject)));
}

TEST(Host, StagingMergeReplaceAndOrder) {
  REQUIRE_SCHEMA();
  // Modifications stage in response order before the return binds, wherever the return sits.
  expect_result(
      run(tool_request(kAllCaps, "", R"({"task":1,"keep":{"x":1}})"),
          response(
              R"([{"type":"return","value":7},)"
              R"({"type":"modify","target":"input","operation":"replace","value":{"task":2,"b":1}},)"
              R"({"type":"modify","target":"input","operation":"merge","value":{"b":null,"n":{"y":2}}}])")),
      R"({"decision":"allow","executed":false,"input":{"task":2,"b":null,"n":{"y":2}},"messages":[],"result":7})");
  // Shallow merge: a nested value replaces the whole nested value; null is a value.
  expect_result(
      run(tool_request(kAllCaps, "", R"({"task":1,"o":{"a":1,"b":2}})"),
          response(
              R"([{"type":"modify","target":"input","operation":"merge","value":{"o":{"b":3},"z":null}}])")),
      R"({"decision":"allow","executed":true,"input":{"task":1,"o":{"b":3},"z":null},"messages":[]})");
}

TEST(Host, CandidateAndChangedInput) {
  REQUIRE_SCHEMA();
  std::string state = R"({"permission":"none","candidate":{"value":"old"}})";
  // A changed input drops the incoming candidate: the tool runs on the new input.
  expect_result(
      run(tool_request(kAllCaps, state),
          response(R"([{"type":"modify","target":"input","operation":"merge","value":{"task":2}}])")),
      R"({"decision":"allow","executed":true,"input":{"task":2},"messages":[]})");
  // A deeply equal input keeps it (key order is irrelevant).
  expect_result(
      run(tool_request(kAllCaps, state, R"({"task":1,"b":2})"),
          response(R"([{"type":"modify","target":"input","operation":"replace","value":{"b":2,"task":1}}])")),
      R"({"decision":"allow","executed":false,"input":{"b":2,"task":1},"messages":[],"result":"old"})");
  // A new return binds to the final input even when it changed.
  expect_result(run(tool_request(kAllCaps, state),
                    response(R"([{"type":"modify","target":"input","operation":"merge","value":{"task":3}},)"
                             R"({"type":"return","value":false}])")),
                R"({"decision":"allow","executed":false,"input":{"task":3},"messages":[],"result":false})");
  // Denial and ask discard a candidate; stop drops it from the result.
  expect_result(run(tool_request(kAllCaps, state), response(R"([{"type":"ask"}])")),
                R"({"decision":"ask","executed":false,"input":{"task":1},"messages":[]})");
  expect_result(
      run(tool_request(kAllCaps, state), response(R"([{"type":"flow","operation":"stop","reason":"x"}])")),
      R"({"decision":"allow","executed":false,"input":{"task":1},"messages":[],"flow":"stop"})");
}

TEST(Host, PermissionPrecedence) {
  REQUIRE_SCHEMA();
  auto decision = [](const std::string& state, const std::string& effects) {
    Applied a = run(tool_request(kAllCaps, state), response(effects));
    EXPECT_TRUE(a.accepted) << a.message;
    const json::Value* d = a.result.find("decision");
    return d && d->is_string() ? d->string_value() : "";
  };
  EXPECT_EQ(decision("", R"([{"type":"deny","reason":"x"},{"type":"ask"},{"type":"allow"}])"), "deny");
  EXPECT_EQ(decision("", R"([{"type":"allow"},{"type":"ask"},{"type":"deny","reason":"x"}])"), "deny");
  EXPECT_EQ(decision("", R"([{"type":"ask"},{"type":"allow"}])"), "ask");
  EXPECT_EQ(decision(R"({"permission":"ask","candidate":null})", R"([{"type":"allow"}])"), "ask");
  EXPECT_EQ(decision(R"({"permission":"deny","candidate":null})", R"([{"type":"allow"}])"), "deny");
  EXPECT_EQ(decision(R"({"permission":"allow","candidate":null})", R"([])"), "allow");
  EXPECT_EQ(decision(R"({"permission":"none","candidate":null})", R"([])"), "allow");
}

TEST(Host, MessagesOnlyAfterAcceptanceAndOmittedEffects) {
  REQUIRE_SCHEMA();
  expect_result(run(tool_request(), response(R"([{"type":"message","text":"b"},{"type":"deny","reason":"r"},)"
                                             R"({"type":"message","text":"a"}])")),
                R"({"decision":"deny","executed":false,"input":{"task":1},"messages":["b","a"]})");
  expect_rejected(
      run(tool_request(), response(R"([{"type":"message","text":"leak"},{"type":"ask"},)"
                                   R"({"type":"modify","target":"input","operation":"merge","value":{}},)"
                                   R"({"type":"nope"}])")),
      kUnknownEffectType);
  expect_result(run(tool_request(), R"({"jsonrpc":"2.0","id":"r","result":{"protocolVersion":"draft"}})"),
                R"({"decision":"allow","executed":true,"input":{"task":1},"messages":[]})");
}

TEST(Host, StopBeatsContinueAndOneUnit) {
  REQUIRE_SCHEMA();
  expect_result(
      run(finish_request(), response(R"([{"type":"flow","operation":"stop","reason":"x"},)"
                                     R"({"type":"flow","operation":"continue","instruction":"a"}])")),
      R"({"decision":"allow","executed":false,"messages":[],"flow":"stop",)"
      R"("continuationInstructions":["a"],"continuationRemaining":2})");
  expect_result(
      run(finish_request(), response(R"([{"type":"flow","operation":"continue","instruction":"a"},)"
                                     R"({"type":"flow","operation":"continue"},)"
                                     R"({"type":"flow","operation":"continue","instruction":"b"}])")),
      R"({"decision":"allow","executed":false,"messages":[],"flow":"continue",)"
      R"("continuationInstructions":["a","b"],"continuationRemaining":1})");
  // Counters have no schema maximum: the allowance is decremented exactly, beyond 2^64.
  expect_result(
      run(finish_request(R"({"operations":["continue"],"remainingContinuations":18446744073709551616,)"
                         R"("continuationCount":0})"),
          response(R"([{"type":"flow","operation":"continue"}])")),
      R"({"decision":"allow","executed":false,"messages":[],"flow":"continue",)"
      R"("continuationInstructions":[],"continuationRemaining":18446744073709551615})");
  // No flow effect: no flow key, and none of the continuation keys.
  expect_result(run(finish_request(), response(R"([{"type":"message","text":"m"}])")),
                R"({"decision":"allow","executed":false,"messages":["m"]})");
}

TEST(Host, HostInputContract) {
  REQUIRE_SCHEMA();
  for (const char* value : {R"({"task":0})", R"({"task":true})", R"({"task":1.5})", R"({"other":1})"}) {
    SCOPED_TRACE(value);
    Applied a =
        run(tool_request(),
            response(std::string(R"([{"type":"modify","target":"input","operation":"replace","value":)") +
                     value + "}]"));
    EXPECT_TRUE(a.accepted);
    EXPECT_FALSE(a.host_accepted);
    EXPECT_EQ(a.rule, kHostInput);
    ASSERT_TRUE(a.result.find("executed"));
    EXPECT_FALSE(a.result.find("executed")->as_bool());
  }
  // 2.0 is an integer: the host accepts it.
  expect_result(
      run(tool_request(),
          response(R"([{"type":"modify","target":"input","operation":"replace","value":{"task":2.0}}])")),
      R"({"decision":"allow","executed":true,"input":{"task":2},"messages":[]})");
}

// A canonical model.request.before request: the event of the matrix case
// intercept_request/model-request-conditional-state, with return and message advertised.
std::string model_request() {
  auto matrix = json::parse([] {
    std::ifstream in(std::string(CROSSCHECK_TEST_DATA) + "/matrix/draft-structural.json");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }());
  EXPECT_TRUE(matrix.ok());
  for (const auto& c : matrix.value().find("cases")->items()) {
    if (c.find("id")->string_value() != "intercept_request/model-request-conditional-state") continue;
    const json::Value& event = *c.find("value")->find("params")->find("event");
    return R"({"jsonrpc":"2.0","id":"ev-200","method":"hooks/intercept","params":{"protocolVersion":"draft",)"
           R"("event":)" +
           json::write(event) + R"(,"capabilities":{"effects":["return","message"]}}})";
  }
  ADD_FAILURE() << "the matrix case is gone";
  return "";
}

TEST(Host, ReturnContractAtAnotherReturnBoundary) {
  REQUIRE_SCHEMA();
  std::string request = model_request();
  auto resp = [](const std::string& effects) {
    return R"({"jsonrpc":"2.0","id":"ev-200","result":{"protocolVersion":"draft","effects":)" + effects +
           "}}";
  };
  // The schema's union lets any return value through (the tool result contract is open); the boundary's
  // return contract is CanonicalMessages.
  expect_rejected(run(request, resp(R"([{"type":"return","value":5}])")), kReturnValue);
  std::string messages = R"([{"id":"m","role":"assistant","parts":[{"id":"m-p","kind":"text",)"
                         R"("mediaType":"text/plain","selection":"body","text":"x"}]}])";
  // Accepted: the result is the returned messages; there is no tool, so nothing executes and no input.
  expect_result(run(request, resp(R"([{"type":"return","value":)" + messages + "}]")),
                R"({"decision":"allow","executed":false,"messages":[],"result":)" + messages + "}");
}

TEST(Host, IncomingCandidateMeetsTheReturnContract) {
  REQUIRE_SCHEMA();
  // A pending candidate is a return bound earlier; the request's schema holds it to the boundary's
  // return contract already, so a candidate that is not a message list at model.request.before makes
  // the request itself unusable.
  std::string request = model_request();
  std::string::size_type caps = request.find(R"(,"capabilities")");
  ASSERT_NE(caps, std::string::npos);
  request.insert(caps, R"(,"state":{"permission":"none","candidate":{"value":"not a message list"}})");
  Applied a =
      run(request, R"({"jsonrpc":"2.0","id":"ev-200","result":{"protocolVersion":"draft","effects":[]}})");
  EXPECT_FALSE(a.accepted);
  EXPECT_EQ(a.rule, kRequestCanonical);
  EXPECT_NE(a.message.find("/params/state/candidate"), std::string::npos) << a.message;
  // At tool.before any value is a tool result: a candidate of null is present and applies.
  expect_result(
      run(tool_request(kAllCaps, R"({"permission":"none","candidate":{"value":null}})"), response("[]")),
      R"({"decision":"allow","executed":false,"input":{"task":1},"messages":[],"result":null})");
}

TEST(Host, RequestMustBeCanonical) {
  REQUIRE_SCHEMA();
  Applied a = run(finish_request(R"({"operations":["continue"]})"), response("[]"));
  EXPECT_FALSE(a.accepted);
  EXPECT_EQ(a.rule, kRequestCanonical);
  EXPECT_NE(a.message.find("/params/capabilities/flow"), std::string::npos) << a.message;
}

// rules() is host_rules.def (the one list of rules): the names unique, the rejecting rules before the
// composition rules, and docs/host.md states every rejecting rule.
TEST(Host, RulesAreStableAndUnique) {
  std::set<std::string> names;
  bool composing = false;
  const std::string doc =
      read_file_bytes(std::filesystem::path(CROSSCHECK_SOURCE_DIR) / "docs" / "host.md").value_or("");
  ASSERT_FALSE(doc.empty());
  for (const Rule& r : rules()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(composing && r.rejects) << r.name << " comes after a composition rule";
    composing = composing || !r.rejects;
    if (r.rejects) {
      EXPECT_NE(doc.find(r.name), std::string::npos) << "docs/host.md does not state " << r.name;
    }
  }
  EXPECT_TRUE(composing) << "no composition rule";
}

}  // namespace
}  // namespace crosscheck::host
