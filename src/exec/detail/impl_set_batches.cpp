// impl_set_batches.cpp: a batch to every member of the set: each pool gets its decode and validate
// calls queued behind what it still has (start()), the in-process reference answers on the calling
// thread, and finish() compares each payload's answers within each schema group, per layer.
#include <algorithm>
#include <atomic>
#include <future>

#include "canonical/canonical_validator.hpp"
#include "exec/detail/impl_set_member.hpp"
#include "exec/implementation_set.hpp"
#include "layers/canonical/canonical_comparator.hpp"
#include "layers/structural/comparator.hpp"

namespace crosscheck::exec {

using core::ImplResult;
using core::Layers;
using core::Outcome;
using core::PayloadResults;
using core::ValidateResult;
using core::Verdict;
using layers::canonical::compare_canonical;
using layers::structural::compare;
using layers::structural::CompareOptions;

std::vector<std::vector<ValidateResult>> ImplementationSet::validate(
    const std::vector<ValidateRequest>& batch) {
  std::vector<std::vector<ValidateResult>> per_member(members_.size());
  std::vector<std::future<std::vector<ValidateResult>>> pending(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) {
      AdapterPool* pool = members_[i]->pool.get();
      pending[i] = std::async(std::launch::async, [pool, &batch] { return pool->validate(batch); });
    }
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) continue;
    for (const auto& req : batch) per_member[i].push_back(reference_validate(*members_[i], req));
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) per_member[i] = pending[i].get();
    for (auto& r : per_member[i]) r.implementation = members_[i]->name;
  }
  std::vector<std::vector<ValidateResult>> out(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    for (auto& results : per_member) out[k].push_back(std::move(results[k]));
  }
  return out;
}

std::vector<PayloadResults> ImplementationSet::run(const std::vector<DecodeRequest>& batch,
                                                   const Layers& layers) {
  return finish(start(batch, layers));
}

std::unique_ptr<ImplementationSet::InFlight> ImplementationSet::start(
    std::vector<DecodeRequest> requests, const Layers& with,
    const std::vector<const ReferenceDecode*>& decoded) {
  auto flight = std::make_unique<InFlight>();
  flight->batch = std::move(requests);
  flight->layers = with;
  const auto& batch = flight->batch;
  const Layers& layers = flight->layers;
  // The schema document of each payload's root, as the validators name it (one place: canonical's
  // root_document); a root without a document is validated as "" and answered unsupported.
  auto& to_validate = flight->to_validate;
  if (layers.canonical) {
    for (const auto& req : batch)
      to_validate.push_back({canonical::root_document(*schemas_.front(), req.root), req.input});
  }
  auto& per_member = flight->per_member;
  auto& verdicts = flight->verdicts;
  per_member.resize(members_.size());
  verdicts.resize(members_.size());
  // Each pool gets its decode and then its validate call, queued behind what it still has (an
  // earlier batch): its own thread answers them, the pools in parallel. The answers are
  // written into the InFlight, which stays where it is (and waits for them) until finish().
  auto& pending = flight->pending;
  pending.resize(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!members_[i]->pool) continue;
    Member& member = *members_[i];
    if (member.stuck) {  // skip_stuck(): the run goes on without it until it has answered its backlog
      skip_batch(*flight, i);
      continue;
    }
    {
      std::lock_guard<std::mutex> pace(member.pace_mutex);
      member.unanswered.push_back(std::chrono::steady_clock::now());
    }
    AdapterPool* pool = members_[i]->pool.get();
    InFlight* f = flight.get();
    // Each of the member's calls keeps its own error; the last one answered settles the future: on
    // the pool's thread, or on this one for a validate the adapter's hello rules out.
    struct Calls {
      std::promise<void> answered;
      std::atomic<int> left;
      std::exception_ptr decode_error, validate_error;
    };
    auto calls = std::make_shared<Calls>();
    calls->left = int{layers.structural} + int{layers.canonical};
    pending[i] = calls->answered.get_future();
    auto settle = [calls, &member] {
      if (calls->left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
      member.note_answered();
      if (auto error = calls->decode_error ? calls->decode_error : calls->validate_error) {
        calls->answered.set_exception(error);
      } else {
        calls->answered.set_value();
      }
    };
    if (calls->left == 0) {
      member.note_answered();
      calls->answered.set_value();
    }
    if (layers.structural) {
      pool->submit_decode(f->batch,
                          [f, i, calls, settle](std::vector<ImplResult> results, std::exception_ptr error) {
                            f->per_member[i] = std::move(results);
                            calls->decode_error = error;
                            settle();
                          });
    }
    if (layers.canonical) {
      pool->submit_validate(f->to_validate, [f, i, calls, settle](std::vector<ValidateResult> results,
                                                                  std::exception_ptr error) {
        f->verdicts[i] = std::move(results);
        calls->validate_error = error;
        settle();
      });
    }
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!members_[i]->pool) reference_batch(*flight, i, decoded);
  }
  return flight;
}

void ImplementationSet::wait_for_adapters(InFlight& flight) {
  if (flight.adapters_done) return;
  flight.adapters_done = true;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool && flight.pending[i].valid()) flight.pending[i].get();
    for (auto& r : flight.per_member[i]) r.implementation = members_[i]->name;
    for (auto& r : flight.verdicts[i]) r.implementation = members_[i]->name;
  }
}

std::vector<PayloadResults> ImplementationSet::finish(std::unique_ptr<InFlight> flight) {
  wait_for_adapters(*flight);
  const auto& batch = flight->batch;
  const Layers& layers = flight->layers;
  const auto& to_validate = flight->to_validate;
  const auto& per_member = flight->per_member;
  const auto& verdicts = flight->verdicts;
  CompareOptions options;
  options.known_names = &known_names_;
  for (const auto& m : members_) {
    if (!m->identity.reports_warnings) options.without_warnings.insert(m->name);
  }
  std::vector<PayloadResults> out(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    PayloadResults& p = out[k];
    p.root = batch[k].root;
    p.input = batch[k].input;
    std::map<std::string, std::vector<ImplResult>> groups;
    std::map<std::string, std::vector<ValidateResult>> canonical_groups;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      const std::string key = group_key(*members_[i], p.root);
      bool skipped = false;
      if (layers.structural) {
        ImplResult r = per_member[i].size() > k ? per_member[i][k] : ImplResult{};
        if (r.implementation.empty()) r.implementation = members_[i]->name;
        skipped = skipped || r.skipped;
        p.results.push_back(r);
        // A skipped member was never asked: the others are compared without it.
        if (!key.empty() && r.outcome != Outcome::kUnsupported && !r.skipped)
          groups[key].push_back(std::move(r));
      }
      if (layers.canonical) {
        ValidateResult v = verdicts[i].size() > k ? verdicts[i][k] : ValidateResult{};
        if (v.implementation.empty()) v.implementation = members_[i]->name;
        skipped = skipped || v.skipped;
        p.validations.push_back(v);
        if (!key.empty() && v.verdict != Verdict::kUnsupported && !v.skipped)
          canonical_groups[key].push_back(std::move(v));
      }
      if (skipped) {
        p.skipped.push_back(members_[i]->name);
        ++members_[i]->skipped;
      }
    }
    if (layers.canonical) p.document = to_validate[k].document;
    // A request the pool abandoned (the run is stopping: Ctrl-C, kill; or the pool is shut down) was never
    // answered: comparing it would turn the interruption into an sdk-error finding.
    bool abandoned =
        std::any_of(p.results.begin(), p.results.end(), [](const ImplResult& r) { return r.abandoned; }) ||
        std::any_of(p.validations.begin(), p.validations.end(),
                    [](const ValidateResult& r) { return r.abandoned; });
    p.interrupted = abandoned;
    if (abandoned) continue;
    for (auto& [key, results] : groups) {
      // A group of one still reports its own crash, timeout or error (and round-trip-self).
      auto ds = compare(p.root, p.input, results, options);
      p.divergences.insert(p.divergences.end(), ds.begin(), ds.end());
      p.groups.push_back(std::move(results));
    }
    std::vector<ImplResult> answered;  // the cross-layer check pairs only what was asked
    for (const auto& r : p.results)
      if (!r.skipped) answered.push_back(r);
    for (auto& [key, validations] : canonical_groups) {
      auto ds = compare_canonical(p.input, validations, answered);
      p.divergences.insert(p.divergences.end(), ds.begin(), ds.end());
    }
  }
  return out;
}

}  // namespace crosscheck::exec
