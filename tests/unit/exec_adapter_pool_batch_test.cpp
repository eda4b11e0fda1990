// Tests of the pool's batch op (docs/protocol.md, batch) against tests/fake_adapters/fake_adapter.py
// with --batch: answers come back right and in request order, markers inside a batch are charged to
// their own request, a refused batch falls back to smaller ones, and an adapter that lists the op but
// answers batches wrongly (split, reordered, dropped, duplicated, wrong ids) gets protocol results and
// restarts, never a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/protocol_codec.hpp"
#include "json/parse.hpp"

namespace crosscheck::exec {

using core::ImplResult;
using core::Outcome;
using core::Verdict;

namespace {

using namespace std::chrono_literals;

const std::string kFake = std::string(CROSSCHECK_SOURCE_DIR) + "/tests/fake_adapters/fake_adapter.py";

AdapterSpec fake(std::vector<std::string> args) {
  AdapterSpec spec;
  spec.name = "fake";
  spec.argv = {"python3", kFake};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  return spec;
}

PoolOptions quick() {
  PoolOptions o;
  o.deadline = 3000ms;
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

std::vector<DecodeRequest> requests(std::size_t n, const std::map<std::size_t, std::string>& markers = {}) {
  std::vector<DecodeRequest> out;
  for (std::size_t i = 0; i < n; ++i) {
    auto m = markers.find(i);
    out.push_back({"intercept_request", "{\"n\":" + std::to_string(i) + ",\"tag\":\"" +
                                            (m == markers.end() ? "ok" : m->second) + "\"}"});
  }
  return out;
}

std::size_t count(const std::vector<ImplResult>& results, Outcome outcome) {
  std::size_t n = 0;
  for (const ImplResult& r : results) n += r.outcome == outcome;
  return n;
}

TEST(ProtocolBatch, RequestLineJoinsEntriesAndHelloMaxIsRead) {
  std::string line = protocol::batch_request(
      9, {protocol::decode_request(1, "effect", "{}"), protocol::validate_request(2, "effect", "[]")});
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  auto parsed = json::parse(std::string_view(line).substr(0, line.size() - 1));
  ASSERT_TRUE(parsed.ok());
  const json::Value& batch = parsed.value();
  EXPECT_EQ(batch.find("op")->string_value(), "batch");
  EXPECT_EQ(protocol::answer_id(batch), 9u);
  ASSERT_EQ(batch.find("requests")->items().size(), 2u);
  EXPECT_EQ(batch.find("requests")->items()[1].find("op")->string_value(), "validate");
  EXPECT_EQ(protocol::hello_batch_max(R"({"op":"hello","batch":{"max":128}})", 1 << 20), 128u);
  EXPECT_EQ(protocol::hello_batch_max(R"({"op":"hello"})", 1 << 20), 0u);
  EXPECT_EQ(protocol::hello_batch_max(R"({"op":"hello","batch":{"max":1}})", 1 << 20), 0u);
}

TEST(ProtocolBatch, ReplyAndRefusalHaveASchema) {
  auto reply = json::parse(R"({"id":3,"answers":[{"id":1,"outcome":"valid","errors":[],"message":null}]})");
  auto refusal = json::parse(R"({"id":3,"error":"bad batch: 300 requests, at most 256"})");
  auto wrong = json::parse(R"({"id":3,"answers":{}})");
  ASSERT_TRUE(reply.ok() && refusal.ok() && wrong.ok());
  EXPECT_FALSE(protocol::schema_problem(protocol::Line::kBatchReply, reply.value()));
  EXPECT_FALSE(protocol::schema_problem(protocol::Line::kBatchRefusal, refusal.value()));
  EXPECT_TRUE(protocol::schema_problem(protocol::Line::kBatchReply, wrong.value()));
}

TEST(AdapterPoolBatch, BatchedDecodesComeBackInRequestOrder) {
  auto pool = start(fake({"--batch", "16"}));
  ASSERT_TRUE(pool);
  auto reqs = requests(200, {{7, "REJECT"}});
  auto results = pool->decode(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    if (i == 7) continue;
    EXPECT_EQ(results[i].outcome, Outcome::kAccepted) << i << ": " << results[i].message.value_or("");
    EXPECT_EQ(results[i].encoded, reqs[i].input) << i;
  }
  EXPECT_EQ(results[7].outcome, Outcome::kRejected);
  EXPECT_EQ(pool->stats().restarts, 0u);
}

TEST(AdapterPoolBatch, BatchedValidatesAreAnswered) {
  auto pool = start(fake({"--batch", "8", "--canonical"}));
  ASSERT_TRUE(pool);
  std::vector<ValidateRequest> reqs;
  for (int i = 0; i < 40; ++i) reqs.push_back({i % 2 ? "fake-valid" : "fake-invalid", "{}"});
  auto results = pool->validate(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(results[i].verdict, i % 2 ? Verdict::kValid : Verdict::kInvalid) << i;
  }
}

TEST(AdapterPoolBatch, CrashInsideABatchIsChargedToItsOwnRequest) {
  auto pool = start(fake({"--batch", "16"}));
  ASSERT_TRUE(pool);
  auto reqs = requests(60, {{20, "CRASH"}});
  auto results = pool->decode(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  // The batch it was in had no way to say which entry killed it: each was retried alone.
  EXPECT_EQ(results[20].outcome, Outcome::kCrash);
  EXPECT_EQ(count(results, Outcome::kAccepted), 59u);
}

TEST(AdapterPoolBatch, RefusedBatchFallsBackToSmallerOnes) {
  // The adapter's hello says 64, but it refuses batches of more than 3 entries.
  auto pool = start(fake({"--batch", "64", "--batch-accepts", "3"}));
  ASSERT_TRUE(pool);
  auto reqs = requests(50);
  auto results = pool->decode(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_EQ(results[i].outcome, Outcome::kAccepted) << i << ": " << results[i].message.value_or("");
    EXPECT_EQ(results[i].encoded, reqs[i].input) << i;
  }
  EXPECT_EQ(pool->stats().restarts, 0u);
  EXPECT_EQ(pool->stats().protocol_errors, 0u);
}

TEST(AdapterPoolBatch, ABatchOfSlowEntriesGetsADeadlinePerEntry) {
  // Each entry takes a fifth of the deadline, the batch line 8 of them: more than one deadline in all.
  PoolOptions o = quick();
  o.deadline = 1000ms;
  auto pool = start(fake({"--batch", "8"}), o);
  ASSERT_TRUE(pool);
  std::map<std::size_t, std::string> slow;
  for (std::size_t i = 0; i < 8; ++i) slow[i] = "SLOW200";
  auto reqs = requests(8, slow);
  auto results = pool->decode(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  EXPECT_EQ(count(results, Outcome::kAccepted), reqs.size());
  EXPECT_EQ(pool->stats().timeouts, 0u);
  EXPECT_EQ(pool->stats().restarts, 0u);
}

struct Lie {
  const char* mode;
};

class AdapterPoolBatchLie : public ::testing::TestWithParam<Lie> {};

TEST_P(AdapterPoolBatchLie, BrokenBatchAnswerIsAProtocolResultNotAHang) {
  auto pool = start(fake({"--batch", "8", "--batch-lie", GetParam().mode}));
  ASSERT_TRUE(pool);
  auto reqs = requests(40);
  auto results = pool->decode(reqs);
  ASSERT_EQ(results.size(), reqs.size());
  std::size_t protocol_results = count(results, Outcome::kProtocol);
  EXPECT_GT(protocol_results, 0u);
  EXPECT_EQ(protocol_results + count(results, Outcome::kAccepted), reqs.size());
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    if (results[i].outcome == Outcome::kAccepted) {
      EXPECT_EQ(results[i].encoded, reqs[i].input) << i;
    }
    if (results[i].outcome == Outcome::kProtocol) {
      EXPECT_NE(results[i].message.value_or("").find("batch"), std::string::npos)
          << results[i].message.value_or("");
    }
  }
  EXPECT_GT(pool->stats().restarts, 0u);
}

INSTANTIATE_TEST_SUITE_P(Lies, AdapterPoolBatchLie,
                         ::testing::Values(Lie{"split"}, Lie{"reorder"}, Lie{"drop"}, Lie{"duplicate"},
                                           Lie{"wrongid"}),
                         [](const auto& info) { return std::string(info.param.mode); });

}  // namespace
}  // namespace crosscheck::exec
