// generation_pacer.cpp: the generation thread's CPU share while the sender is behind (see
// generation_pacer.hpp).
#include "campaign/generation_pacer.hpp"

#include <time.h>

#include <algorithm>
#include <exception>
#include <thread>

#include "util/thread_priority.hpp"

namespace crosscheck::campaign {
namespace {

// Credit a burst may run ahead of the share: a few steps, so the budget is smooth and never builds
// up over a long stretch in which the sender had room. The credit is refilled whenever the sender has
// room, so a burst follows every batch: at 5 ms it was some fifty steps of inputs nobody sent, a fifth
// of the Python SDK's time per batch (docs/benchmarks.md, 2026-12-06, seventh session).
constexpr double kBurstSeconds = 0.001;
// How much the paced loop's nice value is raised: a weight of about a tenth of an adapter's when both
// want one core.
constexpr int kPacedNice = 10;
// The longest single wait: the loop checks --time, --runs and Ctrl-C between steps.
constexpr auto kMaxWait = std::chrono::milliseconds(20);

}  // namespace

double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

GenerationPacer::GenerationPacer(double share)
    : share_(share), credit_(kBurstSeconds), last_wall_(Clock::now()), last_cpu_(thread_cpu_seconds()) {}

void GenerationPacer::after_step(Sender& sender) {
  if (share_ >= 1) return;
  const auto now = Clock::now();
  const double cpu = thread_cpu_seconds();
  const double wall = std::chrono::duration<double>(now - last_wall_).count();
  const double used = cpu - last_cpu_;
  last_wall_ = now;
  last_cpu_ = cpu;
  if (!sender.behind()) {
    credit_ = kBurstSeconds;  // the adapters can take more: refill at full speed
    return;
  }
  credit_ = std::min(kBurstSeconds, credit_ + share_ * wall - used);
  if (credit_ >= 0) return;
  // Waiting w seconds earns share * w of credit: wait until it is back to zero, or there is room.
  auto wait =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::duration<double>(-credit_ / share_));
  wait = std::min<std::chrono::microseconds>(wait, kMaxWait);
  const auto before = Clock::now();
  sender.wait_for_room(wait);
  waited_ += std::chrono::duration<double>(Clock::now() - before).count();
}

void run_generation_thread(bool lower, const std::function<void()>& loop) {
  std::exception_ptr error;
  std::thread thread([&] {
    if (lower) raise_own_nice(kPacedNice);
    try {
      loop();
    } catch (...) {
      error = std::current_exception();
    }
  });
  thread.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace crosscheck::campaign
