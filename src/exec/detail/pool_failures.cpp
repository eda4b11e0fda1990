// pool_failures.cpp: deadlines, failures and what is given up.
// Deadline: a process is hung when its oldest request has waited its budget (one deadline; a batch
// line's is paced, batch_budget()) since it was sent or since the process last answered, whichever
// is later; so a healthy adapter working through a deep pipeline is never cut short.
// Every failure kills the process group, reaps it and starts a fresh process (a new handshake).
// Exactly one request is charged: the one the failure names (a bad or repeated answer, an over-long
// line starting with its id, an expired deadline), else the oldest in flight, which is the one a
// sequential adapter was working on. The other requests in flight (bystanders) are retried once,
// each alone on a process, so a failure during a retry is that request's own: every request is sent
// at most twice. The exceptions: an answer repeating an id with other content, which cannot say
// whose it is, and a failure of a batch line; nobody is charged and everything is retried alone.
// Circuit breaker: after kFailuresInARow failures of one process without a good answer, its next
// request runs alone and is a payload the pool has seen answered (the canary) when there is one; a
// failure then leaves it down until the oldest call is answered. A restart whose handshake fails
// leaves the process down too; the next call tries the down processes again.
// shed() and cut() (AdapterPool) and a stop give up requests here, on the pool's thread.
#include <algorithm>
#include <deque>

#include "exec/detail/pool_impl.hpp"
#include "exec/protocol_codec.hpp"
#include "exec/stop_signal.hpp"

namespace crosscheck::exec {

using namespace pool_detail;

void AdapterPool::Impl::handshake_failed(Proc& p, std::string why) {
  p.process->drain_stderr();
  p.process->kill();
  p.down_tail = p.process->stderr_tail();
  p.process.reset();
  p.state = State::kDown;
  p.down_reason = std::move(why);
  p.gave_up = false;
  p.down_outcome = Outcome::kCrash;
  ++p.generation;
}

void AdapterPool::Impl::fail(Proc& p, std::optional<std::size_t> culprit, Outcome outcome,
                             std::string message, bool blame_oldest) {
  if (starting) {
    handshake_failed(p, "after its hello: " + message);
    return;
  }
  p.process->drain_stderr();
  p.process->kill();
  std::string tail = p.process->stderr_tail();
  auto now = Clock::now();
  double ms = 0;
  // A batch is answered in one line, so the oldest entry of a batch is no likelier to be the one at
  // fault than its others: nobody is charged, and each is retried alone, where a failure is its own.
  if (!culprit && blame_oldest && !p.in_flight.empty() && !shares_batch(p, p.in_flight.begin()->second)) {
    culprit = p.in_flight.begin()->second.slot;
  }
  for (const auto& [id, f] : p.in_flight) {
    if (culprit && f.slot == *culprit) ms = millis(now - f.sent);
  }
  bool canary_failed = culprit == kCanary;
  if (culprit && !canary_failed) finish(*culprit, outcome, message, tail, ms);
  // Bystanders go back to the front of the queue, in their original order, to be retried alone.
  for (auto it = p.in_flight.rbegin(); it != p.in_flight.rend(); ++it) {
    std::size_t slot = it->second.slot;
    if (slot == kCanary || (culprit && slot == *culprit)) continue;
    this->slot(slot).retried = true;
    pending.push_front(slot);
  }
  p.in_flight.clear();
  p.batches.clear();
  ++p.failures_in_a_row;
  if (stop_requested()) {  // no restart while stopping; the next call starts a fresh one
    p.process.reset();
    p.state = State::kDown;
    p.down_reason.clear();
    ++p.generation;
    return;
  }
  if (canary_failed) {
    give_up(p, outcome,
            "it failed " + std::to_string(p.failures_in_a_row - 1) +
                " times in a row, then also on a payload it had answered before (" + message + ")");
    return;
  }
  if (p.probation || (p.failures_in_a_row >= kFailuresInARow && canary_request() == nullptr)) {
    give_up(p, outcome,
            "it failed " + std::to_string(p.failures_in_a_row) +
                " times in a row without a good answer (last: " + message + ")");
    return;
  }
  if (p.failures_in_a_row >= kFailuresInARow) p.probation = true;
  ++counters.restarts;
  launch(p);
}

// The circuit breaker opens: this process stays down until the oldest call is answered (its requests go to
// the other processes, or get `outcome` naming why); the next call tries it again, on probation.
void AdapterPool::Impl::give_up(Proc& p, Outcome outcome, std::string why) {
  p.process.reset();
  p.state = State::kDown;
  p.down_reason = std::move(why);
  p.down_tail.clear();
  p.gave_up = true;
  p.down_outcome = outcome;
  p.probation = true;
  ++p.generation;
}

const DecodeRequest* AdapterPool::Impl::canary_request() const {
  if (canary) return &*canary;
  if (!good_slot) return nullptr;
  const Slot& s = slot(*good_slot);
  // Its answer may have been overturned since (answered twice): then it proves nothing.
  bool good = s.done && s.result.outcome != Outcome::kCrash && s.result.outcome != Outcome::kTimeout &&
              s.result.outcome != Outcome::kProtocol;
  return good ? s.request : nullptr;
}

void AdapterPool::Impl::on_eof(Proc& p) {
  // Let the child finish dying, so its status and last stderr lines are known.
  bool exited = p.process->wait_exit(kExitGrace);
  p.process->drain_stderr();
  std::string partial = p.process->partial_line();
  p.process->kill();
  std::string unterminated = partial.empty() ? "" : "; unterminated last line: " + protocol::excerpt(partial);
  if (p.state == State::kStarting) {
    handshake_failed(p, (exited ? "exited during the handshake (" + p.process->status_text() + ")"
                                : "closed its stdout during the handshake but kept running (killed)") +
                            unterminated);
    return;
  }
  // A process that is gone crashed; one that closed its stdout and lives on broke the protocol.
  if (exited) {
    fail(p, std::nullopt, Outcome::kCrash, "adapter " + p.process->status_text() + unterminated);
  } else {
    fail(p, std::nullopt, Outcome::kProtocol,
         "adapter closed its stdout but was still running " + duration_text(kExitGrace) + " later (killed)" +
             unterminated);
  }
}

void AdapterPool::Impl::on_overlong(Proc& p) {
  std::string why = "answer line longer than " + std::to_string(options.max_line_bytes) +
                    " bytes: " + protocol::excerpt(p.process->overlong_prefix(), 60);
  if (p.state == State::kStarting) {
    handshake_failed(p, "hello " + why);
    return;
  }
  std::optional<std::size_t> culprit;
  if (auto id = protocol::sniff_id(p.process->overlong_prefix())) {
    if (auto it = p.in_flight.find(*id); it != p.in_flight.end()) culprit = it->second.slot;
  }
  fail(p, culprit, Outcome::kProtocol, std::move(why));
}

Clock::time_point AdapterPool::Impl::next_deadline() const {
  auto next = Clock::time_point::max();
  for (const Proc& p : procs) {
    if (p.state == State::kStarting) next = std::min(next, p.hello_by);
    if (p.state == State::kReady && !p.in_flight.empty()) {
      const InFlight& oldest = p.in_flight.begin()->second;
      next = std::min(next, std::max(oldest.sent, p.last_progress) + oldest.budget);
    }
  }
  return next;
}

void AdapterPool::Impl::check_deadlines() {
  auto now = Clock::now();
  for (Proc& p : procs) {
    if (p.state == State::kStarting && now >= p.hello_by) {
      handshake_failed(p, "no hello within " + duration_text(options.hello_deadline));
    } else if (p.state == State::kReady && !p.in_flight.empty()) {
      const InFlight oldest = p.in_flight.begin()->second;
      if (now >= std::max(oldest.sent, p.last_progress) + oldest.budget) {
        const std::string& partial = p.process->partial_line();
        std::optional<std::size_t> culprit;
        if (!shares_batch(p, oldest)) culprit = oldest.slot;
        fail(p, culprit, Outcome::kTimeout,
             "no answer within " + duration_text(oldest.budget) + "; adapter killed" +
                 (partial.empty() ? "" : "; unterminated output: " + protocol::excerpt(partial)),
             culprit.has_value());
      }
    }
  }
}

// One line answers the whole batch, so the process shows no progress until all its entries are
// done: the line gets one deadline plus its entries' work at the pace seen so far (a batch of slow
// validates is not a hang), never more than a deadline per entry. A deadline per entry outright let
// one hung batch hold the pool, and every run waiting on it, for minutes.
Clock::duration AdapterPool::Impl::batch_budget(const Proc& p, std::size_t entry_count) const {
  const auto entries = static_cast<long>(entry_count);
  auto work = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(kBatchPaceSlack * static_cast<double>(entries) * p.entry_seconds));
  return std::min<Clock::duration>(options.deadline + work, options.deadline * entries);
}

void AdapterPool::Impl::note_batch_pace(Proc& p, const std::vector<std::uint64_t>& entries) {
  if (entries.empty()) return;
  auto first = p.in_flight.find(entries.front());
  if (first == p.in_flight.end()) return;
  note_pace(p, first->second.sent, entries.size());
}

void AdapterPool::Impl::note_pace(Proc& p, Clock::time_point sent, std::size_t entries) {
  // A line's clock started when it was sent or when the process last answered, whichever is later
  // (as its deadline's does): before that the process was busy with the lines ahead of it.
  auto elapsed = Clock::now() - std::max(sent, p.last_progress);
  double per_entry = std::chrono::duration<double>(elapsed).count() / static_cast<double>(entries);
  p.entry_seconds = p.entry_seconds == 0 ? per_entry : 0.8 * p.entry_seconds + 0.2 * per_entry;
}

void AdapterPool::Impl::relaunch_down() {
  for (Proc& p : procs) {
    if (p.state == State::kDown) {
      ++counters.restarts;
      launch(p);
    }
  }
}

void AdapterPool::Impl::shed_pending() {
  std::uint64_t through;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    through = shed_through;
  }
  if (through == shed_done) return;
  shed_done = through;
  // Only calls made before the shed: a call made since is work the caller still wants. A retry is
  // kept too: it is how a failure inside a batch finds its culprit (the finding the stall is about).
  std::deque<std::size_t> kept;
  for (std::size_t i : pending) {
    if (slot(i).retried || job_seq(i) > through) {
      kept.push_back(i);
      continue;
    }
    finish(i, Outcome::kError, "skipped: the adapter was still busy with earlier requests", "", 0);
    slot(i).result.skipped = true;
  }
  pending = std::move(kept);
}

void AdapterPool::Impl::cut_calls() {
  std::uint64_t through;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    through = cut_through;
  }
  if (through == cut_done) return;
  cut_done = through;
  bool any = false;
  for (std::size_t i = slot_base; i < slot_base + slots.size(); ++i) {
    if (slot(i).done || job_seq(i) > through) continue;
    abandon(i, "cut: the run's time was up");
    any = true;
  }
  if (!any) return;
  std::erase_if(pending, [this](std::size_t i) { return slot(i).done; });
  // A process still working on what was cut would answer into a later call: end it. What it had of
  // a later call goes back to the queue, untouched.
  for (Proc& p : procs) {
    for (auto it = p.in_flight.rbegin(); it != p.in_flight.rend(); ++it) {
      if (it->second.slot != kCanary && !slot(it->second.slot).done) pending.push_front(it->second.slot);
    }
  }
  end_busy_processes();
}

void AdapterPool::Impl::interrupt() {
  for (std::size_t i = slot_base; i < slot_base + slots.size(); ++i) {
    if (!slot(i).done) abandon(i, "interrupted");
  }
  pending.clear();
  end_busy_processes();
}

// Processes still working on requests given up would answer into the next call: end them; the
// next call starts fresh ones.
void AdapterPool::Impl::end_busy_processes() {
  for (Proc& p : procs) {
    if (p.state == State::kStarting || (p.state == State::kReady && !p.in_flight.empty())) {
      p.process->kill();
      p.process.reset();
      p.state = State::kDown;
      p.down_reason.clear();
      p.in_flight.clear();
      p.batches.clear();
      ++p.generation;
    }
  }
}

}  // namespace crosscheck::exec
