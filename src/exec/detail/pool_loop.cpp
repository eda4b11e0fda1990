// pool_loop.cpp: the pool's event loop. The pool's thread (or a caller with the pool to itself)
// drives every process with poll(); nothing ever blocks on a child. Each round (step()): cut and shed
// what callers gave up, hand pending requests out (pool_dispatch.cpp), poll stdin (while bytes are
// queued), stdout and stderr of every live process plus the stop pipe and the feed's pipe, then act:
//   stderr readable  -> append to the bounded tail;
//   stdin writable   -> write what the pipe takes;
//   stdout readable  -> split lines (over max_line_bytes: protocol), answers (pool_answers.cpp);
//   stdout EOF       -> the child died (pool_failures.cpp);
//   deadline passed  -> timeout (pool_failures.cpp).
// Throughput: an adapter writes and flushes one answer at a time, so a loop that polls after each
// one wakes (and refills one request) per answer, and on a shared machine the context switches
// cost more than the answer itself (bench/bench_adapters, docs/benchmarks.md). While every busy
// process still has at least half its window queued, the loop lets a few answers collect before
// it polls (coalesce()): the adapter never runs dry, and the refill goes out in one write.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>

#include "exec/detail/pool_impl.hpp"
#include "exec/protocol_codec.hpp"
#include "exec/sigpipe_guard.hpp"
#include "exec/stop_signal.hpp"

namespace crosscheck::exec {

using namespace pool_detail;

AdapterPool::Impl::Impl(const AdapterSpec& s, const PoolOptions& o) : spec(s), options(o) {
  options.processes = std::max<std::size_t>(options.processes, 1);
  options.max_in_flight = std::max<std::size_t>(options.max_in_flight, 1);
  options.max_line_bytes = std::max<std::size_t>(options.max_line_bytes, 1024);
  procs.resize(options.processes);
}

AdapterPool::Impl::~Impl() {
  shutdown();
  for (int fd : feed_wake)
    if (fd >= 0) ::close(fd);
}

std::optional<StartError> AdapterPool::Impl::start() {
  stop_wake_fd();  // create the wake-up pipes before any child exists
  if (::pipe2(feed_wake, O_CLOEXEC | O_NONBLOCK) != 0) feed_wake[0] = feed_wake[1] = -1;
  SigpipeGuard guard;
  starting = true;
  for (Proc& p : procs) launch(p);
  auto any = [this](State state) {
    return std::any_of(procs.begin(), procs.end(), [state](const Proc& p) { return p.state == state; });
  };
  while (any(State::kStarting) && !any(State::kDown) && !stop_requested()) {
    service(kPollCap);
    check_exits();
    check_deadlines();
  }
  starting = false;
  if (!any(State::kStarting) && !any(State::kDown)) return std::nullopt;
  // The first failure is the one to report; processes still starting are simply ended.
  StartError error{spec.name, name() + ": interrupted during the handshake", ""};
  for (const Proc& p : procs) {
    if (p.state == State::kDown) {
      error.message = name() + ": " + p.down_reason;
      error.stderr_tail = p.down_tail;
      break;
    }
  }
  shutdown();
  return error;
}

void AdapterPool::Impl::shutdown() {
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    feed_closed = true;
  }
  feed_cv.notify_all();
  if (worker.joinable()) worker.join();  // it answers the calls queued before it stops
  if (closed) return;
  closed = true;
  SigpipeGuard guard;
  for (Proc& p : procs) {
    if (!p.process) continue;
    if (p.state == State::kReady) {
      p.process->enqueue(protocol::shutdown_request());
      p.process->flush();
    }
    p.process->close_stdin();  // EOF is a shutdown too, for an adapter that missed the line
  }
  auto until = Clock::now() + kShutdownGrace;
  for (Proc& p : procs) {
    if (!p.process) continue;
    auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now());
    p.process->wait_exit(std::max(milliseconds(0), left));
    p.process->kill();
    p.process.reset();
    p.state = State::kDown;
  }
}

void AdapterPool::Impl::launch(Proc& p) {
  ++p.generation;
  p.in_flight.clear();
  p.answered.clear();
  p.batches.clear();
  p.batch_limit = 1;
  p.process.reset();
  p.answer_seconds = p.answer_bytes = 0;
  p.last_read = Clock::time_point();
  auto spawned = AdapterProcess::spawn(spec, options.stderr_tail_bytes, reaped_cpu);
  if (!spawned.ok()) {
    p.state = State::kDown;
    p.down_reason = spawned.error();
    p.down_tail.clear();
    return;
  }
  p.process = std::move(spawned).value();
  p.process->enqueue(protocol::hello_request());
  p.process->flush();
  p.state = State::kStarting;
  p.hello_by = Clock::now() + options.hello_deadline;
}

// One round of the loop: hand out requests, wait for the processes (or a new call), act on what
// they did.
void AdapterPool::Impl::step() {
  if (stop_requested()) {
    interrupt();
    return;
  }
  cut_calls();
  shed_pending();
  dispatch();
  if (front_done()) return;
  coalesce();
  service(kPollCap);
  if (auto now = Clock::now(); now - last_exit_check >= kExitCheckEvery) {
    last_exit_check = now;
    check_exits();
  }
  check_deadlines();
}

void AdapterPool::Impl::service(Clock::duration max_wait) {
  enum Stream { kStdin, kStdout, kStderr, kStop, kFeed };
  struct Watch {
    std::size_t proc;
    std::uint64_t generation;
    Stream stream;
  };
  std::vector<pollfd> fds;
  std::vector<Watch> watches;
  if (int stop_fd = stop_wake_fd(); stop_fd >= 0) {
    fds.push_back({stop_fd, POLLIN, 0});
    watches.push_back({0, 0, kStop});
  }
  if (feed_wake[0] >= 0) {  // a call queued meanwhile is taken at once
    fds.push_back({feed_wake[0], POLLIN, 0});
    watches.push_back({0, 0, kFeed});
  }
  for (std::size_t i = 0; i < procs.size(); ++i) {
    Proc& p = procs[i];
    if (p.state == State::kDown || !p.process) continue;
    auto add = [&](int fd, short events, Stream stream) {
      if (fd < 0) return;
      fds.push_back({fd, events, 0});
      watches.push_back({i, p.generation, stream});
    };
    add(p.process->stdout_fd(), POLLIN, kStdout);
    add(p.process->stderr_fd(), POLLIN, kStderr);
    if (p.process->wants_write()) add(p.process->stdin_fd(), POLLOUT, kStdin);
  }
  auto wait = std::min(max_wait, std::max(Clock::duration::zero(), next_deadline() - Clock::now()));
  // Round up, so a deadline a fraction of a millisecond away does not spin.
  int timeout = static_cast<int>(std::chrono::ceil<milliseconds>(wait).count());
  if (::poll(fds.data(), fds.size(), timeout) <= 0) return;  // timeout, or EINTR: the caller re-checks

  for (std::size_t k = 0; k < fds.size(); ++k) {
    if (fds[k].revents == 0) continue;
    const Watch& w = watches[k];
    if (w.stream == kFeed) {
      char buf[64];
      while (::read(fds[k].fd, buf, sizeof buf) > 0) {
      }
      continue;
    }
    if (w.stream == kStop) {
      if (!stop_requested()) {  // a stale wake-up byte: drop it rather than spin
        char buf[64];
        while (::read(fds[k].fd, buf, sizeof buf) > 0) {
        }
      }
      continue;
    }
    Proc& p = procs[w.proc];
    if (p.generation != w.generation || !p.process) continue;  // this process was replaced meanwhile
    if (w.stream == kStderr) {
      p.process->drain_stderr();
    } else if (w.stream == kStdin) {
      p.process->flush();
    } else {
      read_output(p, w.generation);
    }
  }
}

void AdapterPool::Impl::read_output(Proc& p, std::uint64_t generation) {
  std::vector<std::string> lines;
  auto status = p.process->read_lines(lines, options.max_line_bytes);
  std::size_t bytes = 0;
  for (const std::string& line : lines) {
    if (p.generation != generation) return;  // a line before this one ended the process
    on_line(p, line);
    bytes += line.size() + 1;
  }
  if (p.generation != generation) return;
  if (p.state == State::kReady && !lines.empty()) note_answers(p, lines.size(), bytes);
  if (status == AdapterProcess::ReadStatus::kEof) on_eof(p);
  if (status == AdapterProcess::ReadStatus::kOverlong) on_overlong(p);
}

// A child can die without its stdout reaching EOF, when a helper it started still holds the pipe:
// notice the exit itself, and take in what it wrote before dying first.
void AdapterPool::Impl::check_exits() {
  for (Proc& p : procs) {
    if (p.state == State::kDown || !p.process->has_exited()) continue;
    std::uint64_t generation = p.generation;
    read_output(p, generation);
    if (p.generation == generation && p.state != State::kDown) on_eof(p);
  }
}

void AdapterPool::Impl::note_answers(Proc& p, std::size_t answers, std::size_t bytes) {
  auto now = Clock::now();
  double per_line = static_cast<double>(bytes) / static_cast<double>(answers);
  p.answer_bytes = p.answer_bytes == 0 ? per_line : 0.8 * p.answer_bytes + 0.2 * per_line;
  // The pace is sampled only between two reads while the process was busy throughout: time it
  // spent idle (between batches, before its first answer) says nothing about it. A sample is
  // capped at the longest wait, so one stall (a collection pause) cannot hold the average up.
  if (p.last_read != Clock::time_point()) {
    double per_answer =
        std::min(std::chrono::duration<double>(now - p.last_read).count() / static_cast<double>(answers),
                 std::chrono::duration<double>(kMaxCoalesce).count());
    p.answer_seconds = p.answer_seconds == 0 ? per_answer : 0.8 * p.answer_seconds + 0.2 * per_answer;
  }
  p.last_read = p.in_flight.empty() ? Clock::time_point() : now;
}

void AdapterPool::Impl::coalesce() {
  auto wait = std::chrono::duration_cast<Clock::duration>(kMaxCoalesce);
  bool busy = false;
  for (const Proc& p : procs) {
    // A batching process answers many requests per line: there is nothing to collect.
    if (p.state != State::kReady || p.in_flight.empty() || p.batch_limit > 1) continue;
    // Only while this process has plenty in flight. Requests still queued on this side are fine
    // (its stdin pipe was full when they stalled, so it has work), unless a line longer than the
    // pipe may be among them: the adapter would wait for its rest.
    if (p.process->queued_bytes() > kPipeBytes ||
        p.in_flight.size() < std::max<std::size_t>(8, options.max_in_flight / 2) || p.answer_seconds <= 0) {
      return;
    }
    double room = std::min<double>(kCoalesceAnswers, kCoalesceBytes / std::max(1.0, p.answer_bytes));
    room = std::min(room, static_cast<double>(p.in_flight.size() - options.max_in_flight / 4));
    auto span =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(room * p.answer_seconds));
    wait = std::min(wait, span);
    busy = true;
  }
  if (!busy || wait < std::chrono::microseconds(50)) return;
  // Sleep on the stop pipe, so a Ctrl-C still ends the wait at once.
  pollfd stop{stop_wake_fd(), POLLIN, 0};
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
  timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  ::ppoll(stop.fd >= 0 ? &stop : nullptr, stop.fd >= 0 ? 1 : 0, &ts, nullptr);
}

}  // namespace crosscheck::exec
