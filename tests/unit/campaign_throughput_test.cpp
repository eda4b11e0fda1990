// Tests of the fuzz run's throughput figures and of --generation-share (campaign/generation_pacer.hpp)
// against tests/fake_adapters/fake_adapter.py on the small test schema: the summary printed and
// summary.json's "session" carry inputs sent per second, inputs dropped and the CPU time of
// crosscheck and of the adapter; with a slow adapter, a small share generates far fewer inputs in
// the same run time than no limit; with a fast adapter, a share below 1 fills the sender's room
// with every input instead of only the sample. The sender overlaps batches (the adapters work on
// the next while this one is compared and handled) and still hands every input its own results, in
// order. A paced generation loop runs on a thread of its own ten nice levels lower; the caller's
// thread keeps its priority.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "campaign/campaign.hpp"
#include "campaign/generation_pacer.hpp"
#include "campaign/sender.hpp"
#include "run/summary_file.hpp"
#include "schema/loader.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

const std::string kFakeAdapter = std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/fake_adapter.py";

/// The calling thread's nice value (Linux keeps one per thread).
int thread_nice() { return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid))); }

class ThroughputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ir = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
    ASSERT_TRUE(ir.ok()) << ir.error().message();
    ir_ = std::make_shared<const schema::Ir>(std::move(ir).value());
    base_ = fs::temp_directory_path() / ("crosscheck-throughput-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(base_);
  }
  void TearDown() override { fs::remove_all(base_); }

  /// An implementation set of the C++ decoder and the fake adapter with `extra` arguments.
  std::unique_ptr<exec::ImplementationSet> start(std::vector<std::string> extra) {
    exec::AdapterConfig cpp;
    cpp.spec.name = "cpp";
    exec::AdapterConfig fake;
    fake.spec.name = "fake";
    fake.spec.argv = {"python3", kFakeAdapter};
    fake.spec.argv.insert(fake.spec.argv.end(), extra.begin(), extra.end());
    exec::PoolOptions pool;
    pool.deadline = std::chrono::milliseconds(10000);
    auto set = std::make_unique<exec::ImplementationSet>(ir_, std::vector{cpp, fake}, pool);
    EXPECT_TRUE(set->failures().empty()) << set->failures().front().message;
    return set;
  }

  CampaignOptions options(const std::string& name) {
    CampaignOptions o;
    o.seed = 5;
    o.out = (base_ / name).string();
    o.adapters_fingerprint = "cpp,fake";
    return o;
  }

  std::shared_ptr<const schema::Ir> ir_;
  fs::path base_;
};

TEST_F(ThroughputTest, TheSummaryPrintsAndStoresSentPerSecondDroppedAndCpuTimes) {
  auto set = start({});
  CampaignOptions o = options("run");
  o.runs = 3000;
  o.batch = 16;
  std::ostringstream log;
  CampaignSummary summary = run_campaign(*ir_, *set, o, log);
  ASSERT_GT(summary.sent, 0u) << log.str();
  EXPECT_NE(log.str().find("inputs sent ("), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("CPU seconds: crosscheck "), std::string::npos) << log.str();
  EXPECT_NE(log.str().find(", fake "), std::string::npos) << log.str();

  auto stored = run::read_summary(o.out);
  ASSERT_TRUE(stored && stored->session) << log.str();
  const run::SessionRecord& s = *stored->session;
  EXPECT_EQ(s.sent, summary.sent);
  EXPECT_GT(s.seconds, 0);
  EXPECT_GT(s.sent_per_second, 0);
  // sent per second is the session's sent over its seconds (3 decimals in the file).
  EXPECT_NEAR(s.sent_per_second, static_cast<double>(s.sent) / s.seconds, 0.01 + 0.01 * s.sent_per_second);
  EXPECT_LE(s.dropped, summary.generated - summary.sent);
  EXPECT_EQ(s.generation_share, 0.25);
  EXPECT_GT(s.crosscheck_cpu, 0);
  EXPECT_GT(s.generation_cpu, 0);
  EXPECT_LE(s.generation_cpu, s.crosscheck_cpu + 0.01);  // one thread of the process
  // The Python interpreter's start alone takes tens of milliseconds of CPU; only the adapter is
  // listed, not the in-process C++ decoder.
  ASSERT_EQ(s.adapter_cpu.size(), 1u);
  ASSERT_TRUE(s.adapter_cpu.count("fake"));
  EXPECT_GT(s.adapter_cpu.at("fake"), 0);
  EXPECT_LT(s.adapter_cpu.at("fake"), 1000);
}

TEST_F(ThroughputTest, TheAdapterCpuTimeIsSummedOverRestarts) {
  // Every process of this adapter exits after its first answer: the pool restarts it for every
  // batch, and the time of each reaped process stays in the figure.
  auto set = start({"--always", "EXITLATER"});
  const double before = set->adapter_cpu_seconds().at("fake");
  std::vector<exec::DecodeRequest> batch{{"ping", "{}"}};
  for (int k = 0; k < 4; ++k) set->run(batch);
  // Four Python starts at least (tens of milliseconds each) besides the first process's.
  EXPECT_GT(set->adapter_cpu_seconds().at("fake"), before + 0.02);
}

TEST_F(ThroughputTest, ASmallShareGeneratesFarFewerInputsWhileASlowAdapterIsBehind) {
  // 20 ms a request: about 50 inputs a second reach the adapter, far fewer than generation offers.
  auto generated_with = [&](double share, run::SessionRecord& session) {
    auto set = start({"--always", "SLOW20"});
    CampaignOptions o = options("share-" + std::to_string(share));
    o.seconds = 2;
    o.batch = 8;
    o.generation_share = share;
    // Every input is offered, so share 1 overflows the queue (64) however slowly this build
    // generates: with the default 1 in 16, an ASan build under a loaded ctest offered fewer inputs
    // in 2 s than the queue and the adapter could take, and nothing was dropped at either share.
    o.sample_every = 1;
    // Ends the sending with the time too, so the queue is not drained at the adapter's pace.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    o.stop_when = [until] { return std::chrono::steady_clock::now() >= until; };
    std::ostringstream log;
    CampaignSummary summary = run_campaign(*ir_, *set, o, log);
    auto stored = run::read_summary(o.out);
    EXPECT_TRUE(stored && stored->session) << log.str();
    if (stored && stored->session) session = *stored->session;
    return summary.generated;
  };
  run::SessionRecord limited, unlimited;
  const std::uint64_t with_share = generated_with(0.1, limited);
  const std::uint64_t without = generated_with(1.0, unlimited);
  ASSERT_GT(without, 0u);
  EXPECT_GT(with_share, 0u);  // exploration goes on
  EXPECT_LT(with_share * 3, without) << "share 0.1: " << with_share << ", share 1: " << without;
  EXPECT_GT(limited.waited_seconds, 0);
  EXPECT_EQ(unlimited.waited_seconds, 0);
  // Share 1 drops what the adapter cannot take; a small share leaves far less to drop.
  EXPECT_LT(limited.dropped, unlimited.dropped);
}

TEST_F(ThroughputTest, WithAShareBelowOneASenderWithRoomGetsEveryInputNotOnlyTheSample) {
  // With share 1 only the interesting inputs and 1 in 16 of the rest go; with a share below 1 a
  // sender with room gets every input. Generation is slowed to about one input a millisecond, so
  // the fake adapter has room however loaded the machine: without that, under a parallel ctest
  // the adapter fell behind for stretches and the filled run sent less than twice the sample.
  const auto generation_thread = std::this_thread::get_id();
  auto sent_with = [&](double share) {
    auto set = start({});
    CampaignOptions o = options("fill-" + std::to_string(share));
    o.runs = 1000;
    o.batch = 16;
    o.generation_share = share;
    // stop_when is asked before every step on the generation thread (and once a batch on the
    // sender's, which must not be slowed).
    o.stop_when = [generation_thread] {
      if (std::this_thread::get_id() == generation_thread)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return false;
    };
    std::ostringstream log;
    return run_campaign(*ir_, *set, o, log).sent;
  };
  const std::uint64_t filled = sent_with(0.25), sampled = sent_with(1.0);
  EXPECT_GT(filled, 2 * sampled) << "share 0.25: " << filled << " sent, share 1: " << sampled;
  EXPECT_LE(filled, 1000u);
}

TEST_F(ThroughputTest, ADeterministicRunIgnoresTheShare) {
  auto set = start({});
  CampaignOptions o = options("deterministic");
  o.runs = 300;
  o.batch = 16;
  o.deterministic = true;
  o.generation_share = 0.1;
  std::ostringstream log;
  CampaignSummary summary = run_campaign(*ir_, *set, o, log);
  EXPECT_EQ(summary.generated, 300u);
  EXPECT_EQ(summary.sent, 300u);  // every input sent, none dropped
  auto stored = run::read_summary(o.out);
  ASSERT_TRUE(stored && stored->session);
  EXPECT_EQ(stored->session->generation_share, 1.0);
  EXPECT_EQ(stored->session->waited_seconds, 0);
  EXPECT_EQ(stored->session->dropped, 0u);
}

TEST(GenerationThread, APacedLoopRunsTenNiceLevelsLowerOnItsOwnThreadAndTheCallerKeepsItsPriority) {
  const int caller = thread_nice();
  const auto caller_id = std::this_thread::get_id();
  int inside = -100;
  std::thread::id loop_id;
  run_generation_thread(true, [&] {
    inside = thread_nice();
    loop_id = std::this_thread::get_id();
  });
  EXPECT_EQ(inside, std::min(19, caller + 10));
  EXPECT_NE(loop_id, caller_id);
  EXPECT_EQ(thread_nice(), caller);  // what this thread starts later does not inherit the loop's
}

TEST(GenerationThread, AnUnpacedLoopKeepsThePriority) {
  const int caller = thread_nice();
  int inside = -100;
  run_generation_thread(false, [&] { inside = thread_nice(); });
  EXPECT_EQ(inside, caller);
}

TEST(GenerationThread, TheLoopsErrorReachesTheCaller) {
  EXPECT_THROW(run_generation_thread(true, [] { throw Fatal("disk full"); }), Fatal);
}

TEST_F(ThroughputTest, ARunsGenerationLoopGivesWayOnlyWhenPaced) {
  // stop_when is polled by the generation loop before each step (and by the sender thread before
  // each batch): the highest nice value among its callers is the loop's.
  auto highest_nice_with = [&](bool deterministic) {
    auto set = start({});
    CampaignOptions o = options(deterministic ? "deterministic-nice" : "paced-nice");
    o.runs = 200;
    o.batch = 16;
    o.deterministic = deterministic;
    o.generation_share = 0.25;
    std::atomic<int> highest{-100};
    o.stop_when = [&] {
      int n = thread_nice(), seen = highest.load();
      while (n > seen && !highest.compare_exchange_weak(seen, n)) {
      }
      return false;
    };
    std::ostringstream log;
    run_campaign(*ir_, *set, o, log);
    return highest.load();
  };
  const int caller = thread_nice();
  EXPECT_EQ(highest_nice_with(false), std::min(19, caller + 10));
  EXPECT_EQ(highest_nice_with(true), caller);  // a deterministic run is not paced
  EXPECT_EQ(thread_nice(), caller);
}

TEST_F(ThroughputTest, TwoBatchesInFlightEachGetTheirOwnResults) {
  auto set = start({});
  std::vector<exec::DecodeRequest> first{{"ping", "{\"a\":1}"}, {"ping", "{\"a\":2}"}};
  std::vector<exec::DecodeRequest> second{{"ping", "[3]"}};
  auto one = set->start(first);
  set->wait_for_adapters(*one);
  auto two = set->start(second);  // with the pools while the first is compared
  auto first_results = set->finish(std::move(one));
  auto second_results = set->finish(std::move(two));
  ASSERT_EQ(first_results.size(), 2u);
  ASSERT_EQ(second_results.size(), 1u);
  EXPECT_EQ(first_results[1].input, "{\"a\":2}");
  EXPECT_EQ(second_results[0].input, "[3]");
  for (const auto* batch : {&first_results, &second_results}) {
    for (const auto& r : *batch) {
      ASSERT_EQ(r.results.size(), 2u);  // cpp and fake, in that order
      EXPECT_EQ(r.results[1].implementation, "fake");
      EXPECT_EQ(r.results[1].encoded, r.input);  // the fake adapter echoes its input
    }
  }
  // The same batch through run() gives the same outcomes.
  auto again = set->run(first);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].results[0].outcome, first_results[0].results[0].outcome);
}

TEST_F(ThroughputTest, BatchesStartedBeforeAnyIsAnsweredComeBackInOrderWithBothLayers) {
  // Three batches with the pools at once, each asking both layers: the fake adapter decodes (on
  // the pool's thread) and has no canonical layer (answered at once, on this thread); each batch
  // waits for both.
  auto set = start({});
  core::Layers both;
  both.canonical = true;
  std::vector<std::vector<exec::DecodeRequest>> batches(3);
  for (int b = 0; b < 3; ++b) {
    for (int i = 0; i < 5; ++i)
      batches[b].push_back({"ping", "{\"b\":" + std::to_string(b) + ",\"i\":" + std::to_string(i) + "}"});
  }
  std::vector<std::unique_ptr<exec::ImplementationSet::InFlight>> flights;
  for (const auto& batch : batches) flights.push_back(set->start(batch, both));
  for (int b = 0; b < 3; ++b) {
    auto results = set->finish(std::move(flights[b]));
    ASSERT_EQ(results.size(), batches[b].size());
    for (std::size_t i = 0; i < results.size(); ++i) {
      EXPECT_EQ(results[i].input, batches[b][i].input);
      ASSERT_EQ(results[i].results.size(), 2u);
      EXPECT_EQ(results[i].results[1].encoded, batches[b][i].input);  // the fake echoes its own input
      ASSERT_EQ(results[i].validations.size(), 2u);
      EXPECT_EQ(results[i].validations[1].implementation, "fake");
      EXPECT_EQ(results[i].validations[1].verdict, core::Verdict::kUnsupported);
    }
  }
}

TEST_F(ThroughputTest, ABatchDroppedUnfinishedWaitsForItsPoolsAndTheSetGoesOn) {
  // The sender's error path drops a started batch: the pools write into it until they have answered,
  // so dropping it waits for them (under ASan a write after the drop would be reported).
  auto set = start({});
  std::vector<exec::DecodeRequest> batch{{"ping", "{\"a\":1}"}, {"ping", "{\"a\":2}"}};
  {
    auto dropped = set->start(batch);
    auto also = set->start(batch);
  }
  auto results = set->run(batch);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].results[1].encoded, batch[1].input);
}

TEST_F(ThroughputTest, TheReferenceTakesADecodeDoneOnItsOwnIrAndDecodesAnyOther) {
  auto set = start({});
  std::vector<exec::DecodeRequest> batch{{"ping_event", "{\"type\":\"ping\"}"},
                                         {"ping_event", "{\"type\":\"pong\"}"}};
  auto plain = set->run(batch);
  ASSERT_EQ(plain.size(), 2u);
  // A result the decoder would not give, on the set's own IR: taken as it is.
  exec::ImplementationSet::ReferenceDecode given{&set->default_ir(),
                                                 plain[0].results[0].outcome != core::Outcome::kAccepted,
                                                 {{"/x", "given-code", decoder::Severity::kError, "given"}},
                                                 std::string("\"given\""),
                                                 42.5};
  // The same result claimed on another copy of the schema: not this reference's decode, so ignored.
  auto copy = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
  ASSERT_TRUE(copy.ok());
  exec::ImplementationSet::ReferenceDecode foreign = given;
  foreign.ir = &copy.value();
  auto results = set->finish(set->start(batch, {}, {&given, &foreign}));
  ASSERT_EQ(results.size(), 2u);
  const auto& taken = results[0].results[0];
  EXPECT_EQ(taken.implementation, "cpp");
  EXPECT_EQ(taken.outcome, given.accepted ? core::Outcome::kAccepted : core::Outcome::kRejected);
  EXPECT_NE(taken.outcome, plain[0].results[0].outcome);
  ASSERT_EQ(taken.diagnostics.size(), 1u);
  EXPECT_EQ(taken.diagnostics[0].code, "given-code");
  EXPECT_EQ(taken.encoded, std::optional<std::string>("\"given\""));
  EXPECT_EQ(taken.millis, 42.5);
  const auto& decoded = results[1].results[0];
  EXPECT_EQ(decoded.outcome, plain[1].results[0].outcome);
  EXPECT_EQ(decoded.encoded, plain[1].results[0].encoded);
  EXPECT_EQ(decoded.diagnostics.size(), plain[1].results[0].diagnostics.size());
  EXPECT_NE(decoded.millis, 42.5);
}

TEST_F(ThroughputTest, ACampaignGivesTheSameAnswersWhetherItsDecodesAreReusedOrNot) {
  // On the set's own IR the generation step's decodes are the reference's results; on a separate
  // copy of the same schema every input is decoded again. A deterministic run must not tell them apart.
  // The needle adapter accepts any JSON text and reports this schema, so it is compared with the
  // decoder (the fake adapter's roots are skewed).
  exec::AdapterConfig cpp;
  cpp.spec.name = "cpp";
  exec::AdapterConfig needle;
  needle.spec.name = "needle";
  needle.spec.argv = {"python3",
                      std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/needle_adapter.py"};
  exec::PoolOptions pool;
  pool.deadline = std::chrono::milliseconds(10000);
  auto set = std::make_unique<exec::ImplementationSet>(ir_, std::vector{cpp, needle}, pool);
  ASSERT_TRUE(set->failures().empty()) << set->failures().front().message;
  auto copy = schema::load_schema(std::string(CROSSCHECK_TEST_SCHEMAS) + "/mini");
  ASSERT_TRUE(copy.ok());
  CampaignSummary runs[2];
  std::string logs[2];
  for (int reuse = 0; reuse < 2; ++reuse) {
    CampaignOptions o = options(reuse ? "reused" : "decoded-again");
    o.runs = 400;
    o.batch = 16;
    o.deterministic = true;
    o.adapters_fingerprint = "cpp,needle";
    std::ostringstream log;
    runs[reuse] = run_campaign(reuse ? set->default_ir() : copy.value(), *set, o, log);
    logs[reuse] = log.str();
    ASSERT_EQ(runs[reuse].sent, 400u) << logs[reuse];
  }
  EXPECT_GT(runs[0].divergent_inputs, 0u) << logs[0];
  EXPECT_EQ(runs[1].divergent_inputs, runs[0].divergent_inputs);
  EXPECT_EQ(runs[1].contract_inputs, runs[0].contract_inputs);
  EXPECT_EQ(runs[1].buckets, runs[0].buckets);
  EXPECT_EQ(runs[1].coverage_percent, runs[0].coverage_percent);
}

TEST_F(ThroughputTest, TheSenderHandlesEveryInputInOrderWithItsOwnResults) {
  auto set = start({});
  std::vector<std::string> handled, answered;
  {
    Sender sender(*set, 4, {}, nullptr, 0, [&](const Pending& p, const core::PayloadResults& r) {
      handled.push_back(p.bytes);
      answered.push_back(r.results.at(1).encoded.value_or(""));
    });
    for (int k = 0; k < 41; ++k)
      sender.offer({"ping", "[" + std::to_string(k) + "]", "test", 0, std::nullopt}, true);
    sender.finish();
    EXPECT_EQ(sender.sent(), 41u);
  }
  ASSERT_EQ(handled.size(), 41u);
  for (int k = 0; k < 41; ++k) {
    EXPECT_EQ(handled[k], "[" + std::to_string(k) + "]");
    EXPECT_EQ(answered[k], handled[k]);
  }
}

TEST_F(ThroughputTest, AStoppedSenderCompletesTheBatchInFlightAndSendsNoMore) {
  auto set = start({});
  std::size_t handled = 0;
  std::atomic<bool> stop{false};  // polled by offer() on this thread too
  std::uint64_t sent = 0;
  {
    Sender sender(
        *set, 4, {}, [&] { return stop.load(); }, 0,
        [&](const Pending&, const core::PayloadResults& r) {
          EXPECT_FALSE(r.interrupted);
          ++handled;
          stop = true;  // after the first result: what is queued is not sent
        });
    for (int k = 0; k < 32; ++k)
      sender.offer({"ping", "[" + std::to_string(k) + "]", "test", 0, std::nullopt}, true);
    sender.finish();
    sent = sender.sent();
  }
  // The batch being handled and at most the one the adapters had: 4 or 8 inputs, each handled.
  EXPECT_GE(handled, 4u);
  EXPECT_LE(handled, 8u);
  EXPECT_EQ(handled % 4, 0u);
  EXPECT_EQ(sent, handled);
}

/// cpp, the fake adapter, and a second one ("stuck") that never answers an input holding STUCK.
std::unique_ptr<exec::ImplementationSet> start_with_stuck(const std::shared_ptr<const schema::Ir>& ir,
                                                          std::chrono::milliseconds deadline) {
  exec::AdapterConfig cpp, fake, stuck;
  cpp.spec.name = "cpp";
  fake.spec.name = "fake";
  fake.spec.argv = {"python3", kFakeAdapter};
  stuck.spec.name = "stuck";
  stuck.spec.argv = {"python3", kFakeAdapter, "--hang-on", "STUCK"};
  exec::PoolOptions pool;
  pool.deadline = deadline;
  auto set = std::make_unique<exec::ImplementationSet>(ir, std::vector{cpp, fake, stuck}, pool);
  EXPECT_TRUE(set->failures().empty()) << set->failures().front().message;
  return set;
}

TEST_F(ThroughputTest, AStuckAdapterDoesNotStallTheOthers) {
  auto set = start_with_stuck(ir_, std::chrono::milliseconds(5000));
  std::vector<std::string> handled;
  std::size_t skipped_stuck = 0, answered_by_fake = 0;
  std::optional<core::ImplResult> hung;
  {
    Sender sender(*set, 4, {}, nullptr, 0, [&](const Pending& p, const core::PayloadResults& r) {
      handled.push_back(p.bytes);
      ASSERT_EQ(r.results.size(), 3u);
      EXPECT_FALSE(r.interrupted);
      answered_by_fake += r.results[1].outcome == core::Outcome::kAccepted;
      if (r.results[2].skipped) ++skipped_stuck;
      if (p.bytes == "[\"STUCK\"]") hung = r.results[2];
    });
    sender.offer({"ping", "[\"STUCK\"]", "test", 0, std::nullopt}, true);
    for (int k = 0; k < 100; ++k)
      sender.offer({"ping", "[" + std::to_string(k) + "]", "test", 0, std::nullopt}, true);
    sender.finish();
    EXPECT_EQ(sender.sent(), 101u);
  }
  ASSERT_EQ(handled.size(), 101u);
  // Every input was answered by the adapter that was not stuck, and the inputs after the stuck one
  // went on while it hung: nearly all were handled before it (without the skip, none could be: the
  // sender waited for the stuck adapter, batch by batch, in order).
  EXPECT_EQ(answered_by_fake, 101u);
  auto position = std::find(handled.begin(), handled.end(), "[\"STUCK\"]") - handled.begin();
  EXPECT_GE(position, 80);
  EXPECT_GE(skipped_stuck, 80u);
  EXPECT_EQ(set->skipped_payloads()["stuck"], skipped_stuck);
  // The hang itself is still a result of its own (a timeout finding), not skipped.
  ASSERT_TRUE(hung.has_value());
  EXPECT_EQ(hung->outcome, core::Outcome::kTimeout) << hung->message.value_or("");
  EXPECT_FALSE(hung->skipped);
  // Once the sender is done, the set asks every adapter again (the reduction after a run uses it).
  auto again = set->run({{"ping", "[1]"}});
  ASSERT_EQ(again.size(), 1u);
  EXPECT_FALSE(again[0].results.at(2).skipped);
  EXPECT_EQ(again[0].results.at(2).outcome, core::Outcome::kAccepted);
}

TEST_F(ThroughputTest, AStoppedRunCutsTheBatchAStuckAdapterHoldsInsteadOfWaitingForIt) {
  // A deadline far longer than the test: only the cut can end it in time.
  auto set = start_with_stuck(ir_, std::chrono::milliseconds(120000));
  std::atomic<bool> stop{false};
  std::size_t interrupted = 0, compared = 0;
  auto began = std::chrono::steady_clock::now();
  {
    Sender sender(
        *set, 4, {}, [&] { return stop.load(); }, 0,
        [&](const Pending&, const core::PayloadResults& r) { ++(r.interrupted ? interrupted : compared); });
    sender.offer({"ping", "[\"STUCK\"]", "test", 0, std::nullopt}, true);
    for (int k = 0; k < 3; ++k)
      sender.offer({"ping", "[" + std::to_string(k) + "]", "test", 0, std::nullopt}, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = true;  // the run's time is up
    sender.finish();
  }
  auto took = std::chrono::steady_clock::now() - began;
  // The batch with the stuck input was cut (not compared: its interruption is no finding).
  EXPECT_EQ(interrupted, 4u);
  EXPECT_EQ(compared, 0u);
  EXPECT_LT(took, std::chrono::seconds(30));  // against a deadline of 120 s
}

TEST_F(ThroughputTest, TheSentSampleHoldsEveryNthInputSentInTheCorpusLayout) {
  auto set = start({});
  CampaignOptions o = options("sample");
  o.runs = 400;
  o.batch = 16;
  o.sent_sample_every = 10;
  std::ostringstream log;
  CampaignSummary summary = run_campaign(*ir_, *set, o, log);
  ASSERT_GT(summary.sent, 50u) << log.str();
  std::size_t files = 0;
  for (const auto& dir : fs::directory_iterator(fs::path(o.out) / "sent-sample")) {
    ASSERT_TRUE(dir.is_directory()) << dir.path();
    EXPECT_TRUE(ir_->find_root(dir.path().filename().string())) << dir.path();
    for (const auto& f : fs::directory_iterator(dir.path())) {
      EXPECT_NE(f.path().filename().string().front(), '.') << f.path();  // no temporary left
      ++files;
    }
  }
  // One in ten of the inputs sent (fewer when two sampled inputs are the same bytes).
  EXPECT_LE(files, (summary.sent + 9) / 10);
  EXPECT_GE(files, summary.sent / 20);
  // Without the option there is no such folder.
  CampaignOptions plain = options("plain");
  plain.runs = 50;
  run_campaign(*ir_, *set, plain, log);
  EXPECT_FALSE(fs::exists(fs::path(plain.out) / "sent-sample"));
}

}  // namespace
}  // namespace crosscheck::campaign
