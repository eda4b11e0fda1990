// sender.cpp: the sender thread and its bounded queue (see sender.hpp).
#include "campaign/sender.hpp"

#include <chrono>
#include <vector>

#include "core/layers.hpp"
#include "exec/adapter_pool.hpp"

namespace crosscheck::campaign {

Sender::Sender(exec::ImplementationSet& impls, std::size_t batch, core::Layers layers,
               std::function<bool()> stop_when, std::uint64_t sent_before, Handler handler)
    : impls_(impls),
      batch_(batch),
      layers_(layers),
      stop_when_(std::move(stop_when)),
      handler_(std::move(handler)),
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
}

bool Sender::stopped() const { return exec::stop_requested() || (stop_when_ && stop_when_()) || failed_; }

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
  if (error_) std::rethrow_exception(error_);
}

void Sender::loop() {
  // Two batches overlap: batch k+1 is handed to the adapters before the sender waits for batch k,
  // so a pool takes k+1's requests while it still works on k (an SDK does not run dry between two
  // batches), and the adapters work on k+1 while the implementation set compares k and the handler
  // records it. Results are still handled in the order the inputs were queued.
  std::unique_ptr<exec::ImplementationSet::InFlight> current;
  std::vector<Pending> current_items;
  while (true) {
    std::vector<Pending> batch;
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
      if (!current && batch.empty() && done_) return;
    }
    room_.notify_all();
    const bool stopping = stopped();  // what is queued is not sent; the batch in flight completes
    std::unique_ptr<exec::ImplementationSet::InFlight> next;
    if (!batch.empty() && !stopping) {
      std::vector<exec::DecodeRequest> requests;
      std::vector<const exec::ImplementationSet::ReferenceDecode*> decoded;
      requests.reserve(batch.size());
      decoded.reserve(batch.size());
      for (const auto& p : batch) {
        requests.push_back({p.root, p.bytes});
        decoded.push_back(p.decoded ? &*p.decoded : nullptr);
      }
      next = impls_.start(std::move(requests), layers_, decoded);
    }
    if (current) {
      auto results = impls_.finish(std::move(current));
      sent_ += current_items.size();
      for (std::size_t k = 0; k < results.size(); ++k) handler_(current_items[k], results[k]);
    }
    if (stopping) return;
    current = std::move(next);
    current_items = std::move(batch);
  }
}

}  // namespace crosscheck::campaign
