// Tests of the adapter pool against tests/fake_adapters/fake_adapter.py: the right result class for
// the right request, correct answers for the bystanders, restarts counted, start-up failures.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"

namespace crosscheck::exec {

using core::Diag;
using core::Identity;
using core::ImplResult;
using core::kCanonicalLayer;
using core::Outcome;
using core::outcome_name;
using core::Verdict;

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kFakeDir = std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters";
const std::string kFake = kFakeDir + "/fake_adapter.py";

AdapterSpec fake(std::vector<std::string> args = {}) {
  AdapterSpec spec;
  spec.name = "fake";
  spec.argv = {"python3", kFake};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  return spec;
}

PoolOptions quick() {
  PoolOptions o;
  o.deadline = 1500ms;
  o.hello_deadline = 10s;
  return o;
}

std::unique_ptr<AdapterPool> start(const AdapterSpec& spec, const PoolOptions& options = quick()) {
  auto pool = AdapterPool::start(spec, options);
  if (!pool.ok()) {
    ADD_FAILURE() << pool.error().message << "\n" << pool.error().stderr_tail;
    return nullptr;
  }
  return std::move(pool).value();
}

StartError start_error(const AdapterSpec& spec, const PoolOptions& options = quick()) {
  auto pool = AdapterPool::start(spec, options);
  if (pool.ok()) {
    ADD_FAILURE() << "start() succeeded";
    return {};
  }
  return pool.error();
}

// Distinct, valid-looking payloads; those named in `markers` carry that marker.
std::vector<DecodeRequest> batch(std::size_t n, const std::map<std::size_t, std::string>& markers = {}) {
  std::vector<DecodeRequest> requests;
  for (std::size_t i = 0; i < n; ++i) {
    auto m = markers.find(i);
    std::string tag = m == markers.end() ? "ok" : m->second;
    requests.push_back({"intercept_request", "{\"n\":" + std::to_string(i) + ",\"tag\":\"" + tag + "\"}"});
  }
  return requests;
}

// Every request not in `markers` came back accepted with its own bytes.
void expect_bystanders_fine(const std::vector<DecodeRequest>& requests,
                            const std::vector<ImplResult>& results,
                            const std::map<std::size_t, std::string>& markers) {
  ASSERT_EQ(results.size(), requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (markers.count(i)) continue;
    EXPECT_EQ(results[i].outcome, Outcome::kAccepted) << i << ": " << results[i].message.value_or("");
    EXPECT_EQ(results[i].encoded, requests[i].input) << i;
    EXPECT_EQ(results[i].implementation, "fake");
  }
}

bool contains(const std::optional<std::string>& text, const std::string& part) {
  return text && text->find(part) != std::string::npos;
}

TEST(AdapterPool, HandshakeGivesIdentity) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  const Identity& id = pool->identity();
  EXPECT_EQ(id.name, "fake");
  EXPECT_EQ(id.reported_name, "fake");
  EXPECT_EQ(id.language, "python");
  EXPECT_EQ(id.version, "0.0.1");
  EXPECT_FALSE(id.language_version.empty());
  EXPECT_EQ(id.roots, (std::vector<std::string>{"intercept_request", "session_start"}));
  ASSERT_TRUE(id.lock.has_value());
  EXPECT_TRUE(id.lock->contains("generator"));
  EXPECT_FALSE(id.schema_bundle.has_value());
  EXPECT_TRUE(id.reports_warnings);
}

TEST(AdapterPool, RoundTripsABatchInRequestOrderAcrossProcesses) {
  PoolOptions options = quick();
  options.processes = 2;
  options.max_in_flight = 16;
  auto pool = start(fake(), options);
  ASSERT_TRUE(pool);
  auto requests = batch(300);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, {});
  auto stats = pool->stats();
  EXPECT_EQ(stats.requests, 300u);
  EXPECT_EQ(stats.restarts, 0u);
}

TEST(AdapterPool, MegabytePayloadRoundTripsByteForByte) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::mt19937 rng(7);
  std::string big(1 << 20, '\0');
  for (char& c : big) c = static_cast<char>(rng() & 0xff);
  std::vector<DecodeRequest> requests = {{"intercept_request", big}, {"intercept_request", "{}"}};
  auto results = pool->decode(requests);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::kAccepted) << results[0].message.value_or("");
  ASSERT_TRUE(results[0].encoded.has_value());
  EXPECT_EQ(results[0].encoded->size(), big.size());
  EXPECT_TRUE(*results[0].encoded == big);
  EXPECT_EQ(results[1].encoded, "{}");
}

TEST(AdapterPool, PassesRejectionsAndDiagnosticsThrough) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  auto results = pool->decode(batch(3, {{1, "REJECT"}}));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[1].outcome, Outcome::kRejected);
  EXPECT_EQ(results[1].diagnostics, (std::vector<Diag>{{"/x", "invalid_type", "error"}}));
  EXPECT_FALSE(results[1].encoded.has_value());
  EXPECT_EQ(results[0].outcome, Outcome::kAccepted);
}

TEST(AdapterPool, CrashIsChargedToItsRequestAndBystandersAreRetried) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{5, "CRASH"}, {17, "CRASH"}, {30, "CRASH"}};
  auto requests = batch(40, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  for (std::size_t i : {5, 17, 30}) {
    EXPECT_EQ(results[i].outcome, Outcome::kCrash) << i;
    EXPECT_TRUE(contains(results[i].message, "exited with status 1")) << results[i].message.value_or("");
    EXPECT_NE(results[i].stderr_tail.find("fake: crashing on request"), std::string::npos)
        << results[i].stderr_tail;
  }
  auto stats = pool->stats();
  EXPECT_EQ(stats.restarts, 3u);
  EXPECT_EQ(stats.crashes, 3u);
  // The pool is still usable.
  auto again = batch(5);
  expect_bystanders_fine(again, pool->decode(again), {});
}

TEST(AdapterPool, DeathBySignalIsNamed) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  auto results = pool->decode(batch(3, {{1, "SEGV"}}));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[1].outcome, Outcome::kCrash);
  EXPECT_TRUE(contains(results[1].message, "killed by signal 11 (SIGSEGV)"))
      << results[1].message.value_or("");
  EXPECT_EQ(results[2].outcome, Outcome::kAccepted);
}

TEST(AdapterPool, HangTimesOutIsKilledAndRestarted) {
  PoolOptions options = quick();
  options.deadline = 1s;
  auto pool = start(fake(), options);
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{3, "HANG"}};
  auto requests = batch(10, markers);
  auto began = Clock::now();
  auto results = pool->decode(requests);
  auto took = Clock::now() - began;
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[3].outcome, Outcome::kTimeout);
  EXPECT_TRUE(contains(results[3].message, "no answer within 1 s")) << results[3].message.value_or("");
  EXPECT_NE(results[3].stderr_tail.find("hanging on request"), std::string::npos);
  EXPECT_GE(results[3].millis, 900);
  EXPECT_LT(took, 5s);
  EXPECT_EQ(pool->stats().restarts, 1u);
  EXPECT_EQ(pool->stats().timeouts, 1u);
}

TEST(AdapterPool, SlowButHealthyPipelineIsNotTimedOut) {
  // Six requests of 300 ms each behind one another: the last waits 1.8 s in all, longer than the
  // deadline, yet the adapter answers every 300 ms, so nothing is hung.
  PoolOptions options = quick();
  options.deadline = 1s;
  auto pool = start(fake(), options);
  ASSERT_TRUE(pool);
  std::vector<DecodeRequest> requests;
  for (int i = 0; i < 6; ++i) requests.push_back({"intercept_request", "SLOW300 " + std::to_string(i)});
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, {});
  EXPECT_EQ(pool->stats().restarts, 0u);
}

TEST(AdapterPool, GarbageLineIsAProtocolErrorForTheRequestBeingAnswered) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{2, "GARBAGE"}};
  auto requests = batch(8, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[2].outcome, Outcome::kProtocol);
  EXPECT_TRUE(contains(results[2].message, "this is not json")) << results[2].message.value_or("");
  EXPECT_EQ(pool->stats().restarts, 1u);
  EXPECT_EQ(pool->stats().protocol_errors, 1u);
}

TEST(AdapterPool, HalfALineThenExitIsACrash) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{1, "HALFLINE"}};
  auto requests = batch(4, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[1].outcome, Outcome::kCrash);
  EXPECT_TRUE(contains(results[1].message, "exited with status 0")) << results[1].message.value_or("");
  EXPECT_TRUE(contains(results[1].message, "unterminated last line")) << results[1].message.value_or("");
}

TEST(AdapterPool, WrongIdIsAProtocolError) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{2, "WRONGID"}};
  auto requests = batch(6, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[2].outcome, Outcome::kProtocol);
  EXPECT_TRUE(contains(results[2].message, "unknown id")) << results[2].message.value_or("");
}

TEST(AdapterPool, AnsweringTwiceIsAProtocolErrorForThatRequest) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{2, "TWICE"}};
  auto requests = batch(6, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[2].outcome, Outcome::kProtocol);
  EXPECT_TRUE(contains(results[2].message, "twice")) << results[2].message.value_or("");
  EXPECT_EQ(pool->stats().restarts, 1u);
}

TEST(AdapterPool, MalformedAnswersAreProtocolErrors) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{1, "NOOUTCOME"}, {3, "BADOUTCOME"}, {5, "BADBASE64"}};
  auto requests = batch(7, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  for (std::size_t i : {1, 3, 5}) EXPECT_EQ(results[i].outcome, Outcome::kProtocol) << i;
  EXPECT_TRUE(contains(results[1].message, "lacks \"outcome\"")) << results[1].message.value_or("");
  EXPECT_TRUE(contains(results[3].message, "unknown outcome \"maybe\"")) << results[3].message.value_or("");
  EXPECT_TRUE(contains(results[5].message, "not valid base64")) << results[5].message.value_or("");
  EXPECT_EQ(pool->stats().restarts, 3u);
}

TEST(AdapterPool, OverlongLineIsAProtocolErrorWithoutUnboundedMemory) {
  PoolOptions options = quick();
  options.max_line_bytes = 64 * 1024;
  auto pool = start(fake({"--long-line-bytes", "2000000"}), options);
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{0, "LONGLINE"}};
  auto requests = batch(4, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  EXPECT_EQ(results[0].outcome, Outcome::kProtocol);
  EXPECT_TRUE(contains(results[0].message, "longer than 65536 bytes")) << results[0].message.value_or("");
}

TEST(AdapterPool, StderrFloodNeitherBlocksNorGrowsTheTail) {
  PoolOptions options = quick();
  options.stderr_tail_bytes = 4096;
  auto pool = start(fake({"--flood-bytes", std::to_string(20 << 20)}), options);
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> markers = {{1, "FLOOD"}};
  auto requests = batch(5, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, {});
  EXPECT_EQ(pool->stats().restarts, 0u);
  // The same process crashes next: its tail is the last 4 KiB, ending with its dying words.
  auto crash = pool->decode(batch(1, {{0, "CRASH"}}));
  ASSERT_EQ(crash[0].outcome, Outcome::kCrash);
  EXPECT_EQ(crash[0].stderr_tail.size(), 4096u);
  EXPECT_NE(crash[0].stderr_tail.find("fake: flood done\nfake: crashing on request"), std::string::npos);
}

TEST(AdapterPool, OutOfOrderAnswersAreMatchedById) {
  auto pool = start(fake({"--concurrent"}));
  ASSERT_TRUE(pool);
  std::vector<DecodeRequest> requests = {{"intercept_request", "SLOW600 first"},
                                         {"intercept_request", "second"},
                                         {"intercept_request", "SLOW300 third"},
                                         {"intercept_request", "fourth"}};
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, {});
  EXPECT_GT(results[0].millis, results[2].millis);
  EXPECT_GT(results[2].millis, results[1].millis);
}

TEST(AdapterPool, RandomMixOfMisbehaviourIsAttributedExactly) {
  // Two sequential fakes, a small pipeline, and one request in eight misbehaving: every failure
  // lands on the request that caused it, and every other request gets its own bytes back.
  const std::map<std::string, Outcome> kinds = {
      {"CRASH", Outcome::kCrash},        {"SEGV", Outcome::kCrash},       {"HALFLINE", Outcome::kCrash},
      {"GARBAGE", Outcome::kProtocol},   {"WRONGID", Outcome::kProtocol}, {"TWICE", Outcome::kProtocol},
      {"NOOUTCOME", Outcome::kProtocol}, {"HANG", Outcome::kTimeout}};
  std::vector<std::string> names;
  for (const auto& [name, outcome] : kinds) names.push_back(name);
  PoolOptions options = quick();
  options.processes = 2;
  options.max_in_flight = 8;
  options.deadline = 1s;
  auto pool = start(fake(), options);
  ASSERT_TRUE(pool);
  std::mt19937 rng(2024);
  std::map<std::size_t, std::string> markers;
  for (std::size_t i = 0; i < 160; ++i) {
    if (rng() % 8 == 0) markers[i] = names[rng() % names.size()];
  }
  // At most one hang, to keep the test short.
  bool hang = false;
  for (auto it = markers.begin(); it != markers.end();) {
    if (it->second == "HANG" && hang) {
      it = markers.erase(it);
      continue;
    }
    hang = hang || it->second == "HANG";
    ++it;
  }
  auto requests = batch(160, markers);
  auto results = pool->decode(requests);
  expect_bystanders_fine(requests, results, markers);
  for (const auto& [i, marker] : markers) {
    EXPECT_EQ(results[i].outcome, kinds.at(marker))
        << i << " " << marker << ": " << outcome_name(results[i].outcome) << " "
        << results[i].message.value_or("");
  }
  EXPECT_EQ(pool->stats().restarts, markers.size());
}

TEST(AdapterPool, DeathBetweenBatchesRestartsWithoutBlame) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  auto first = pool->decode(batch(1, {{0, "EXITLATER"}}));
  EXPECT_EQ(first[0].outcome, Outcome::kAccepted);
  std::this_thread::sleep_for(400ms);
  auto requests = batch(3);
  expect_bystanders_fine(requests, pool->decode(requests), {});
  EXPECT_EQ(pool->stats().restarts, 1u);
  EXPECT_EQ(pool->stats().crashes, 0u);
}

TEST(AdapterPool, FailedRestartLeavesThePoolDownUntilTheCauseIsGone) {
  std::string state = testing::TempDir() + "crosscheck_pool_state_" + std::to_string(::getpid());
  std::remove(state.c_str());
  auto pool = start(fake({"--mode", "down-on-restart", "--state", state}));
  ASSERT_TRUE(pool);
  auto results = pool->decode(batch(4, {{1, "CRASH"}}));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, Outcome::kAccepted);
  EXPECT_EQ(results[1].outcome, Outcome::kCrash);
  EXPECT_TRUE(contains(results[1].message, "exited with status 1"));
  for (std::size_t i : {2, 3}) {
    EXPECT_EQ(results[i].outcome, Outcome::kCrash) << i;
    EXPECT_TRUE(contains(results[i].message, "is down: could not restart it: exited during the handshake"))
        << results[i].message.value_or("");
    EXPECT_NE(results[i].stderr_tail.find("refusing to start"), std::string::npos);
  }
  EXPECT_EQ(pool->stats().down, 1u);
  auto still = pool->decode(batch(1));
  EXPECT_EQ(still[0].outcome, Outcome::kCrash);
  std::remove(state.c_str());
  auto back = batch(2);
  expect_bystanders_fine(back, pool->decode(back), {});
  EXPECT_EQ(pool->stats().down, 0u);
  std::remove(state.c_str());
}

TEST(AdapterPool, BenchReportsNanosOrNothing) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  EXPECT_EQ(pool->bench({"intercept_request", "{}"}, 50), std::optional<std::uint64_t>(50000));
  auto without = start(fake({"--no-bench"}));
  ASSERT_TRUE(without);
  EXPECT_EQ(without->bench({"intercept_request", "{}"}, 50), std::nullopt);
  // Many at once: one answer each, in order (the fake reports iterations * 1000 whatever the payload).
  std::vector<DecodeRequest> many;
  for (int i = 0; i < 200; ++i) many.push_back({"intercept_request", "{\"n\":" + std::to_string(i) + "}"});
  auto each = pool->bench_each(many, 3);
  ASSERT_EQ(each.size(), many.size());
  for (const auto& nanos : each) EXPECT_EQ(nanos, std::optional<std::uint64_t>(3000));
  auto none = without->bench_each(many, 3);
  ASSERT_EQ(none.size(), many.size());
  for (const auto& nanos : none) EXPECT_EQ(nanos, std::nullopt);
  EXPECT_TRUE(pool->bench_each({}, 3).empty());
  auto requests = batch(2);
  expect_bystanders_fine(requests, without->decode(requests), {});
  EXPECT_EQ(without->stats().restarts, 0u);
}

TEST(AdapterPool, StopAnswersPendingRequestsAsInterrupted) {
  PoolOptions options = quick();
  options.deadline = 30s;
  auto pool = start(fake(), options);
  ASSERT_TRUE(pool);

  request_stop();
  auto before = pool->decode(batch(2));
  reset_stop();
  for (const auto& r : before) {
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_EQ(r.message, "interrupted");
    EXPECT_TRUE(r.abandoned);  // ImplementationSet does not compare it
  }

  std::thread stopper([] {
    std::this_thread::sleep_for(300ms);
    request_stop();
  });
  auto began = Clock::now();
  auto results = pool->decode(batch(3, {{0, "HANG"}}));
  auto took = Clock::now() - began;
  stopper.join();
  reset_stop();
  EXPECT_LT(took, 3s);
  for (const auto& r : results) {
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_EQ(r.message, "interrupted");
    EXPECT_TRUE(r.abandoned);
  }
  // The hung process was ended; the next call gets a fresh one.
  auto after = batch(2);
  auto answered = pool->decode(after);
  expect_bystanders_fine(after, answered, {});
  for (const auto& r : answered) EXPECT_FALSE(r.abandoned);
}

TEST(AdapterPool, ShutdownIsIdempotentAndFinal) {
  auto pool = start(fake());
  ASSERT_TRUE(pool);
  pool->shutdown();
  pool->shutdown();
  auto results = pool->decode(batch(1));
  EXPECT_EQ(results[0].outcome, Outcome::kError);
  EXPECT_TRUE(contains(results[0].message, "shut down"));
  EXPECT_TRUE(results[0].abandoned);
}

TEST(AdapterPoolStart, NonexistentCommandNamesIt) {
  AdapterSpec spec;
  spec.name = "ghost";
  spec.argv = {"crosscheck-no-such-adapter-xyz", "--flag"};
  StartError error = start_error(spec);
  EXPECT_EQ(error.adapter, "ghost");
  EXPECT_NE(error.message.find("ghost"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("command not found: crosscheck-no-such-adapter-xyz"), std::string::npos)
      << error.message;

  spec.argv = {"/nonexistent/dir/adapter"};
  error = start_error(spec);
  EXPECT_NE(error.message.find("cannot execute /nonexistent/dir/adapter"), std::string::npos)
      << error.message;
}

TEST(AdapterPoolStart, MissingWorkingDirectory) {
  AdapterSpec spec = fake();
  spec.cwd = "/nonexistent/crosscheck-dir";
  StartError error = start_error(spec);
  EXPECT_NE(error.message.find("working directory not found: /nonexistent/crosscheck-dir"), std::string::npos)
      << error.message;
}

TEST(AdapterPoolStart, CwdAndEnvReachTheChild) {
  AdapterSpec spec;
  spec.name = "fake";
  spec.cwd = kFakeDir;  // the script is named relative to it
  spec.argv = {"sh", "-c", "test \"$FAKE_TOKEN\" = yes && exec python3 fake_adapter.py"};
  spec.env = {{"FAKE_TOKEN", "yes"}};
  auto pool = start(spec);
  ASSERT_TRUE(pool);
  auto requests = batch(2);
  expect_bystanders_fine(requests, pool->decode(requests), {});

  spec.env = {{"FAKE_TOKEN", "no"}};
  StartError error = start_error(spec);
  EXPECT_NE(error.message.find("exited during the handshake (exited with status 1)"), std::string::npos)
      << error.message;
}

TEST(AdapterPoolStart, ExitDuringHello) {
  StartError error = start_error(fake({"--mode", "exit-in-hello"}));
  EXPECT_EQ(error.adapter, "fake");
  EXPECT_NE(error.message.find("adapter 'fake': exited during the handshake (exited with status 3)"),
            std::string::npos)
      << error.message;
  EXPECT_NE(error.stderr_tail.find("fake: refusing to start"), std::string::npos) << error.stderr_tail;
}

TEST(AdapterPoolStart, OtherProtocolVersion) {
  StartError error = start_error(fake({"--mode", "protocol2"}));
  EXPECT_NE(error.message.find("protocol 2 (expected 1)"), std::string::npos) << error.message;
}

TEST(AdapterPoolStart, NoHelloWithinTheDeadline) {
  PoolOptions options = quick();
  options.hello_deadline = 1s;
  auto began = Clock::now();
  StartError error = start_error(fake({"--mode", "no-hello"}), options);
  EXPECT_LT(Clock::now() - began, 4s);
  EXPECT_NE(error.message.find("no hello within 1 s"), std::string::npos) << error.message;
}

TEST(AdapterPoolStart, GarbageHello) {
  StartError error = start_error(fake({"--mode", "garbage-hello"}));
  EXPECT_NE(error.message.find("garbage hello"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("Welcome to fake adapter!"), std::string::npos) << error.message;
}

TEST(AdapterPoolStart, RefusedHello) {
  StartError error = start_error(fake({"--mode", "hello-refused"}));
  EXPECT_NE(error.message.find("hello refused: unsupported protocol 1"), std::string::npos) << error.message;
}

TEST(AdapterPoolStart, UnsolicitedLineAfterHello) {
  StartError error = start_error(fake({"--mode", "chatty"}));
  EXPECT_NE(error.message.find("after its hello"), std::string::npos) << error.message;
}

TEST(AdapterPoolStart, OneFailingProcessFailsTheStart) {
  PoolOptions options = quick();
  options.processes = 3;
  StartError error = start_error(fake({"--mode", "protocol2"}), options);
  EXPECT_NE(error.message.find("protocol 2"), std::string::npos) << error.message;
}

// Layer 2: validate requests pipelined like decodes, each verdict in request order; a crash is
// charged to its request; an adapter without the canonical layer is not asked.
TEST(AdapterPool, ValidateVerdicts) {
  auto pool = start(fake({"--canonical"}));
  ASSERT_TRUE(pool);
  EXPECT_TRUE(pool->identity().has_layer(kCanonicalLayer));
  std::vector<ValidateRequest> requests = {{"fake-valid", "{}"},
                                           {"fake-invalid", "{}"},
                                           {"fake-valid", "{\"a\":"},
                                           {"other", "{}"},
                                           {"fake-valid", "CRASH"}};
  auto results = pool->validate(requests);
  ASSERT_EQ(results.size(), requests.size());
  EXPECT_EQ(results[0].verdict, Verdict::kValid);
  EXPECT_EQ(results[1].verdict, Verdict::kInvalid);
  EXPECT_EQ(results[1].error_paths, (std::vector<std::string>{"/x"}));
  EXPECT_EQ(results[1].message, "x is wrong");
  EXPECT_EQ(results[2].verdict, Verdict::kInvalid);
  EXPECT_EQ(results[2].error_paths, (std::vector<std::string>{""}));
  EXPECT_EQ(results[3].verdict, Verdict::kUnsupported);
  EXPECT_EQ(results[4].verdict, Verdict::kCrash);
  for (const auto& r : results) EXPECT_EQ(r.implementation, "fake");
  // The pool restarted the crashed process and goes on.
  auto again = pool->validate({{"fake-valid", "[]"}});
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].verdict, Verdict::kValid);

  auto structural = start(fake());
  ASSERT_TRUE(structural);
  EXPECT_FALSE(structural->identity().has_layer(kCanonicalLayer));
  auto skipped = structural->validate({{"fake-valid", "{}"}});
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].verdict, Verdict::kUnsupported);
  EXPECT_NE(skipped[0].message->find("does not list the canonical layer"), std::string::npos);
}

}  // namespace
}  // namespace crosscheck::exec
