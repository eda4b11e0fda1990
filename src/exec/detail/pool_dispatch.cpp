// pool_dispatch.cpp: pending requests to the processes that can take them, the least loaded first,
// up to max_in_flight each; a retry or a process on probation gets a process to itself. An adapter
// whose hello lists the batch op gets what would be pipelined to it grouped into batch lines
// (docs/protocol.md, batch). When every process is down, the oldest call's requests are answered
// with the reason.
#include <algorithm>

#include "exec/detail/pool_impl.hpp"
#include "exec/protocol_codec.hpp"

namespace crosscheck::exec {

using namespace pool_detail;

// Can `p` take one more request now? A lone request (a retry, or a process's first request on
// probation) needs a process with nothing in flight, and keeps it to itself.
bool AdapterPool::Impl::takes(const Proc& p, bool alone) const {
  if (p.state != State::kReady || p.process->queued_bytes() >= kMaxQueuedBytes) return false;
  if (!p.in_flight.empty() && (alone || p.probation || p.in_flight.begin()->second.alone)) return false;
  return p.in_flight.size() < options.max_in_flight;
}

void AdapterPool::Impl::dispatch() {
  auto now = Clock::now();
  // A process on probation proves itself on the canary first, when there is one.
  for (Proc& p : procs) {
    const DecodeRequest* c =
        p.probation && p.state == State::kReady && p.in_flight.empty() ? canary_request() : nullptr;
    if (c == nullptr) continue;
    std::uint64_t id = next_id++;
    p.process->enqueue(protocol::decode_request(id, c->root, c->input));
    p.in_flight[id] = InFlight{kCanary, now, options.deadline, true};
  }
  while (!pending.empty()) {
    std::size_t slot = pending.front();
    const Slot& s = this->slot(slot);
    Proc* best = nullptr;
    for (Proc& p : procs) {
      if (takes(p, s.retried) && (best == nullptr || p.in_flight.size() < best->in_flight.size())) best = &p;
    }
    if (best == nullptr) break;  // in order: a retry waits for an idle process
    pending.pop_front();
    std::uint64_t id = next_id++;
    Clock::duration budget = options.deadline;
    bool alone = s.retried || best->probation;
    if (s.kind != Kind::kBench && !alone && best->batch_limit > 1) {
      std::string entry = s.kind == Kind::kDecode
                              ? protocol::decode_request(id, s.request->root, s.request->input)
                              : protocol::validate_request(id, s.document->document, s.document->input);
      best->batch_bytes += entry.size();
      best->batch_lines.push_back(std::move(entry));
      best->batch_ids.push_back(id);
      best->in_flight[id] = InFlight{slot, now, budget, false, 0};
      if (best->batch_lines.size() >= best->batch_limit || best->batch_bytes >= kBatchBytes)
        send_batch(*best);
      continue;
    }
    if (s.kind == Kind::kDecode) {
      best->process->enqueue(protocol::decode_request(id, s.request->root, s.request->input));
    } else if (s.kind == Kind::kValidate) {
      best->process->enqueue(protocol::validate_request(id, s.document->document, s.document->input));
    } else {
      // The bench op runs `iterations` decodes: allow a tenth of a deadline for each.
      budget *= static_cast<long>(std::clamp<std::uint64_t>((s.iterations + 9) / 10, 1, 1000000));
      best->process->enqueue(
          s.document
              ? protocol::bench_validate_request(id, s.document->document, s.document->input, s.iterations)
              : protocol::bench_request(id, s.request->root, s.request->input, s.iterations));
    }
    best->in_flight[id] = InFlight{slot, now, budget, alone};
  }
  for (Proc& p : procs) {
    if (!p.batch_lines.empty()) send_batch(p);
    if (p.process && p.process->wants_write()) p.process->flush();
  }
  if (pending.empty()) return;
  bool alive = std::any_of(procs.begin(), procs.end(), [](const Proc& p) { return p.state != State::kDown; });
  if (alive) return;
  std::string reason = "stopped", tail;
  Outcome outcome = Outcome::kCrash;
  for (const Proc& p : procs) {
    if (!p.down_reason.empty()) {
      reason = p.gave_up ? p.down_reason : "could not restart it: " + p.down_reason;
      tail = p.down_tail;
      outcome = p.down_outcome;
      break;
    }
  }
  // Only the oldest call's requests: it is then answered, and the calls behind it try the down
  // processes again first (relaunch_down()), as the next call always has.
  const Job& front = jobs.front();
  std::deque<std::size_t> later;
  for (std::size_t slot : pending) {
    if (slot < front.first + front.count) {
      finish(slot, outcome, name() + " is down: " + reason, tail, 0);
    } else {
      later.push_back(slot);
    }
  }
  pending = std::move(later);
}

// Sends the entries dispatch() collected for `p`: one alone as its own line (the adapter's answer
// is the same either way), more as one batch line under an id of its own.
void AdapterPool::Impl::send_batch(Proc& p) {
  if (p.batch_lines.size() == 1) {
    p.process->enqueue(p.batch_lines.front());
  } else {
    std::uint64_t batch_id = next_id++;
    p.process->enqueue(protocol::batch_request(batch_id, p.batch_lines));
    const Clock::duration budget = batch_budget(p, p.batch_ids.size());
    for (std::uint64_t id : p.batch_ids) {
      InFlight& f = p.in_flight[id];
      f.batch = batch_id;
      f.budget = budget;
    }
    p.batches[batch_id] = p.batch_ids;
  }
  p.batch_lines.clear();
  p.batch_ids.clear();
  p.batch_bytes = 0;
}

bool AdapterPool::Impl::shares_batch(const Proc& p, const InFlight& f) const {
  if (f.batch == 0) return false;
  auto it = p.batches.find(f.batch);
  return it != p.batches.end() && it->second.size() > 1;
}

}  // namespace crosscheck::exec
