// sender.hpp: the sender thread and its queue, between the generation loop and the adapters.
//
// The adapters are the bottleneck: the generation loop offers inputs to a bounded queue and never
// blocks on an SDK; when the queue is full a sample is dropped, and an interesting input waits in the
// corpus instead (it is mutated again later). A deterministic run must send every input, so there the
// generation loop waits for room. The sender takes batches from the queue, runs them through the
// implementation set and hands each input's results to the handler, on the sender thread. behind()
// and wait_for_room() let the generation loop give the CPU to the adapters while they are the
// bottleneck (campaign/generation_pacer.hpp).
//
// An error on the sender thread (a write to a full disk) stops both threads: failed() turns true, and
// finish() rethrows it on the generation thread. The thread is joined however the owner's scope is
// left (a joinable std::thread would terminate the process).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/layers.hpp"
#include "core/payload_results.hpp"
#include "exec/implementation_set.hpp"

namespace crosscheck::campaign {

/// An input on its way to the adapters.
struct Pending {
  std::string root, bytes, source;
  std::uint64_t seed = 0;
  /// The generation step's in-process decode of `bytes`, if there was one: the C++ reference takes it
  /// instead of decoding the input again.
  std::optional<exec::ImplementationSet::ReferenceDecode> decoded;
};

class Sender {
 public:
  using Handler = std::function<void(const Pending&, const core::PayloadResults&)>;

  /// `batch`: requests per adapter batch (the queue holds 8 batches). `stop_when` (may be empty) is
  /// polled before each batch, like Ctrl-C: true stops sending (the batch in flight completes).
  /// `sent_before`: inputs sent by earlier sessions of the run.
  /// `layers`: what each batch is run through (ImplementationSet::run).
  /// `deterministic`: every input is compared on every adapter, in order (no adapter is skipped for
  /// being stuck; see drain()).
  Sender(exec::ImplementationSet& impls, std::size_t batch, core::Layers layers,
         std::function<bool()> stop_when, std::uint64_t sent_before, Handler handler,
         bool deterministic = false);
  /// Stops the thread without sending what is queued, if finish() was not called.
  ~Sender();
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;

  /// Queues `p`; false when the queue was full and `p` was dropped. With `wait_for_room`, waits for
  /// room instead, unless the run is stopped (then `p` is dropped).
  bool offer(Pending p, bool wait_for_room);
  /// The run's time is up: from now on the sender is stopped (what is queued is not sent; the
  /// batches in flight get kEndGrace, then are cut). Any thread.
  void time_is_up();
  /// No more inputs: sends what is queued (unless stopped), joins the thread and rethrows its error.
  /// A stopped run gives the batches in flight a moment (kEndGrace), then cuts them.
  void finish();

  /// A whole batch waits in the queue besides the one in flight: the adapters are the bottleneck, and
  /// inputs generated now only fill the queue (and then are dropped).
  bool behind();
  /// Waits until the sender is no longer behind, it stops, or `max_wait` passes.
  void wait_for_room(std::chrono::microseconds max_wait);

  /// The sender thread failed; the generation loop stops.
  bool failed() const { return failed_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  /// A batch handed to the implementation set, with its inputs.
  struct Flight {
    std::unique_ptr<exec::ImplementationSet::InFlight> flight;
    std::vector<Pending> items;
  };
  // An adapter is stuck when its oldest batch has waited this long plus 4 of its usual batch times
  // (ImplementationSet::skip_stuck); a stopped run looks at the batches this often.
  static constexpr std::chrono::milliseconds kStuckFloor{500};
  static constexpr std::chrono::milliseconds kWaitStep{50};
  // What a stopped run gives the batches in flight before it cuts them (at most one deadline).
  static constexpr std::chrono::milliseconds kEndGrace{2000};
  // Batches held aside by a stuck adapter before the sender waits for them (bounds memory).
  static constexpr std::size_t kMaxHeld = 16;

  void loop();
  Flight start(std::vector<Pending> batch);
  void handle(std::deque<Flight>& window, std::deque<Flight>::iterator it);
  bool drain(std::deque<Flight>& window, bool all);
  void end_in_flight(std::deque<Flight>& window);
  bool stopped() const;
  void close();
  void return_stuck_adapters();

  exec::ImplementationSet& impls_;
  std::size_t batch_;
  core::Layers layers_;
  std::function<bool()> stop_when_;
  Handler handler_;
  bool deterministic_;
  std::atomic<std::uint64_t> sent_, dropped_{0};
  std::atomic<bool> failed_{false};
  std::atomic<bool> time_up_{false};
  std::exception_ptr error_;  // set by the sender before failed_, read after joining it
  std::mutex mutex_;
  std::condition_variable cv_;
  std::condition_variable room_;  // notified when the sender takes a batch
  std::deque<Pending> queue_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace crosscheck::campaign
