// generation_pacer.hpp: the generation loop's share of the CPU while the adapters are behind
// (`crosscheck fuzz --generation-share`).
//
// Why: on a 2-core machine the generation thread (generate, mutate, decode in process for coverage)
// takes a whole core, and the SDKs' processes get what is left; yet while the sender is behind, most
// of what it generates is dropped. So while a whole batch waits in the sender's queue, the generation
// thread may use at most `share` of one core, measured with its own CPU clock
// (CLOCK_THREAD_CPUTIME_ID, so time it lost to other processes is not charged), and waits for room
// for the rest. When the sender has room, generation runs at full speed: it then only refills what
// the adapters can take. The share left to it keeps the in-process exploration (coverage and decoder
// outcome feedback, the corpus) going while the adapters are busy. The other side of the same
// choice is in campaign.cpp: with a share below 1, a sender that is not behind gets every input, not
// only the interesting ones and 1 in --sample-every of the rest, so an adapter with room is not left
// idle. share 1 never waits and only samples (the behaviour before the option). Measured in bench/README.md
// ("The SDKs get the cores they need").
//
// A paced loop also runs at a lower priority (nice +10, run_generation_thread): the pacer only acts
// once a whole batch waits, and between two batches the loop refilling the queue at full speed took
// the adapter's core away from it for one scheduler slice after another (the Python SDK spent 12-16%
// of a run waiting to run beside rust). At nice 10 the loop still has every core nobody else wants.
#pragma once

#include <chrono>
#include <functional>

#include "campaign/sender.hpp"

namespace crosscheck::campaign {

/// CPU seconds the calling thread has used.
double thread_cpu_seconds();

class GenerationPacer {
 public:
  /// `share` in (0, 1]: the fraction of one core generation may use while the sender is behind.
  explicit GenerationPacer(double share);

  /// After each generation step: while the sender is behind and generation has used more than its
  /// share since, waits for room (at most a few milliseconds per call, so the loop still sees its
  /// time budget and Ctrl-C).
  void after_step(Sender& sender);

  double waited_seconds() const { return waited_; }  ///< wall time spent waiting
  bool paced() const { return share_ < 1; }          ///< share below 1: the loop gives way

 private:
  using Clock = std::chrono::steady_clock;
  double share_;
  double credit_;  // thread CPU seconds generation may still spend while the sender is behind
  Clock::time_point last_wall_;
  double last_cpu_;
  double waited_ = 0;
};

/// Runs `loop` on a thread of its own and waits for it; with `lower`, that thread first lowers its
/// own priority (nice +10; Linux keeps the nice value per thread). The caller's thread keeps its
/// priority, so that what it starts afterwards (processes inherit their parent thread's nice value,
/// and an unprivileged process cannot raise it back) does not inherit it. An exception of `loop` is
/// rethrown here.
void run_generation_thread(bool lower, const std::function<void()>& loop);

}  // namespace crosscheck::campaign
