// sender.cpp: the sender thread and its bounded queue (see sender.hpp).
#include "campaign/sender.hpp"

#include <chrono>
#include <vector>

#include "differential/adapter_pool.hpp"

namespace crosscheck::campaign {

Sender::Sender(differential::ImplementationSet& impls, std::size_t batch, differential::Layers layers,
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

bool Sender::stopped() const {
  return differential::stop_requested() || (stop_when_ && stop_when_()) || failed_;
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
  cv_.notify_one();
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
  while (true) {
    std::vector<Pending> batch;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return queue_.size() >= batch_ || done_; });
      if (queue_.empty()) {
        if (done_) return;
        continue;
      }
      while (!queue_.empty() && batch.size() < batch_) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    room_.notify_all();
    if (stopped()) return;
    std::vector<differential::DecodeRequest> requests;
    for (const auto& p : batch) requests.push_back({p.root, p.bytes});
    auto results = impls_.run(requests, layers_);
    sent_ += batch.size();
    for (std::size_t k = 0; k < results.size(); ++k) handler_(batch[k], results[k]);
  }
}

}  // namespace crosscheck::campaign
