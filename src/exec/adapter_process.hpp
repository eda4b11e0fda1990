// adapter_process.hpp: one adapter child process (POSIX) with the raw, non-blocking pipe ends the
// pool multiplexes with poll().
//
// Why raw fds rather than Boost's stream wrappers: one thread serves every process of a pool and
// must never block on any of them. Boost.Process only spawns (argv, cwd, env, redirections); the
// pipes are created here with O_CLOEXEC (so a sibling adapter spawned from another thread never
// inherits them and EOF still means "this child is gone"), made non-blocking, and owned here.
// The child runs in its own process group, so kill() also ends the helpers it started (a Node
// launcher, a shell wrapper) and a terminal's Ctrl-C reaches the harness only, which then shuts the
// adapters down itself. The child starts with SIGPIPE at its default and an empty signal mask,
// whatever the harness set for itself.
//
// CPU accounting (the fuzz summary's per-adapter CPU time): a running child's is read from
// /proc/PID/stat (utime + stime, plus cutime + cstime of the helpers it reaped; clock ticks), a
// reaped child's comes from wait4()'s rusage in kill() and is added to the CpuTally it was spawned
// with, so a pool sums its processes over restarts. Helpers the child left running when it was
// killed are not counted.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/adapter_pool.hpp"
#include "util/result.hpp"

namespace crosscheck::exec {

/// CPU seconds (user + system) of the reaped processes of one adapter.
using CpuTally = std::atomic<double>;

class AdapterProcess {
 public:
  /// Starts spec.argv in spec.cwd with the harness environment plus spec.env. argv[0] without a
  /// slash is looked up on PATH (the spec's PATH when it sets one). Error: one line, such as
  /// "command not found: node" or "working directory not found: /x".
  /// `reaped_cpu` (may be null): kill() adds the child's CPU time to it.
  static Result<std::unique_ptr<AdapterProcess>, std::string> spawn(
      const AdapterSpec& spec, std::size_t stderr_tail_bytes, std::shared_ptr<CpuTally> reaped_cpu = nullptr);
  ~AdapterProcess();  ///< kill()
  AdapterProcess(const AdapterProcess&) = delete;
  AdapterProcess& operator=(const AdapterProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return in_; }  ///< -1 once closed
  int stdout_fd() const { return out_; }
  int stderr_fd() const { return err_; }

  /// Queues bytes for the child's stdin; flush() writes them as the pipe allows.
  void enqueue(std::string_view bytes);
  bool wants_write() const { return in_ >= 0 && write_pos_ < write_buf_.size(); }
  std::size_t queued_bytes() const { return write_buf_.size() - write_pos_; }
  /// Writes what the pipe takes without blocking. False when the child closed its stdin (EPIPE):
  /// the queue is dropped and stdin closed; its death shows up on stdout.
  bool flush();
  void close_stdin();

  enum class ReadStatus { kOk, kEof, kOverlong };
  /// Reads what stdout has (at most a few MiB per call, for fairness) and appends each complete
  /// line, without its '\n', to `lines`. kOverlong: a line (complete or not) exceeds `max_line`;
  /// its first bytes are in overlong_prefix(). kEof: stdout closed; partial_line() holds any
  /// unterminated tail.
  ReadStatus read_lines(std::vector<std::string>& lines, std::size_t max_line);
  const std::string& partial_line() const { return read_buf_; }
  const std::string& overlong_prefix() const { return overlong_prefix_; }

  /// Reads what stderr has now (at most a few MiB per call) into the bounded tail (never blocks).
  void drain_stderr();
  /// The last stderr_tail_bytes bytes the child wrote to stderr.
  std::string stderr_tail() const;

  /// Has the child exited? Non-blocking; leaves it to kill() to reap.
  bool has_exited();
  /// Waits up to `grace` for the child to exit by itself; true if it did.
  bool wait_exit(std::chrono::milliseconds grace);
  /// SIGKILL to the child's process group (a child that already exited keeps its own status),
  /// reap, close every pipe. Idempotent.
  void kill();
  /// CPU seconds the child (and the helpers it reaped) used so far, from /proc/PID/stat; 0 once
  /// kill() reaped it (its time is then in the tally) or when /proc cannot be read.
  double live_cpu_seconds() const;
  /// After kill(): "exited with status 1", "killed by signal 11 (SIGSEGV)"; before: "still running".
  std::string status_text() const;

 private:
  AdapterProcess() = default;
  void close_fd(int& fd);

  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;  // waitpid status once reaped
  int in_ = -1, out_ = -1, err_ = -1;
  std::string write_buf_;
  std::size_t write_pos_ = 0;
  std::string read_buf_;     // stdout bytes after the last complete line
  std::size_t scanned_ = 0;  // read_buf_ prefix known to hold no '\n'
  std::string overlong_prefix_;
  std::string tail_;  // stderr, trimmed to between tail_cap_ and 2 * tail_cap_ bytes
  std::size_t tail_cap_ = 0;
  std::shared_ptr<CpuTally> reaped_cpu_;
};

}  // namespace crosscheck::exec
