// impl_set_stuck.cpp: one stuck adapter must not stall the others (implementation_set.hpp,
// skip_stuck()): each member's batch pace, an adapter found stuck shed and left out of the batches
// started until it has answered its backlog, and every adapter's calls cut when the run's time is up.
#include <algorithm>
#include <future>

#include "exec/detail/impl_set_member.hpp"
#include "exec/implementation_set.hpp"

namespace crosscheck::exec {

using core::ImplResult;
using core::ValidateResult;

void ImplementationSet::skip_batch(InFlight& flight, std::size_t member) {
  Member& m = *members_[member];
  const std::size_t count = flight.batch.size();
  if (flight.layers.structural) {
    flight.per_member[member].assign(count, ImplResult{});
    for (auto& r : flight.per_member[member]) {
      r.implementation = m.name;
      r.message = "skipped: the adapter was stuck on earlier requests";
      r.skipped = true;
    }
  }
  if (flight.layers.canonical) {
    flight.verdicts[member].assign(flight.to_validate.size(), ValidateResult{});
    for (auto& r : flight.verdicts[member]) {
      r.implementation = m.name;
      r.message = "skipped: the adapter was stuck on earlier requests";
      r.skipped = true;
    }
  }
}

void ImplementationSet::Member::note_answered() {
  std::lock_guard<std::mutex> pace(pace_mutex);
  auto now = std::chrono::steady_clock::now();
  if (unanswered.empty()) return;
  // The batch's clock starts when it was handed over or when the one ahead of it was answered.
  auto began = std::max(unanswered.front(), last_answered);
  unanswered.pop_front();
  last_answered = now;
  // What it took while stuck is the hang's, not the member's pace (the hang would otherwise raise
  // the bar for noticing the next one); one slow batch moves the average at most 4-fold.
  if (stuck) return;
  double took = std::chrono::duration<double>(now - began).count();
  if (batch_seconds > 0) took = std::min(took, 4 * batch_seconds);
  batch_seconds = batch_seconds == 0 ? took : 0.8 * batch_seconds + 0.2 * took;
}

std::vector<std::string> ImplementationSet::skip_stuck(std::chrono::milliseconds floor) {
  std::vector<std::string> newly;
  auto now = std::chrono::steady_clock::now();
  for (auto& m : members_) {
    if (!m->pool) continue;
    bool waited_too_long = false;
    bool backlog = false;
    {
      std::lock_guard<std::mutex> pace(m->pace_mutex);
      backlog = !m->unanswered.empty();
      if (backlog) {
        auto began = std::max(m->unanswered.front(), m->last_answered);
        // Stuck: the batch at the front has taken far longer than this member's batches take.
        auto allowed = floor + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(kStuckPaceFactor * m->batch_seconds));
        waited_too_long = now - began > allowed;
      }
    }
    if (m->stuck && !backlog) m->stuck = false;  // answered everything it had: back in the run
    if (!m->stuck && waited_too_long) {
      m->stuck = true;
      m->pool->shed();  // what it has not started of its backlog is skipped, not waited for
      newly.push_back(m->name);
    }
  }
  return newly;
}

bool ImplementationSet::ready(const InFlight& flight) const {
  for (const auto& p : flight.pending) {
    if (p.valid() && p.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
  }
  return true;
}

bool ImplementationSet::wait_ready(const InFlight& flight, std::chrono::milliseconds max_wait) const {
  const auto until = std::chrono::steady_clock::now() + max_wait;
  for (const auto& p : flight.pending) {
    if (p.valid() && p.wait_until(until) != std::future_status::ready) return false;
  }
  return true;
}

bool ImplementationSet::waits_only_on_stuck(const InFlight& flight) const {
  bool waits = false;
  for (std::size_t i = 0; i < flight.pending.size(); ++i) {
    const auto& p = flight.pending[i];
    if (!p.valid() || p.wait_for(std::chrono::seconds(0)) == std::future_status::ready) continue;
    if (!members_[i]->stuck) return false;
    waits = true;
  }
  return waits;
}

void ImplementationSet::cut_adapters() {
  for (auto& m : members_) {
    if (m->pool) m->pool->cut();
  }
}

std::map<std::string, std::uint64_t> ImplementationSet::skipped_payloads() const {
  std::map<std::string, std::uint64_t> out;
  for (const auto& m : members_) {
    if (m->skipped) out[m->name] = m->skipped;
  }
  return out;
}

}  // namespace crosscheck::exec
