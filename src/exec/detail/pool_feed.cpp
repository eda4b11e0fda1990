// pool_feed.cpp: calls between the callers' threads and the pool's. Callers queue calls (submit())
// under feed_mutex and wake the loop's poll() through a self-pipe; the pool's thread, started by the
// first call, takes each call's requests into one queue as they come (admit()), so a call queued
// behind another is dispatched while that one is still in flight, and answers the calls in the order
// they came once all their requests are done (deliver_done()). A caller that waits (call()) on an
// idle pool drives its call itself instead.
#include <unistd.h>

#include <algorithm>
#include <future>

#include "exec/detail/pool_impl.hpp"
#include "exec/sigpipe_guard.hpp"
#include "exec/stop_signal.hpp"

namespace crosscheck::exec {

using namespace pool_detail;

void AdapterPool::Impl::submit(std::vector<Slot> call, bool counted, Deliver deliver) {
  std::unique_lock<std::mutex> feed(feed_mutex);
  if (feed_closed) {
    // Shut down: the pool's thread is gone (or going), so this caller answers, without the pool.
    for (Slot& s : call) {
      s.result = ImplResult{};
      s.result.implementation = spec.name;
      s.result.outcome = Outcome::kError;
      s.result.message = "the pool is shut down";
      s.result.abandoned = true;
      s.done = true;
    }
    feed.unlock();
    deliver(call, nullptr);
    return;
  }
  incoming.push_back(Queued{std::move(call), counted, std::move(deliver), ++calls_made});
  if (!worker.joinable()) worker = std::thread([this] { serve(); });
  feed.unlock();
  feed_cv.notify_one();
  wake_feed();
}

std::vector<Slot> AdapterPool::Impl::call(std::vector<Slot> call, bool counted) {
  std::optional<std::vector<Slot>> answered;
  std::exception_ptr failed;
  {
    std::unique_lock<std::mutex> feed(feed_mutex);
    std::unique_lock<std::mutex> engine(engine_mutex, std::defer_lock);
    // Nothing queued and the pool's thread idle: this thread drives the call itself, as if the pool
    // had no thread (no hand-over to another thread and back for a caller that waits anyway).
    if (!feed_closed && incoming.empty() && engine.try_lock() && jobs.empty()) {
      const std::uint64_t seq = ++calls_made;
      feed.unlock();
      SigpipeGuard guard;
      try {
        admit(
            std::move(call), counted,
            [&](std::vector<Slot>& slots, std::exception_ptr error) {
              if (error) {
                failed = error;
              } else {
                answered = std::move(slots);
              }
            },
            seq);
      } catch (...) {
        fail_all(std::current_exception());
        if (!failed) throw;  // the call was not taken
      }
      drive(false);
      if (failed) std::rethrow_exception(failed);
      return std::move(*answered);
    }
  }
  std::promise<std::vector<Slot>> promised;
  auto future = promised.get_future();
  submit(std::move(call), counted, [&promised](std::vector<Slot>& slots, std::exception_ptr error) {
    if (error) {
      promised.set_exception(error);
    } else {
      promised.set_value(std::move(slots));
    }
  });
  return future.get();
}

void AdapterPool::Impl::serve() {
  SigpipeGuard guard;  // for the thread's whole life: it writes to the children
  std::unique_lock<std::mutex> feed(feed_mutex);
  while (true) {
    feed_cv.wait(feed, [this] { return !incoming.empty() || feed_closed; });
    if (incoming.empty()) return;  // closed, and every call answered
    feed.unlock();
    {
      std::lock_guard<std::mutex> engine(engine_mutex);
      drive(true);
    }
    feed.lock();
  }
}

void AdapterPool::Impl::take_incoming() {
  std::deque<Queued> taken;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    taken.swap(incoming);
  }
  for (Queued& q : taken) admit(std::move(q.slots), q.counted, std::move(q.deliver), q.seq);
}

void AdapterPool::Impl::drive(bool take_queued) {
  try {
    while (true) {
      if (take_queued) take_incoming();
      deliver_done();
      if (jobs.empty()) return;
      step();
    }
  } catch (...) {
    fail_all(std::current_exception());
  }
}

void AdapterPool::Impl::admit(std::vector<Slot> call, bool counted, Deliver deliver, std::uint64_t seq) {
  const bool idle = jobs.empty();
  Job job{slot_base + slots.size(), call.size(), 0, counted, std::move(deliver), seq};
  for (Slot& s : call) slots.push_back(std::move(s));
  jobs.push_back(std::move(job));
  const Job& taken = jobs.back();
  const bool refused = closed || stop_requested();
  for (std::size_t i = taken.first; i < taken.first + taken.count; ++i) {
    if (refused) {
      abandon(i, closed ? "the pool is shut down" : "interrupted");
    } else {
      pending.push_back(i);
    }
  }
  if (refused || taken.count == 0 || !idle) return;
  for (Proc& p : procs) p.last_read = Clock::time_point();  // idle since the last call
  // Anything a ready process wrote while idle belongs to no request: settle it before sending.
  service(Clock::duration::zero());
  check_exits();
  relaunch_down();
}

void AdapterPool::Impl::deliver_done() {
  while (front_done()) {
    Job job = std::move(jobs.front());
    jobs.pop_front();
    const std::size_t end = job.first + job.count;
    // The call's requests are the caller's again once it is answered: a canary is copied first.
    if (good_slot && *good_slot < end) {
      if (!canary && canary_request() != nullptr) canary = *canary_request();
      good_slot.reset();
    }
    // A repeat of one of its answers from now on is an answer for an unknown id.
    for (Proc& p : procs)
      std::erase_if(p.answered, [end](const auto& entry) { return entry.second.slot < end; });
    if (job.counted) counters.requests += job.count;
    std::vector<Slot> answered = take_front_slots(job.count);
    // The next call starts as a call to an idle pool would: a process given up during this one, or
    // whose restart failed, gets another chance.
    if (!jobs.empty() && !stop_requested()) relaunch_down();
    job.deliver(answered, nullptr);
  }
}

// The loop threw (out of memory, most likely): every call taken or queued gets the error, and the
// processes with work are ended, as on a stop, so that nothing answers into a later call.
void AdapterPool::Impl::fail_all(std::exception_ptr error) {
  end_busy_processes();
  for (Proc& p : procs) p.answered.clear();
  pending.clear();
  good_slot.reset();
  std::deque<Job> failed = std::move(jobs);
  jobs.clear();
  for (Job& job : failed) {
    std::vector<Slot> taken = take_front_slots(job.count);
    job.deliver(taken, error);
  }
  std::deque<Queued> queued;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    queued.swap(incoming);
  }
  for (Queued& q : queued) q.deliver(q.slots, error);
}

std::vector<Slot> AdapterPool::Impl::take_front_slots(std::size_t count) {
  auto end = slots.begin() + static_cast<std::ptrdiff_t>(count);
  std::vector<Slot> taken(std::make_move_iterator(slots.begin()), std::make_move_iterator(end));
  slots.erase(slots.begin(), end);
  slot_base += count;
  return taken;
}

std::uint64_t AdapterPool::Impl::job_seq(std::size_t i) const {
  for (const Job& j : jobs) {
    if (i >= j.first && i < j.first + j.count) return j.seq;
  }
  return 0;
}

void AdapterPool::Impl::wake_feed() {
  if (feed_wake[1] < 0) return;
  char byte = 1;
  [[maybe_unused]] auto n = ::write(feed_wake[1], &byte, 1);  // a full pipe already wakes the poll
}

void AdapterPool::Impl::request_shed() {
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    shed_through = calls_made;
  }
  wake_feed();
}

void AdapterPool::Impl::request_cut() {
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    cut_through = calls_made;
  }
  wake_feed();
}

AdapterPool::Stats AdapterPool::Impl::stats() const {
  std::lock_guard<std::mutex> engine(engine_mutex);  // waits until the pool's thread is idle
  Stats s = counters;
  s.down = static_cast<std::size_t>(std::count_if(procs.begin(), procs.end(), [](const Proc& p) {
    return p.state == State::kDown && !p.down_reason.empty();
  }));
  s.cpu_seconds = reaped_cpu->load();
  for (const Proc& p : procs)
    if (p.process) s.cpu_seconds += p.process->live_cpu_seconds();
  return s;
}

}  // namespace crosscheck::exec
