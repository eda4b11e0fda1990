// sender.cpp: the sender thread and its bounded queue (see sender.hpp).
#include "campaign/sender.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/layers.hpp"
#include "exec/adapter_pool.hpp"

namespace crosscheck::campaign {

Sender::Sender(exec::ImplementationSet& impls, std::size_t batch, core::Layers layers,
               std::function<bool()> stop_when, std::uint64_t sent_before, Handler handler,
               bool deterministic)
    : impls_(impls),
      batch_(batch),
      layers_(layers),
      stop_when_(std::move(stop_when)),
      handler_(std::move(handler)),
      deterministic_(deterministic),
      sent_(sent_before) {
  thread_ = std::thread([this] {
    try {
      loop();
    } catch (...) {
      error_ = std::current_exception();
      failed_ = true;
    }
  });
}

Sender::~Sender() {
  if (!thread_.joinable()) return;
  failed_ = true;  // the owner's scope is left by an error: stop without sending the rest
  close();
  thread_.join();
  return_stuck_adapters();
}

bool Sender::stopped() const {
  return exec::stop_requested() || (stop_when_ && stop_when_()) || failed_ || time_up_;
}

// Every batch is settled once the thread has ended, so no adapter has anything unanswered: asked now,
// skip_stuck() (with a floor nothing reaches) returns each adapter the run found stuck to the set.
// Without it, what uses the set after the run (the reduction, replay) would still skip that adapter,
// and its findings would not reproduce.
void Sender::return_stuck_adapters() { impls_.skip_stuck(std::chrono::hours(24 * 365)); }

void Sender::time_is_up() {
  time_up_ = true;
  close();
}

bool Sender::offer(Pending p, bool wait_for_room) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (wait_for_room && queue_.size() >= 8 * batch_ && !stopped()) {
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    lock.lock();
  }
  if (queue_.size() >= 8 * batch_) {
    ++dropped_;
    return false;
  }
  queue_.push_back(std::move(p));
  if (queue_.size() >= batch_) cv_.notify_one();  // the sender waits for a whole batch
  return true;
}

bool Sender::behind() {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size() >= batch_;
}

void Sender::wait_for_room(std::chrono::microseconds max_wait) {
  std::unique_lock<std::mutex> lock(mutex_);
  room_.wait_for(lock, max_wait, [&] { return queue_.size() < batch_ || done_ || failed_; });
}

void Sender::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  cv_.notify_all();
  room_.notify_all();
}

void Sender::finish() {
  close();
  thread_.join();
  return_stuck_adapters();
  if (error_) std::rethrow_exception(error_);
}

void Sender::loop() {
  // Batches overlap: batch k+1 is handed to the adapters before the sender waits for batch k, so a
  // pool takes k+1's requests while it still works on k (an SDK does not run dry between two
  // batches), and the adapters work on k+1 while the implementation set compares k and the handler
  // records it. Two are in flight, handled in the order the inputs were queued, unless an adapter is
  // stuck (drain()).
  std::deque<Flight> window;
  while (true) {
    std::vector<Pending> batch;
    bool done = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Wait for a whole batch (at most 200 ms): with one at the adapters this is the batch they take
      // next while they work. Taking what happens to be queued instead would alternate whole and
      // nearly empty batches (the next take follows a start at once), and a nearly empty batch
      // leaves the adapters nothing to go on with while this thread compares the last one.
      cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return queue_.size() >= batch_ || done_; });
      while (!queue_.empty() && batch.size() < batch_) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      done = done_ && queue_.empty();
    }
    room_.notify_all();
    if (stopped()) break;  // what is queued is not sent; what is in flight ends in end_in_flight()
    if (!batch.empty()) window.push_back(start(std::move(batch)));
    if (!drain(window, done)) break;
    if (done && window.empty()) return;
  }
  end_in_flight(window);
}

Sender::Flight Sender::start(std::vector<Pending> batch) {
  std::vector<exec::DecodeRequest> requests;
  std::vector<const exec::ImplementationSet::ReferenceDecode*> decoded;
  requests.reserve(batch.size());
  decoded.reserve(batch.size());
  for (const auto& p : batch) {
    requests.push_back({p.root, p.bytes});
    decoded.push_back(p.decoded ? &*p.decoded : nullptr);
  }
  Flight f;
  f.flight = impls_.start(std::move(requests), layers_, decoded);
  f.items = std::move(batch);
  return f;
}

void Sender::handle(std::deque<Flight>& window, std::deque<Flight>::iterator it) {
  Flight f = std::move(*it);
  window.erase(it);
  auto results = impls_.finish(std::move(f.flight));
  sent_ += f.items.size();
  for (std::size_t k = 0; k < results.size(); ++k) handler_(f.items[k], results[k]);
}

// Handles the batches that are complete and returns once there is room for the next one (`all`:
// once every batch is handled); false when the run stopped meanwhile. One stuck adapter (a hang
// inside a batch holds its pool for a deadline or more) must not stall the others: the
// implementation set skips it from then on (skip_stuck), and a batch that waits only on stuck
// adapters is held aside (up to kMaxHeld) while later batches go on and are handled as they
// complete. A deterministic run waits for every adapter, in order, as it must send every input.
bool Sender::drain(std::deque<Flight>& window, bool all) {
  while (!window.empty()) {
    if (!deterministic_) impls_.skip_stuck(kStuckFloor);
    // Pools answer in order, so without a stuck adapter the first ready batch is the oldest.
    auto ready =
        std::find_if(window.begin(), window.end(), [&](const Flight& f) { return impls_.ready(*f.flight); });
    if (ready != window.end() && (ready == window.begin() || !deterministic_)) {
      handle(window, ready);
      continue;
    }
    std::size_t held = 0;
    if (!deterministic_) {
      held = static_cast<std::size_t>(std::count_if(window.begin(), window.end(), [&](const Flight& f) {
        return impls_.waits_only_on_stuck(*f.flight);
      }));
    }
    if (!all && window.size() - held < 2 && held < kMaxHeld) return true;
    if (stopped()) return false;
    // Wait a little for the oldest batch that is not held aside, then look again.
    auto oldest = std::find_if(window.begin(), window.end(), [&](const Flight& f) {
      return held == 0 || !impls_.waits_only_on_stuck(*f.flight);
    });
    impls_.wait_ready(*(oldest == window.end() ? window.begin() : oldest)->flight, kWaitStep);
  }
  return true;
}

// The run stopped (its time is up, Ctrl-C, or a failure): the batches in flight get a moment to
// finish (kEndGrace, at most one adapter deadline), then what is left is cut (abandoned, not
// compared), so that a hung adapter cannot hold the end of the run.
void Sender::end_in_flight(std::deque<Flight>& window) {
  const auto cut_at = std::chrono::steady_clock::now() +
                      std::min<std::chrono::steady_clock::duration>(kEndGrace, impls_.deadline());
  while (!window.empty() && !failed_ && !exec::stop_requested() &&
         std::chrono::steady_clock::now() < cut_at) {
    auto ready =
        std::find_if(window.begin(), window.end(), [&](const Flight& f) { return impls_.ready(*f.flight); });
    if (ready != window.end() && (ready == window.begin() || !deterministic_)) {
      handle(window, ready);
      continue;
    }
    impls_.wait_ready(*window.front().flight, kWaitStep);
  }
  if (window.empty()) return;
  impls_.cut_adapters();
  if (failed_) return;  // the owner is leaving by an error: the batches are dropped, not handled
  while (!window.empty()) handle(window, window.begin());
}

}  // namespace crosscheck::campaign
