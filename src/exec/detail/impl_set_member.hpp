// impl_set_member.hpp: ImplementationSet::Member, one implementation of the set (an adapter's pool,
// or the in-process reference on one schema), which the set's files share. Internal to exec: the
// set's parts are implementation_set.cpp (members, schema groups), impl_set_batches.cpp (a batch to
// every member, then compared), impl_set_reference.cpp (the in-process reference's answers) and
// impl_set_stuck.cpp (a stuck adapter left out, shed and cut).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "core/impl_result.hpp"
#include "decoder/decoder.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/implementation_set.hpp"
#include "schema/ir.hpp"

namespace crosscheck::exec {

struct ImplementationSet::Member {
  std::string name;
  core::Identity identity;
  std::unique_ptr<AdapterPool> pool;          // null for an in-process C++ decoder
  std::shared_ptr<const schema::Ir> ir;       // the schema this implementation was generated from
  std::unique_ptr<decoder::Decoder> decoder;  // in-process only
  // The pace of the member's batches, for skip_stuck(): when each batch still unanswered was handed
  // to its pool (they are answered in that order), when the last one was answered, and a moving
  // average of the time one batch takes. Written on the pool's thread, read on the caller's.
  std::mutex pace_mutex;
  std::deque<std::chrono::steady_clock::time_point> unanswered;
  std::chrono::steady_clock::time_point last_answered;
  double batch_seconds = 0;
  std::atomic<bool> stuck{false};  // set on the caller's thread (skip_stuck), read on the pool's too
  std::uint64_t skipped = 0;       // payloads it was left out of, the caller's thread
  void note_answered();            // its pool answered the batch at the front (the pool's thread)
};

}  // namespace crosscheck::exec
