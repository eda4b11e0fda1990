// Fault injection on the harness (docs/robustness.md): the adapter pool and the
// implementation set against tests/fake_adapters/misbehaving_adapter.py, one behaviour at a time.
// Each case checks the result class of the request that caused the fault, that every other request
// got its own answer, and that time and memory stay bounded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/implementation_set.hpp"
#include "gen_test_support.hpp"

namespace crosscheck::exec {

using core::DivergenceClass;
using core::ImplResult;
using core::Outcome;

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kAdapter =
    std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/misbehaving_adapter.py";

AdapterSpec misbehaving(const std::string& behaviour, std::vector<std::string> args = {}) {
  AdapterSpec spec;
  spec.name = "bad";
  spec.argv = {"python3", kAdapter, "--behaviour", behaviour};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  return spec;
}

PoolOptions quick(std::chrono::milliseconds deadline = 1000ms) {
  PoolOptions o;
  o.deadline = deadline;
  o.hello_deadline = 10s;
  return o;
}

std::unique_ptr<AdapterPool> start(const AdapterSpec& spec, const PoolOptions& options) {
  auto pool = AdapterPool::start(spec, options);
  if (!pool.ok()) {
    ADD_FAILURE() << pool.error().message << "\n" << pool.error().stderr_tail;
    return nullptr;
  }
  return std::move(pool).value();
}

StartError start_error(const AdapterSpec& spec) {
  auto pool = AdapterPool::start(spec, quick());
  if (pool.ok()) {
    ADD_FAILURE() << "start() succeeded";
    return {};
  }
  return pool.error();
}

// n distinct payloads; those at `faulty` carry the adapter's trigger marker.
std::vector<DecodeRequest> batch(std::size_t n, const std::set<std::size_t>& faulty = {}) {
  std::vector<DecodeRequest> requests;
  for (std::size_t i = 0; i < n; ++i) {
    std::string tag = faulty.count(i) ? "FAULT" : "fine";
    requests.push_back({"intercept_request", "{\"n\":" + std::to_string(i) + ",\"tag\":\"" + tag + "\"}"});
  }
  return requests;
}

// Every request not in `faulty` came back accepted with its own bytes (no answer went astray).
void expect_others_fine(const std::vector<DecodeRequest>& requests, const std::vector<ImplResult>& results,
                        const std::set<std::size_t>& faulty) {
  ASSERT_EQ(results.size(), requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (faulty.count(i)) continue;
    EXPECT_EQ(results[i].outcome, Outcome::kAccepted) << i << ": " << results[i].message.value_or("");
    EXPECT_EQ(results[i].encoded, requests[i].input) << i;
  }
}

std::string message(const ImplResult& r) { return r.message.value_or(""); }
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "crosscheck_fi_" + name + "_" + std::to_string(::getpid());
}

// Memory high-water mark, KiB. reset_peak() starts a new one (Linux: writing 5 to clear_refs sets
// VmHWM to the current RSS), so an earlier test's peak cannot hide this one's.
long status_kib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  }
  return -1;
}
long reset_peak() {
  std::ofstream("/proc/self/clear_refs") << "5";
  return status_kib("VmRSS");
}
long peak_growth_kib(long rss_at_reset) { return status_kib("VmHWM") - rss_at_reset; }

// How often each input (base64) was received, from the adapter's --log.
std::map<std::string, int> received(const std::string& log) {
  std::map<std::string, int> count;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) ++count[line];
  return count;
}

TEST(FaultInjection, CrashInTheMiddleOfABatchSendsNothingMoreThanTwice) {
  // The adapter dies on the 6th request each process receives, whatever it is: with 20 requests
  // pipelined, requests 5, 11 and 17 are the ones being worked on when a process dies.
  std::string log = temp_path("crash_log");
  std::remove(log.c_str());
  auto pool = start(misbehaving("crash", {"--after", "5", "--log", log}), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(20);
  auto results = pool->decode(requests);
  std::set<std::size_t> crashed = {5, 11, 17};
  expect_others_fine(requests, results, crashed);
  for (std::size_t i : crashed) {
    EXPECT_EQ(results[i].outcome, Outcome::kCrash) << i << ": " << message(results[i]);
    EXPECT_TRUE(has(message(results[i]), "exited with status 1")) << message(results[i]);
    EXPECT_TRUE(has(results[i].stderr_tail, "misbehaving: crashing on request")) << results[i].stderr_tail;
  }
  EXPECT_EQ(pool->stats().restarts, 3u);
  auto sent = received(log);
  EXPECT_EQ(sent.size(), requests.size());
  for (const auto& [input, n] : sent) EXPECT_LE(n, 2) << input;
  std::remove(log.c_str());
}

TEST(FaultInjection, HangOnOneRequestTimesOutAlone) {
  auto pool = start(misbehaving("hang"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(8, {3});
  auto began = Clock::now();
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {3});
  EXPECT_EQ(results[3].outcome, Outcome::kTimeout) << message(results[3]);
  EXPECT_TRUE(has(results[3].stderr_tail, "hanging on request")) << results[3].stderr_tail;
  EXPECT_LT(seconds_since(began), 6);
  EXPECT_EQ(pool->stats().timeouts, 1u);
}

TEST(FaultInjection, StallLongerThanTheDeadlineIsATimeoutAndTheLateAnswerIsNobodys) {
  auto pool = start(misbehaving("stall", {"--stall-ms", "3000"}), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(6, {1});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {1});
  EXPECT_EQ(results[1].outcome, Outcome::kTimeout) << message(results[1]);
  EXPECT_TRUE(has(message(results[1]), "no answer within 1 s")) << message(results[1]);
}

TEST(FaultInjection, AnAdapterThatReadsOnButNeverAnswersAgainTimesOutOnce) {
  auto pool = start(misbehaving("hang-forever"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(8, {2});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {2});
  EXPECT_EQ(results[2].outcome, Outcome::kTimeout) << message(results[2]);
  EXPECT_EQ(pool->stats().restarts, 1u);
}

TEST(FaultInjection, AnAdapterThatHangsOnEverythingIsGivenUpOnAfterThreeDeadlines) {
  auto pool = start(misbehaving("hang", {"--always"}), quick(500ms));
  ASSERT_TRUE(pool);
  auto began = Clock::now();
  auto results = pool->decode(batch(12));
  double took = seconds_since(began);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].outcome, Outcome::kTimeout) << i << ": " << message(results[i]);
  }
  // Three timeouts, not twelve: the rest are answered "down" with the reason.
  EXPECT_EQ(pool->stats().timeouts, 12u);
  EXPECT_TRUE(has(message(results.back()), "is down: it failed 3 times in a row without a good answer"))
      << message(results.back());
  EXPECT_LT(took, 4.5);
  EXPECT_EQ(pool->stats().down, 1u);
  // The next call tries again, on probation: one deadline, not three.
  began = Clock::now();
  results = pool->decode(batch(4));
  EXPECT_LT(seconds_since(began), 2.5);
  for (const auto& r : results) EXPECT_EQ(r.outcome, Outcome::kTimeout) << message(r);
}

TEST(FaultInjection, TheCanaryTellsABrokenAdapterFromConsecutiveBadInputs) {
  std::string flag = temp_path("flag");
  std::remove(flag.c_str());
  auto pool = start(misbehaving("hang", {"--when-file", flag}), quick(500ms));
  ASSERT_TRUE(pool);
  auto good = batch(3);
  expect_others_fine(good, pool->decode(good), {});  // a payload answered well: the canary

  // Four hanging inputs in a row are four timeouts; the canary proves the adapter sound, so the
  // rest of the batch is answered normally.
  std::ofstream(flag).put('x');
  auto requests = batch(10, {2, 3, 4, 5});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {2, 3, 4, 5});
  for (std::size_t i : {2, 3, 4, 5}) EXPECT_EQ(results[i].outcome, Outcome::kTimeout) << i;
  EXPECT_EQ(pool->stats().down, 0u);

  // Hanging on everything (the trigger is now every input): three timeouts, then the canary
  // hangs too, and the process is down for the rest of the call.
  std::remove(flag.c_str());
  pool = start(misbehaving("hang", {"--when-file", flag, "--always"}), quick(500ms));
  ASSERT_TRUE(pool);
  expect_others_fine(good, pool->decode(good), {});
  std::ofstream(flag).put('x');
  // Counted, not timed: each deadline waited kills and restarts the process once, so three
  // timeouts and the canary's are three restarts (the third puts it on probation for the canary,
  // whose timeout takes it down). Without the canary every one of the ten inputs would be waited.
  const auto restarts_before = pool->stats().restarts;
  results = pool->decode(batch(10));
  EXPECT_EQ(pool->stats().restarts - restarts_before, 3u);
  for (const auto& r : results) EXPECT_EQ(r.outcome, Outcome::kTimeout) << message(r);
  EXPECT_TRUE(has(message(results.back()), "then also on a payload it had answered before"))
      << message(results.back());
  std::remove(flag.c_str());
  auto back = batch(3);
  expect_others_fine(back, pool->decode(back), {});
  EXPECT_EQ(pool->stats().down, 0u);
}

TEST(FaultInjection, HalfALineThenExitIsACrash) {
  auto pool = start(misbehaving("half-line-exit"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(5, {2});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {2});
  EXPECT_EQ(results[2].outcome, Outcome::kCrash);
  EXPECT_TRUE(has(message(results[2]), "exited with status 0; unterminated last line: {\"id\":"))
      << message(results[2]);
}

TEST(FaultInjection, HalfALineThenHangIsATimeoutShowingThePartialLine) {
  auto pool = start(misbehaving("half-line-hang"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(5, {2});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {2});
  EXPECT_EQ(results[2].outcome, Outcome::kTimeout);
  EXPECT_TRUE(has(message(results[2]), "unterminated output: {\"id\":")) << message(results[2]);
}

TEST(FaultInjection, HundredMegabyteLineIsCutOffAtTheLimitWithoutBufferingIt) {
  PoolOptions options = quick(5000ms);
  options.max_line_bytes = 1 << 20;
  auto pool = start(misbehaving("long-line"), options);
  ASSERT_TRUE(pool);
  long rss = reset_peak();
  ASSERT_GT(rss, 0);
  auto requests = batch(4, {1});
  auto began = Clock::now();
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {1});
  EXPECT_EQ(results[1].outcome, Outcome::kProtocol) << message(results[1]);
  EXPECT_TRUE(has(message(results[1]), "answer line longer than 1048576 bytes: {\"id\":"))
      << message(results[1]);
  EXPECT_LT(seconds_since(began), 10);
  // Buffering the whole line would add 100 MB to the high-water mark.
  EXPECT_LT(peak_growth_kib(rss), 40 * 1024);
}

TEST(FaultInjection, StderrFloodOfHundredsOfMegabytesIsDrainedAndTheTailStaysSmall) {
  PoolOptions options = quick(10000ms);
  options.stderr_tail_bytes = 4096;
  auto pool = start(misbehaving("stderr-flood", {"--flood-bytes", std::to_string(300 << 20)}), options);
  ASSERT_TRUE(pool);
  long rss = reset_peak();
  auto requests = batch(4, {1});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {});  // the flooding request is answered too
  EXPECT_EQ(pool->stats().restarts, 0u);
  EXPECT_LT(peak_growth_kib(rss), 40 * 1024);
}

TEST(FaultInjection, StderrFloodWhileAnsweringNeverStarvesTheAnswers) {
  PoolOptions options = quick(10000ms);
  options.stderr_tail_bytes = 4096;
  auto pool =
      start(misbehaving("flood-while-answering", {"--flood-bytes", std::to_string(300 << 20)}), options);
  ASSERT_TRUE(pool);
  for (int round = 0; round < 3; ++round) {
    auto requests = batch(400);
    expect_others_fine(requests, pool->decode(requests), {});
  }
  EXPECT_EQ(pool->stats().restarts, 0u);
}

TEST(FaultInjection, ExitBeforeTheHelloIsAStartError) {
  StartError error = start_error(misbehaving("exit-before-hello"));
  EXPECT_TRUE(has(error.message, "adapter 'bad': exited during the handshake (exited with status 3)"))
      << error.message;
  EXPECT_TRUE(has(error.stderr_tail, "misbehaving: refusing to start")) << error.stderr_tail;
}

TEST(FaultInjection, ExitAfterHalfAHelloIsAStartErrorShowingTheHalf) {
  StartError error = start_error(misbehaving("partial-hello"));
  EXPECT_TRUE(has(error.message,
                  "exited during the handshake (exited with status 0); unterminated last "
                  "line: {\"op\":\"hello\""))
      << error.message;
}

TEST(FaultInjection, AnAdapterThatDiesAfterEveryHelloCannotHoldABatch) {
  auto pool = AdapterPool::start(misbehaving("exit-after-hello"), quick());
  if (!pool.ok()) {  // the death was seen together with the hello
    EXPECT_TRUE(has(pool.error().message, "exited with status 0")) << pool.error().message;
    return;
  }
  auto began = Clock::now();
  auto results = pool.value()->decode(batch(30));
  EXPECT_LT(seconds_since(began), 10);
  for (const auto& r : results) EXPECT_EQ(r.outcome, Outcome::kCrash) << message(r);
  EXPECT_TRUE(has(message(results.back()), "is down: it failed 3 times in a row")) << message(results.back());
  EXPECT_LE(pool.value()->stats().restarts, 3u);
}

TEST(FaultInjection, AnswerTwiceInTwoWritesIsAProtocolError) {
  auto pool = start(misbehaving("twice"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(8, {3});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {3});
  EXPECT_EQ(results[3].outcome, Outcome::kProtocol);
  EXPECT_TRUE(has(message(results[3]), "twice")) << message(results[3]);
}

TEST(FaultInjection, AnswerUnderAnotherRequestsIdIsChargedToTheRightRequest) {
  // Request 3 is answered with request 2's id. Nobody can tell at once which answer is wrong; the
  // retries alone show it, and request 2 keeps its own (correct) answer.
  auto pool = start(misbehaving("other-id"), quick());
  ASSERT_TRUE(pool);
  auto requests = batch(8, {3});
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {3});
  EXPECT_EQ(results[3].outcome, Outcome::kProtocol);
  EXPECT_TRUE(has(message(results[3]), "answered with the id of request")) << message(results[3]);
}

TEST(FaultInjection, UnknownIdAndGarbageAreProtocolErrors) {
  for (const char* behaviour : {"unknown-id", "garbage"}) {
    auto pool = start(misbehaving(behaviour), quick());
    ASSERT_TRUE(pool);
    auto requests = batch(6, {4});
    auto results = pool->decode(requests);
    expect_others_fine(requests, results, {4});
    EXPECT_EQ(results[4].outcome, Outcome::kProtocol) << behaviour << ": " << message(results[4]);
  }
}

TEST(FaultInjection, ClosingStdoutWhileRunningIsAProtocolError) {
  auto pool = start(misbehaving("close-stdout"), quick(5000ms));
  ASSERT_TRUE(pool);
  auto requests = batch(6, {2});
  auto began = Clock::now();
  auto results = pool->decode(requests);
  expect_others_fine(requests, results, {2});
  EXPECT_EQ(results[2].outcome, Outcome::kProtocol);
  EXPECT_TRUE(has(message(results[2]), "closed its stdout but was still running")) << message(results[2]);
  EXPECT_LT(seconds_since(began), 4);  // the grace period, not the deadline
}

// Through the implementation set: the in-process C++ decoder and the misbehaving adapter on real
// payloads; the fault is a divergence of the right class naming the adapter, and nothing else is.
TEST(FaultInjection, TheImplementationSetReportsEachFaultInItsClass) {
  const auto& real = gen::testing::real_schema();
  ASSERT_NE(real.ir, nullptr) << real.error;
  std::shared_ptr<const schema::Ir> ir(real.ir.get(), [](const schema::Ir*) {});
  std::ifstream in(std::string(CROSSCHECK_SOURCE_DIR) +
                   "/corpus/examples/intercept_request.tool-before.json");
  std::stringstream text;
  text << in.rdbuf();
  std::string payload = text.str();
  ASSERT_TRUE(has(payload, "\"evt_7f21\""));
  std::vector<DecodeRequest> requests;
  for (int i = 0; i < 6; ++i) {
    std::string p = payload;
    p.replace(p.find("\"evt_7f21\""), 10,
              "\"" + std::string(i == 2 ? "FAULT" : "fine") + std::to_string(i) + "\"");
    requests.push_back({"intercept_request", p});
  }
  const std::map<std::string, DivergenceClass> cases = {{"crash", DivergenceClass::kCrash},
                                                        {"hang", DivergenceClass::kTimeout},
                                                        {"garbage", DivergenceClass::kProtocol},
                                                        {"half-line-hang", DivergenceClass::kTimeout},
                                                        {"close-stdout", DivergenceClass::kProtocol}};
  for (const auto& [behaviour, cls] : cases) {
    AdapterConfig bad;
    bad.spec = misbehaving(behaviour);
    AdapterConfig cpp;
    cpp.spec.name = "cpp";
    ImplementationSet set(ir, {cpp, bad}, quick());
    ASSERT_TRUE(set.failures().empty()) << set.failures().front().message;
    auto out = set.run(requests);
    ASSERT_EQ(out.size(), requests.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      bool harness_class = false;
      for (const auto& d : out[i].divergences) {
        harness_class = harness_class || d.cls == DivergenceClass::kCrash ||
                        d.cls == DivergenceClass::kTimeout || d.cls == DivergenceClass::kProtocol;
        if (i == 2 && d.cls == cls) {
          EXPECT_EQ(d.implementations, std::vector<std::string>{"bad"}) << behaviour;
        }
      }
      bool found = false;
      for (const auto& d : out[i].divergences) found = found || d.cls == cls;
      if (i == 2) {
        EXPECT_TRUE(found) << behaviour;
      } else {
        EXPECT_FALSE(harness_class) << behaviour << " payload " << i;
        EXPECT_EQ(out[i].results[1].outcome, Outcome::kAccepted) << behaviour << " payload " << i;
      }
    }
  }
}

// Pipelined calls (submit_decode): a call queued behind another is sent before the one ahead of it
// is answered, the answers come back per call and in order, and a fault meets them as it would meet
// one call of all their requests.
struct Answered {
  std::promise<std::vector<ImplResult>> results;
  std::future<std::vector<ImplResult>> future = results.get_future();
};

AdapterPool::DecodeDone into(Answered& answered, std::vector<int>& order, int call) {
  return [&answered, &order, call](std::vector<ImplResult> results, std::exception_ptr error) {
    order.push_back(call);  // on the pool's thread, one call after the other
    if (error) {
      answered.results.set_exception(error);
    } else {
      answered.results.set_value(std::move(results));
    }
  };
}

// Queues both calls at once, then waits for both; `order` gets the order they were answered in.
std::pair<std::vector<ImplResult>, std::vector<ImplResult>> two_calls(
    AdapterPool& pool, const std::vector<DecodeRequest>& first, const std::vector<DecodeRequest>& second,
    std::vector<int>& order) {
  Answered one, two;
  pool.submit_decode(first, into(one, order, 1));
  pool.submit_decode(second, into(two, order, 2));
  auto first_results = one.future.get();
  return {std::move(first_results), two.future.get()};
}

std::vector<DecodeRequest> numbered(std::size_t from, std::size_t n) {
  std::vector<DecodeRequest> requests;
  for (std::size_t i = from; i < from + n; ++i)
    requests.push_back({"intercept_request", "{\"n\":" + std::to_string(i) + "}"});
  return requests;
}

TEST(PipelinedCalls, AQueuedCallIsSentBeforeTheOneAheadOfItIsAnswered) {
  // The adapter answers nothing before it has received 8 requests: the first call's 4 are answered
  // only because the second call's 4 went out while the first waited.
  auto pool = start(misbehaving("hold", {"--after", "8"}), quick(5000ms));
  ASSERT_TRUE(pool);
  auto first = numbered(0, 4), second = numbered(4, 4);
  std::vector<int> order;
  auto [first_results, second_results] = two_calls(*pool, first, second, order);
  expect_others_fine(first, first_results, {});
  expect_others_fine(second, second_results, {});
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  auto stats = pool->stats();
  EXPECT_EQ(stats.requests, 8u);
  EXPECT_EQ(stats.timeouts, 0u);
  EXPECT_EQ(stats.restarts, 0u);
}

TEST(PipelinedCalls, ACrashAcrossTwoCallsChargesTheSameRequestsAsInOneCall) {
  // As CrashInTheMiddleOfABatchSendsNothingMoreThanTwice, with its 20 requests split into two calls
  // queued at once: every process dies on the 6th request it receives, whichever call it is from.
  std::string log = temp_path("pipelined_crash_log");
  std::remove(log.c_str());
  auto pool = start(misbehaving("crash", {"--after", "5", "--log", log}), quick());
  ASSERT_TRUE(pool);
  auto first = numbered(0, 10), second = numbered(10, 10);
  std::vector<int> order;
  auto [first_results, second_results] = two_calls(*pool, first, second, order);
  expect_others_fine(first, first_results, {5});
  expect_others_fine(second, second_results, {1, 7});
  for (const ImplResult* crashed : {&first_results[5], &second_results[1], &second_results[7]}) {
    EXPECT_EQ(crashed->outcome, Outcome::kCrash) << message(*crashed);
    EXPECT_TRUE(has(crashed->stderr_tail, "misbehaving: crashing on request")) << crashed->stderr_tail;
  }
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(pool->stats().restarts, 3u);
  auto sent = received(log);
  EXPECT_EQ(sent.size(), 20u);
  for (const auto& [input, n] : sent) EXPECT_LE(n, 2) << input;
  std::remove(log.c_str());
}

TEST(PipelinedCalls, ACallQueuedAfterShutdownIsAnsweredAtOnceAsAbandoned) {
  auto pool = start(misbehaving("none"), quick());
  ASSERT_TRUE(pool);
  pool->shutdown();
  auto requests = numbered(0, 3);
  Answered answered;
  std::vector<int> order;
  pool->submit_decode(requests, into(answered, order, 1));
  ASSERT_EQ(answered.future.wait_for(0s), std::future_status::ready);
  for (const auto& r : answered.future.get()) {
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_TRUE(r.abandoned);
    EXPECT_EQ(message(r), "the pool is shut down");
  }
}

}  // namespace
}  // namespace crosscheck::exec
