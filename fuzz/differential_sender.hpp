// differential_sender.hpp: the adapter side of fuzz_differential, kept out of the fuzzing process.
//
// Why a separate process: libFuzzer reads coverage counters that are global to its process, so
// anything another thread runs in instrumented code (the decoder, the JSON parser) would be
// credited to whatever input is executing at that moment. The sender is the same executable started
// again with CROSSCHECK_DIFFERENTIAL_ROLE=sender (fresh image, its own counters): the fuzzing
// process writes the inputs it picked into a pipe, and the sender decodes them with every configured
// implementation in batches (exec::ImplementationSet), compares, and writes findings
// atomically. The fuzzing process never waits: its writes are non-blocking, into a bounded buffer;
// when the buffer is full the input is dropped and counted. At exit the buffer is flushed, the pipe
// closed, and the sender finishes its last batch (bounded by CROSSCHECK_FLUSH_SECONDS).
//
// Environment (both processes read the same):
//   CROSSCHECK_ADAPTERS       comma-separated names from adapters/default.json (default: the default
//                             ones; "cpp" is always the in-process decoder)
//   CROSSCHECK_ADAPTER        one ad-hoc adapter, NAME='COMMAND ARGS' (as --adapter)
//   CROSSCHECK_FINDINGS_DIR   where findings go (default: differential-findings)
//   CROSSCHECK_DIFF_BATCH     inputs per adapter batch (default 128)
//   CROSSCHECK_DIFF_BUFFER_MB bytes the fuzzing process may hold for the sender (default 16)
//   CROSSCHECK_FLUSH_SECONDS  how long the exit flush may take (default 60)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace crosscheck::fuzz {

/// True in the sender process (the environment says so).
bool is_differential_sender();

/// The sender's main: reads inputs from stdin until EOF, reports start-up ("READY" or the error) on
/// stdout, then prints its summary on stderr. Returns the exit status (0; 2 bad configuration; 3
/// an adapter could not be started).
int run_differential_sender();

/// The fuzzing process's end of the pipe. start() spawns the sender and waits for its READY (exits
/// the process with the sender's status when the adapters cannot start); offer() never blocks.
class SenderLink {
 public:
  /// Spawns the sender (this executable again) and waits for its READY; when it cannot start its
  /// adapters, prints why and exits the process with the sender's status.
  void start();
  /// Hands one input to the sender (copied). Never blocks: false when it was dropped because the
  /// buffer is full or the sender is gone.
  bool offer(std::string_view root, std::string_view payload);
  /// Non-blocking write of what is buffered (called once per input while anything waits).
  void pump();
  bool pending() const { return sent_ < buffer_.size(); }
  /// Writes what is buffered (blocking, bounded by CROSSCHECK_FLUSH_SECONDS), closes the pipe and
  /// waits for the sender to finish its last batch and print its summary. Idempotent.
  void finish();

  std::uint64_t offered() const { return offered_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  int fd_ = -1;
  int pid_ = -1;
  std::string buffer_;    // frames not yet written
  std::size_t sent_ = 0;  // bytes of buffer_ already written
  std::size_t limit_ = 0;
  std::uint64_t offered_ = 0, dropped_ = 0;
  bool gone_ = false;  // the sender exited early: nothing more is buffered
  bool finished_ = false;
};

}  // namespace crosscheck::fuzz
