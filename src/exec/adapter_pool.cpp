// adapter_pool.cpp: AdapterPool (adapter_pool.hpp), calls of each kind made into the pool's engine
// (AdapterPool::Impl, detail/pool_impl.hpp) and their answers made back into results. The engine's
// parts, each in detail/: pool_loop.cpp (the event loop: processes polled, answers coalesced),
// pool_dispatch.cpp (requests to processes, batching), pool_answers.cpp (answer lines to requests),
// pool_failures.cpp (deadlines, failures and who is charged, the circuit breaker, shed and cut),
// pool_feed.cpp (calls between the callers' threads and the pool's thread).
#include "exec/adapter_pool.hpp"

#include "exec/detail/pool_impl.hpp"

namespace crosscheck::exec {

using namespace pool_detail;
using core::Identity;
using core::kCanonicalLayer;
using core::Verdict;

namespace {

std::vector<Slot> decode_slots(const std::vector<DecodeRequest>& requests) {
  std::vector<Slot> slots(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) slots[i].request = &requests[i];
  return slots;
}

std::vector<ImplResult> decode_results(std::vector<Slot>& slots) {
  std::vector<ImplResult> results;
  results.reserve(slots.size());
  for (Slot& s : slots) results.push_back(std::move(s.result));
  return results;
}

std::vector<Slot> validate_slots(const std::vector<ValidateRequest>& requests) {
  std::vector<Slot> slots(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    slots[i].kind = Kind::kValidate;
    slots[i].document = &requests[i];
  }
  return slots;
}

std::vector<ValidateResult> validate_results(std::vector<Slot>& slots, const std::string& name) {
  std::vector<ValidateResult> results(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& s = slots[i];
    if (s.verdict) {
      results[i] = std::move(*s.verdict);
      continue;
    }
    // The harness's own verdict (crash, timeout, protocol, abandoned), carried in the decode result.
    ValidateResult& r = results[i];
    r.implementation = name;
    switch (s.result.outcome) {
      case Outcome::kCrash:
        r.verdict = Verdict::kCrash;
        break;
      case Outcome::kTimeout:
        r.verdict = Verdict::kTimeout;
        break;
      case Outcome::kProtocol:
        r.verdict = Verdict::kProtocol;
        break;
      default:
        r.verdict = Verdict::kError;
        break;
    }
    r.message = s.result.message;
    r.stderr_tail = std::move(s.result.stderr_tail);
    r.millis = s.result.millis;
    r.abandoned = s.result.abandoned;
    r.skipped = s.result.skipped;
  }
  return results;
}

std::vector<ValidateResult> without_canonical_layer(std::size_t count, const std::string& name) {
  std::vector<ValidateResult> results(count);
  for (auto& r : results) {
    r.implementation = name;
    r.verdict = Verdict::kUnsupported;
    r.message = "the adapter's hello does not list the canonical layer";
  }
  return results;
}

}  // namespace

Result<std::unique_ptr<AdapterPool>, StartError> AdapterPool::start(const AdapterSpec& spec,
                                                                    const PoolOptions& options) {
  auto impl = std::make_unique<Impl>(spec, options);
  if (auto error = impl->start()) return std::move(*error);
  return std::unique_ptr<AdapterPool>(new AdapterPool(std::move(impl)));
}

AdapterPool::AdapterPool(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AdapterPool::~AdapterPool() { shutdown(); }

const Identity& AdapterPool::identity() const { return impl_->identity; }

std::vector<ImplResult> AdapterPool::decode(const std::vector<DecodeRequest>& requests) {
  auto answered = impl_->call(decode_slots(requests), true);
  return decode_results(answered);
}

void AdapterPool::submit_decode(const std::vector<DecodeRequest>& requests, DecodeDone done) {
  impl_->submit(decode_slots(requests), true,
                [done = std::move(done)](std::vector<Slot>& slots, std::exception_ptr error) {
                  done(decode_results(slots), error);
                });
}

std::vector<ValidateResult> AdapterPool::validate(const std::vector<ValidateRequest>& requests) {
  if (!impl_->identity.has_layer(kCanonicalLayer))
    return without_canonical_layer(requests.size(), impl_->spec.name);
  auto answered = impl_->call(validate_slots(requests), true);
  return validate_results(answered, impl_->spec.name);
}

void AdapterPool::submit_validate(const std::vector<ValidateRequest>& requests, ValidateDone done) {
  if (!impl_->identity.has_layer(kCanonicalLayer)) {
    done(without_canonical_layer(requests.size(), impl_->spec.name), nullptr);
    return;
  }
  impl_->submit(
      validate_slots(requests), true,
      [done = std::move(done), name = impl_->spec.name](std::vector<Slot>& slots, std::exception_ptr error) {
        done(validate_results(slots, name), error);
      });
}

namespace {

// `count` bench requests, of requests[i] or documents[i] (one of the two is null), pipelined.
std::vector<std::optional<std::uint64_t>> run_bench(AdapterPool::Impl& impl, std::size_t count,
                                                    const DecodeRequest* requests,
                                                    const ValidateRequest* documents,
                                                    std::uint64_t iterations) {
  std::vector<Slot> slots(count);
  for (std::size_t i = 0; i < count; ++i) {
    slots[i].kind = Kind::kBench;
    slots[i].request = requests ? &requests[i] : nullptr;
    slots[i].document = documents ? &documents[i] : nullptr;
    slots[i].iterations = iterations;
  }
  std::vector<std::optional<std::uint64_t>> out(count);
  if (count == 0) return out;
  auto answered = impl.call(std::move(slots), false);
  for (std::size_t i = 0; i < count; ++i) out[i] = answered[i].nanos;
  return out;
}

}  // namespace

std::optional<std::uint64_t> AdapterPool::bench(const DecodeRequest& request, std::uint64_t iterations) {
  return run_bench(*impl_, 1, &request, nullptr, iterations)[0];
}

std::vector<std::optional<std::uint64_t>> AdapterPool::bench_each(const std::vector<DecodeRequest>& requests,
                                                                  std::uint64_t iterations) {
  return run_bench(*impl_, requests.size(), requests.data(), nullptr, iterations);
}

std::optional<std::uint64_t> AdapterPool::bench_validate(const ValidateRequest& request,
                                                         std::uint64_t iterations) {
  return run_bench(*impl_, 1, nullptr, &request, iterations)[0];
}

std::vector<std::optional<std::uint64_t>> AdapterPool::bench_validate_each(
    const std::vector<ValidateRequest>& requests, std::uint64_t iterations) {
  return run_bench(*impl_, requests.size(), nullptr, requests.data(), iterations);
}

AdapterPool::Stats AdapterPool::stats() const { return impl_->stats(); }

void AdapterPool::shed() { impl_->request_shed(); }

void AdapterPool::cut() { impl_->request_cut(); }

void AdapterPool::shutdown() { impl_->shutdown(); }

}  // namespace crosscheck::exec
