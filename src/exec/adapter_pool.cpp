// adapter_pool.cpp: the pool's event loop.
//
// The pool's own thread drives every process of the pool with poll(); nothing ever blocks on a
// child. Callers queue calls to it (submit()); it takes each call's requests into one queue as they
// come, so a call queued behind another is dispatched while that one is still in flight, and
// answers the calls in the order they came once all their requests are done (deliver_done()).
// Each round: hand pending requests to ready processes (the least loaded first, up to
// max_in_flight each), poll stdin (while bytes are queued), stdout and stderr of every live process
// plus the stop pipe and the pipe that says a call was queued, then act:
//   stderr readable  -> append to the bounded tail;
//   stdin writable   -> write what the pipe takes;
//   stdout readable  -> split lines (over max_line_bytes: protocol), match answers by id;
//   stdout EOF       -> the child died: wait briefly for its exit status, then crash;
//   deadline passed  -> timeout.
// Deadline: a process is hung when its oldest request has waited `deadline` since it was sent or
// since the process last answered, whichever is later; so a healthy adapter working through a deep
// pipeline is never cut short, and one hung request is still caught.
// Every failure kills the process group, reaps it and starts a fresh process (a new handshake).
// Exactly one request is charged: the one the failure names (a bad or repeated answer, an over-long
// line starting with its id, an expired deadline), else the oldest in flight, which is the one a
// sequential adapter was working on. The other requests in flight (bystanders) are retried once,
// each alone on a process (nothing else in flight), so a failure during a retry is that request's
// own: every request is sent at most twice, and every failure but two resolves one request. The
// two exceptions: an answer repeating an id already answered with other content, which cannot say
// whose it is (nobody is charged; the repeated request, unless already retried, and everything in
// flight are retried alone), and a death with nothing in flight.
// Circuit breaker, so that an adapter that fails on everything (hangs at once, dies after its
// hello) cannot hold a batch for one deadline or one restart per request: after
// kFailuresInARow failures of one process without a good answer in between, the process is on
// probation: its next request runs alone, and is a payload the pool has seen answered (the canary)
// when there is one. A failure on probation leaves the process down until the oldest call is
// answered.
// A restart whose handshake fails leaves the process down; pending requests then go to the pool's
// other processes, or, when none is left, the oldest call's requests get crash results naming the
// reason. The next call tries to start the down processes again (when it becomes the oldest), so
// the pool stays usable once the cause is gone.
// Throughput: an adapter writes and flushes one answer at a time, so a loop that polls after each
// one wakes (and refills one request) per answer, and on a shared machine the context switches
// cost more than the answer itself (bench/bench_adapters, docs/benchmarks.md). While every busy
// process still has at least half its window queued, the loop lets a few answers collect before
// it polls (coalesce()): the adapter never runs dry, and the refill goes out in one write.
#include "exec/adapter_pool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "exec/adapter_process.hpp"
#include "exec/protocol_codec.hpp"
#include "exec/sigpipe_guard.hpp"
#include "exec/stop_signal.hpp"
#include "json/parse.hpp"

namespace crosscheck::exec {

using core::Identity;
using core::ImplResult;
using core::kCanonicalLayer;
using core::Outcome;
using core::ValidateResult;
using core::Verdict;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kPollCap{250};         // re-check the stop flag at least this often
constexpr milliseconds kExitGrace{500};       // after stdout EOF, for the child's exit status
constexpr milliseconds kShutdownGrace{2000};  // after {"op":"shutdown"}, before SIGKILL
// Requests are handed to a process only while less than this is waiting to be written to it, so a
// batch of large payloads for an adapter that stopped reading does not pile up in memory.
constexpr std::size_t kMaxQueuedBytes = std::size_t{8} << 20;
// Coalescing (coalesce()): at most this long, this many answers, and about this many bytes of
// answers waiting in the adapter's stdout pipe (64 KiB on Linux), so the adapter never blocks on it.
constexpr std::chrono::microseconds kMaxCoalesce{2000};
constexpr std::size_t kCoalesceAnswers = 16;
constexpr double kCoalesceBytes = 24 * 1024;
constexpr std::size_t kPipeBytes = 64 * 1024;
// How often to look for a child that exited while a helper still holds its stdout (a syscall).
constexpr milliseconds kExitCheckEvery{10};
// Failures of one process in a row, without a good answer, before it is put on probation.
constexpr std::size_t kFailuresInARow = 3;
// InFlight::slot of the canary, which belongs to no slot of the call.
constexpr std::size_t kCanary = static_cast<std::size_t>(-1);
// Batching: a process's window holds this many batches, so it has the next one while the harness
// reads the last; a batch line closes at about this many bytes, so large payloads are not held back.
constexpr std::size_t kBatchesInFlight = 4;
constexpr std::size_t kBatchBytes = std::size_t{1} << 20;

enum class Kind { kDecode, kBench, kValidate };

struct Slot {  // one request of a call (decode, validate or bench) the pool has taken
  Kind kind = Kind::kDecode;
  const DecodeRequest* request = nullptr;     // kDecode, kBench of a decode
  const ValidateRequest* document = nullptr;  // kValidate, kBench of a validation
  std::uint64_t iterations = 0;
  bool done = false;
  bool retried = false;  // was a bystander of a failure: sent again, alone
  ImplResult result;     // a decode's answer, or the harness's verdict (crash, timeout, ...) on any kind
  std::optional<std::uint64_t> nanos;
  std::optional<ValidateResult> verdict;  // a validate's answer
};

struct InFlight {
  std::size_t slot;  // kCanary for the probation canary
  Clock::time_point sent;
  Clock::duration budget;
  bool alone = false;       // a retry, a canary or a probation request: nothing else goes with it
  std::uint64_t batch = 0;  // the id of the batch line that carried it; 0: a line of its own
};

struct Answered {
  std::size_t slot;  // pruned when its call is answered
  std::size_t hash;  // of the answer line, to tell an exact repeat from another request's answer
};

enum class State { kDown, kStarting, kReady };

struct Proc {
  std::unique_ptr<AdapterProcess> process;
  State state = State::kDown;
  std::uint64_t generation = 0;  // bumped per spawn, so stale poll events are ignored
  Clock::time_point hello_by, last_progress;
  std::map<std::uint64_t, InFlight> in_flight;  // by id, which is send order
  std::map<std::uint64_t, Answered> answered;   // this process, calls not yet answered
  std::string down_reason, down_tail;           // why the last start failed, or why it gave up
  bool gave_up = false;                         // down by the circuit breaker, not a failed start
  Outcome down_outcome = Outcome::kCrash;       // what requests get while it is down
  std::size_t failures_in_a_row = 0;            // since its last good answer (across restarts)
  bool probation = false;                       // next request alone; a failure takes it down
  // Pace of answers, for coalesce(): moving averages of the time per answer and of its line size.
  Clock::time_point last_read;
  double answer_seconds = 0, answer_bytes = 0;
  // Batching (docs/protocol.md, batch): entries per batch line this process gets (1: single
  // requests), from its hello's batch.max, PoolOptions::max_batch and batch_cap; batch_cap is
  // halved on each refusal and kept across restarts. batches: batch id -> its entries' ids, in order.
  std::size_t batch_limit = 1;
  std::size_t batch_cap = static_cast<std::size_t>(-1);
  std::map<std::uint64_t, std::vector<std::uint64_t>> batches;
  std::vector<std::string> batch_lines;  // dispatch(): entries not yet sent
  std::vector<std::uint64_t> batch_ids;
  std::size_t batch_bytes = 0;
};

std::string duration_text(Clock::duration d) {
  auto ms = std::chrono::duration_cast<milliseconds>(d).count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

double millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

class AdapterPool::Impl {
 public:
  Impl(const AdapterSpec& s, const PoolOptions& o) : spec(s), options(o) {
    options.processes = std::max<std::size_t>(options.processes, 1);
    options.max_in_flight = std::max<std::size_t>(options.max_in_flight, 1);
    options.max_line_bytes = std::max<std::size_t>(options.max_line_bytes, 1024);
    procs.resize(options.processes);
  }
  ~Impl() {
    shutdown();
    for (int fd : feed_wake)
      if (fd >= 0) ::close(fd);
  }

  std::optional<StartError> start();
  /// What is done with a call's slots once every one is (on the pool's thread): `error` when the
  /// pool's loop threw instead (the slots are then as far as they got).
  using Deliver = std::function<void(std::vector<Slot>& slots, std::exception_ptr error)>;
  /// Queues a call (its slots say what to ask) for the pool's thread, starting it on first use.
  /// `counted`: adds its requests to Stats::requests (bench calls are not counted).
  void submit(std::vector<Slot> call, bool counted, Deliver deliver);
  /// submit() and wait for the answered slots (rethrowing the loop's error); on this thread when the
  /// pool has nothing else to do.
  std::vector<Slot> call(std::vector<Slot> call, bool counted);
  void shutdown();
  Stats stats() const {
    std::lock_guard<std::mutex> engine(engine_mutex);  // waits until the pool's thread is idle
    Stats s = counters;
    s.down = static_cast<std::size_t>(std::count_if(procs.begin(), procs.end(), [](const Proc& p) {
      return p.state == State::kDown && !p.down_reason.empty();
    }));
    s.cpu_seconds = reaped_cpu->load();
    for (const Proc& p : procs)
      if (p.process) s.cpu_seconds += p.process->live_cpu_seconds();
    return s;
  }

  AdapterSpec spec;
  PoolOptions options;
  Identity identity;
  Stats counters;
  std::shared_ptr<CpuTally> reaped_cpu = std::make_shared<CpuTally>(0.0);  // processes killed so far

 private:
  void launch(Proc& p);
  void handshake_failed(Proc& p, std::string why);
  // blame_oldest: with no named culprit, charge the oldest in flight (the sequential adapter's
  // current request); false: charge nobody, retry everything in flight alone.
  void fail(Proc& p, std::optional<std::size_t> culprit, Outcome outcome, std::string message,
            bool blame_oldest = true);
  void give_up(Proc& p, Outcome outcome, std::string why);
  const DecodeRequest* canary_request() const;
  bool takes(const Proc& p, bool alone) const;
  void finish(std::size_t slot, Outcome outcome, std::string message, std::string tail, double ms);
  /// Finishes a request nobody answered because the harness gave it up (ImplResult::abandoned).
  void abandon(std::size_t slot, std::string why);
  // The pool's thread: takes queued calls (admit()) and runs step() until every call is answered.
  void serve();
  void take_incoming();
  /// Runs the calls taken until every one is answered (`take_queued`: taking queued calls too); a
  /// throw answers them all with the error (fail_all()).
  void drive(bool take_queued);
  std::vector<Slot> take_front_slots(std::size_t count);
  void end_busy_processes();
  void admit(std::vector<Slot> call, bool counted, Deliver deliver);
  void step();
  /// Answers the calls at the front whose slots are all done, in the order they were queued.
  void deliver_done();
  void relaunch_down();
  void fail_all(std::exception_ptr error);
  void wake_feed();
  Slot& slot(std::size_t i) { return slots[i - slot_base]; }
  const Slot& slot(std::size_t i) const { return slots[i - slot_base]; }
  void mark_done(std::size_t i, bool done);
  void dispatch();
  void service(Clock::duration max_wait);
  void on_line(Proc& p, std::string_view line);
  void on_answer(Proc& p, std::string_view line);
  void on_entry(Proc& p, const json::Value& answer, std::uint64_t id, std::size_t hash,
                std::string_view line);
  void on_batch_answer(Proc& p, const json::Value& answer, std::uint64_t id, std::string_view line);
  void send_batch(Proc& p);
  bool shares_batch(const Proc& p, const InFlight& f) const;
  void on_eof(Proc& p);
  void on_overlong(Proc& p);
  void check_deadlines();
  void check_exits();
  void coalesce();
  void note_answers(Proc& p, std::size_t answers, std::size_t bytes);
  void read_output(Proc& p, std::uint64_t generation);
  Clock::time_point next_deadline() const;
  void interrupt();
  bool front_done() const { return !jobs.empty() && jobs.front().done == jobs.front().count; }
  std::string name() const { return "adapter '" + spec.name + "'"; }

  std::vector<Proc> procs;
  bool have_identity = false;
  bool starting = false;  // inside start(): any failure is a start failure
  bool closed = false;
  std::uint64_t next_id = 1;
  // The calls taken, oldest first: their slots are slots[first - slot_base ...], consecutive. A slot
  // index (in pending, InFlight, Answered, good_slot) counts every slot since the pool started, so
  // a call queued behind another can be dispatched while that one is still in flight.
  struct Job {
    std::size_t first = 0, count = 0;
    std::size_t done = 0;  // slots done: front_done() is asked every round
    bool counted = true;
    Deliver deliver;
  };
  std::deque<Job> jobs;
  std::deque<Slot> slots;
  std::size_t slot_base = 0;
  std::deque<std::size_t> pending;
  Clock::time_point last_exit_check;
  // A payload some process answered well, kept across calls for probation (copied once).
  std::optional<DecodeRequest> canary;
  std::optional<std::size_t> good_slot;  // the smallest well-answered decode of the calls taken

  // The pool's thread and what it is handed. Callers queue calls under feed_mutex and wake the
  // thread's poll() through feed_wake; the thread holds engine_mutex while it has calls, so stats()
  // never reads a process the thread is replacing.
  struct Queued {
    std::vector<Slot> slots;
    bool counted = true;
    Deliver deliver;
  };
  std::mutex feed_mutex;
  std::condition_variable feed_cv;
  std::deque<Queued> incoming;
  bool feed_closed = false;
  std::thread worker;
  int feed_wake[2] = {-1, -1};  // a self-pipe, non-blocking and close-on-exec
  mutable std::mutex engine_mutex;
};

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

void AdapterPool::Impl::handshake_failed(Proc& p, std::string why) {
  p.process->drain_stderr();
  p.process->kill();
  p.down_tail = p.process->stderr_tail();
  p.process.reset();
  p.state = State::kDown;
  p.down_reason = std::move(why);
  p.gave_up = false;
  p.down_outcome = Outcome::kCrash;
  ++p.generation;
}

void AdapterPool::Impl::finish(std::size_t slot, Outcome outcome, std::string message, std::string tail,
                               double ms) {
  Slot& s = this->slot(slot);
  s.result = ImplResult{};
  s.result.implementation = spec.name;
  s.result.outcome = outcome;
  s.result.message = std::move(message);
  s.result.stderr_tail = std::move(tail);
  s.result.millis = ms;
  s.nanos.reset();
  s.verdict.reset();
  mark_done(slot, true);
  if (outcome == Outcome::kCrash) ++counters.crashes;
  if (outcome == Outcome::kTimeout) ++counters.timeouts;
  if (outcome == Outcome::kProtocol) ++counters.protocol_errors;
}

void AdapterPool::Impl::abandon(std::size_t slot, std::string why) {
  finish(slot, Outcome::kError, std::move(why), "", 0);
  this->slot(slot).result.abandoned = true;
}

void AdapterPool::Impl::fail(Proc& p, std::optional<std::size_t> culprit, Outcome outcome,
                             std::string message, bool blame_oldest) {
  if (starting) {
    handshake_failed(p, "after its hello: " + message);
    return;
  }
  p.process->drain_stderr();
  p.process->kill();
  std::string tail = p.process->stderr_tail();
  auto now = Clock::now();
  double ms = 0;
  // A batch is answered in one line, so the oldest entry of a batch is no likelier to be the one at
  // fault than its others: nobody is charged, and each is retried alone, where a failure is its own.
  if (!culprit && blame_oldest && !p.in_flight.empty() && !shares_batch(p, p.in_flight.begin()->second)) {
    culprit = p.in_flight.begin()->second.slot;
  }
  for (const auto& [id, f] : p.in_flight) {
    if (culprit && f.slot == *culprit) ms = millis(now - f.sent);
  }
  bool canary_failed = culprit == kCanary;
  if (culprit && !canary_failed) finish(*culprit, outcome, message, tail, ms);
  // Bystanders go back to the front of the queue, in their original order, to be retried alone.
  for (auto it = p.in_flight.rbegin(); it != p.in_flight.rend(); ++it) {
    std::size_t slot = it->second.slot;
    if (slot == kCanary || (culprit && slot == *culprit)) continue;
    this->slot(slot).retried = true;
    pending.push_front(slot);
  }
  p.in_flight.clear();
  p.batches.clear();
  ++p.failures_in_a_row;
  if (stop_requested()) {  // no restart while stopping; the next call starts a fresh one
    p.process.reset();
    p.state = State::kDown;
    p.down_reason.clear();
    ++p.generation;
    return;
  }
  if (canary_failed) {
    give_up(p, outcome,
            "it failed " + std::to_string(p.failures_in_a_row - 1) +
                " times in a row, then also on a payload it had answered before (" + message + ")");
    return;
  }
  if (p.probation || (p.failures_in_a_row >= kFailuresInARow && canary_request() == nullptr)) {
    give_up(p, outcome,
            "it failed " + std::to_string(p.failures_in_a_row) +
                " times in a row without a good answer (last: " + message + ")");
    return;
  }
  if (p.failures_in_a_row >= kFailuresInARow) p.probation = true;
  ++counters.restarts;
  launch(p);
}

// The circuit breaker opens: this process stays down until the oldest call is answered (its requests go to
// the other processes, or get `outcome` naming why); the next call tries it again, on probation.
void AdapterPool::Impl::give_up(Proc& p, Outcome outcome, std::string why) {
  p.process.reset();
  p.state = State::kDown;
  p.down_reason = std::move(why);
  p.down_tail.clear();
  p.gave_up = true;
  p.down_outcome = outcome;
  p.probation = true;
  ++p.generation;
}

const DecodeRequest* AdapterPool::Impl::canary_request() const {
  if (canary) return &*canary;
  if (!good_slot) return nullptr;
  const Slot& s = slot(*good_slot);
  // Its answer may have been overturned since (answered twice): then it proves nothing.
  bool good = s.done && s.result.outcome != Outcome::kCrash && s.result.outcome != Outcome::kTimeout &&
              s.result.outcome != Outcome::kProtocol;
  return good ? s.request : nullptr;
}

void AdapterPool::Impl::on_line(Proc& p, std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;  // blank lines carry nothing
  if (p.state == State::kReady) {
    on_answer(p, line);
    return;
  }
  auto hello = protocol::parse_hello(line, options.max_line_bytes);
  if (!hello.ok()) {
    handshake_failed(p, hello.error());
    return;
  }
  if (!have_identity) {
    identity = std::move(hello).value();
    identity.name = spec.name;
    have_identity = true;
  }
  p.state = State::kReady;
  p.last_progress = Clock::now();
  std::size_t batch_max = protocol::hello_batch_max(line, options.max_line_bytes);
  if (batch_max >= 2) {
    p.batch_limit = std::min({batch_max, options.max_batch, p.batch_cap,
                              std::max<std::size_t>(1, options.max_in_flight / kBatchesInFlight)});
  }
}

bool AdapterPool::Impl::shares_batch(const Proc& p, const InFlight& f) const {
  if (f.batch == 0) return false;
  auto it = p.batches.find(f.batch);
  return it != p.batches.end() && it->second.size() > 1;
}

void AdapterPool::Impl::on_answer(Proc& p, std::string_view line) {
  json::ParseLimits limits;
  limits.max_bytes = options.max_line_bytes;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok() || !parsed.value().is_object()) {
    std::string why = parsed.ok() ? "not an object" : parsed.error().message();
    fail(p, std::nullopt, Outcome::kProtocol,
         "unparseable answer line (" + why + "): " + protocol::excerpt(line));
    return;
  }
  const json::Value& answer = parsed.value();
  auto id = protocol::answer_id(answer);
  if (!id) {
    fail(p, std::nullopt, Outcome::kProtocol, "answer without an integer id: " + protocol::excerpt(line));
    return;
  }
  if (auto batch = p.batches.find(*id); batch != p.batches.end()) {
    on_batch_answer(p, answer, *id, line);
    return;
  }
  if (auto it = p.in_flight.find(*id); it != p.in_flight.end() && it->second.batch != 0) {
    fail(p, it->second.slot, Outcome::kProtocol,
         "answered request " + std::to_string(*id) + " of batch " + std::to_string(it->second.batch) +
             " on a line of its own: " + protocol::excerpt(line));
    return;
  }
  on_entry(p, answer, *id, std::hash<std::string_view>{}(line), line);
}

// One batch line's answer: a refusal sends its entries back to the queue for smaller batches; else
// answers[i] must answer entries[i] (same id), and the first one that does not, and every entry
// after it, get protocol results (the process is restarted).
void AdapterPool::Impl::on_batch_answer(Proc& p, const json::Value& answer, std::uint64_t batch_id,
                                        std::string_view line) {
  std::vector<std::uint64_t> entries = std::move(p.batches[batch_id]);
  p.batches.erase(batch_id);
  const json::Value* answers = answer.find("answers");
  if (answers == nullptr || !answers->is_array()) {
    const json::Value* error = answer.find("error");
    if (error != nullptr && error->is_string() && answers == nullptr) {
      // Refused (too many entries, most likely): nobody's fault; smaller batches from now on.
      p.batch_cap = std::max<std::size_t>(1, entries.size() / 2);
      p.batch_limit = std::min(p.batch_limit, p.batch_cap);
      for (auto id = entries.rbegin(); id != entries.rend(); ++id) {
        auto it = p.in_flight.find(*id);
        if (it == p.in_flight.end()) continue;
        pending.push_front(it->second.slot);
        p.in_flight.erase(it);
      }
      p.last_progress = Clock::now();
      return;
    }
    fail(p, std::nullopt, Outcome::kProtocol,
         "answer to batch " + std::to_string(batch_id) +
             " has no \"answers\" array: " + protocol::excerpt(line),
         false);
    return;
  }
  std::uint64_t generation = p.generation;
  const auto& items = answers->items();
  std::size_t line_hash = std::hash<std::string_view>{}(line);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    bool has_id = false;
    std::uint64_t got = 0;
    if (i < items.size()) {
      if (auto answer_id = protocol::answer_id(items[i])) {
        has_id = true;
        got = *answer_id;
      }
    }
    if (i >= items.size() || !has_id || got != entries[i]) {
      std::string why = "batch " + std::to_string(batch_id) + " answer ";
      why += i >= items.size() ? "has " + std::to_string(items.size()) + " answers for " +
                                     std::to_string(entries.size()) + " requests"
                               : "#" + std::to_string(i) + " has id " +
                                     (has_id ? std::to_string(got) : std::string("(none)")) + ", expected " +
                                     std::to_string(entries[i]);
      // Every entry left unanswered gets the protocol result; the first is the one fail() charges.
      std::optional<std::size_t> first;
      for (std::size_t k = i; k < entries.size(); ++k) {
        auto it = p.in_flight.find(entries[k]);
        if (it == p.in_flight.end()) continue;
        if (!first) {
          first = it->second.slot;
          continue;
        }
        if (it->second.slot != kCanary) {
          finish(it->second.slot, Outcome::kProtocol,
                 why + " (request " + std::to_string(entries[k]) + " unanswered)", "",
                 millis(Clock::now() - it->second.sent));
        }
        p.in_flight.erase(it);
      }
      fail(p, first, Outcome::kProtocol, why, first.has_value());
      return;
    }
    on_entry(p, items[i], entries[i], line_hash + i, line);
    if (p.generation != generation) return;
  }
  if (items.size() > entries.size()) {
    fail(p, std::nullopt, Outcome::kProtocol,
         "batch " + std::to_string(batch_id) + " answer has " + std::to_string(items.size()) +
             " answers for " + std::to_string(entries.size()) + " requests",
         false);
  }
}

void AdapterPool::Impl::on_entry(Proc& p, const json::Value& answer, std::uint64_t id_value, std::size_t hash,
                                 std::string_view line) {
  std::optional<std::uint64_t> id = id_value;
  auto it = p.in_flight.find(*id);
  if (it == p.in_flight.end()) {
    auto twice = p.answered.find(*id);
    if (twice == p.answered.end()) {
      fail(p, std::nullopt, Outcome::kProtocol,
           "answer for unknown id " + std::to_string(*id) + ": " + protocol::excerpt(line));
      return;
    }
    std::string why = "answered request " + std::to_string(*id) + " twice";
    const Answered first = twice->second;
    if (first.hash == hash || p.in_flight.empty()) {  // the same answer again: that request's fault
      fail(p, first.slot, Outcome::kProtocol, why);
    } else if (p.in_flight.size() == 1) {  // another answer, and only one request could have sent it
      fail(p, p.in_flight.begin()->second.slot, Outcome::kProtocol,
           "answered with the id of request " + std::to_string(*id) +
               ", answered before: " + protocol::excerpt(line));
    } else {
      // Another request's answer under this id, or this request's second opinion: no telling
      // which. The first answer is set aside (unless it came from a lone retry) and everything
      // is retried alone, where a failure names its request.
      Slot& answered = slot(first.slot);
      if (!answered.retried) {
        mark_done(first.slot, false);
        answered.retried = true;
        p.in_flight[*id] = InFlight{first.slot, Clock::now(), options.deadline, false};
      }
      fail(p, std::nullopt, Outcome::kProtocol, why + " (with different content)", false);
    }
    return;
  }
  const InFlight f = it->second;
  auto now = Clock::now();
  (void)line;
  if (f.slot == kCanary) {
    auto result = protocol::parse_decode_answer(answer);
    if (!result.ok()) {
      fail(p, kCanary, Outcome::kProtocol,
           "answer to request " + std::to_string(*id) + ": " + result.error());
      return;
    }
    p.in_flight.erase(it);
    p.failures_in_a_row = 0;
    p.probation = false;
    p.last_progress = now;
    return;
  }
  Slot& s = slot(f.slot);
  if (s.kind == Kind::kDecode) {
    auto result = protocol::parse_decode_answer(answer);
    if (!result.ok()) {
      fail(p, f.slot, Outcome::kProtocol, "answer to request " + std::to_string(*id) + ": " + result.error());
      return;
    }
    s.result = std::move(result).value();
    s.result.implementation = spec.name;
    s.result.millis = millis(now - f.sent);
  } else if (s.kind == Kind::kValidate) {
    auto verdict = protocol::parse_validate_answer(answer);
    if (!verdict.ok()) {
      fail(p, f.slot, Outcome::kProtocol,
           "answer to validate " + std::to_string(*id) + ": " + verdict.error());
      return;
    }
    s.verdict = std::move(verdict).value();
    s.verdict->implementation = spec.name;
    s.verdict->millis = millis(now - f.sent);
  } else {
    auto nanos = protocol::parse_bench_answer(answer);
    if (!nanos.ok()) {
      fail(p, f.slot, Outcome::kProtocol, "answer to bench " + std::to_string(*id) + ": " + nanos.error());
      return;
    }
    s.nanos = nanos.value();
  }
  mark_done(f.slot, true);
  p.in_flight.erase(it);
  p.answered[*id] = Answered{f.slot, hash};
  p.last_progress = now;
  p.failures_in_a_row = 0;
  p.probation = false;
  if (s.kind == Kind::kDecode &&
      (!good_slot || s.request->input.size() < slot(*good_slot).request->input.size())) {
    good_slot = f.slot;
  }
}

void AdapterPool::Impl::on_eof(Proc& p) {
  // Let the child finish dying, so its status and last stderr lines are known.
  bool exited = p.process->wait_exit(kExitGrace);
  p.process->drain_stderr();
  std::string partial = p.process->partial_line();
  p.process->kill();
  std::string unterminated = partial.empty() ? "" : "; unterminated last line: " + protocol::excerpt(partial);
  if (p.state == State::kStarting) {
    handshake_failed(p, (exited ? "exited during the handshake (" + p.process->status_text() + ")"
                                : "closed its stdout during the handshake but kept running (killed)") +
                            unterminated);
    return;
  }
  // A process that is gone crashed; one that closed its stdout and lives on broke the protocol.
  if (exited) {
    fail(p, std::nullopt, Outcome::kCrash, "adapter " + p.process->status_text() + unterminated);
  } else {
    fail(p, std::nullopt, Outcome::kProtocol,
         "adapter closed its stdout but was still running " + duration_text(kExitGrace) + " later (killed)" +
             unterminated);
  }
}

void AdapterPool::Impl::on_overlong(Proc& p) {
  std::string why = "answer line longer than " + std::to_string(options.max_line_bytes) +
                    " bytes: " + protocol::excerpt(p.process->overlong_prefix(), 60);
  if (p.state == State::kStarting) {
    handshake_failed(p, "hello " + why);
    return;
  }
  std::optional<std::size_t> culprit;
  if (auto id = protocol::sniff_id(p.process->overlong_prefix())) {
    if (auto it = p.in_flight.find(*id); it != p.in_flight.end()) culprit = it->second.slot;
  }
  fail(p, culprit, Outcome::kProtocol, std::move(why));
}

Clock::time_point AdapterPool::Impl::next_deadline() const {
  auto next = Clock::time_point::max();
  for (const Proc& p : procs) {
    if (p.state == State::kStarting) next = std::min(next, p.hello_by);
    if (p.state == State::kReady && !p.in_flight.empty()) {
      const InFlight& oldest = p.in_flight.begin()->second;
      next = std::min(next, std::max(oldest.sent, p.last_progress) + oldest.budget);
    }
  }
  return next;
}

void AdapterPool::Impl::check_deadlines() {
  auto now = Clock::now();
  for (Proc& p : procs) {
    if (p.state == State::kStarting && now >= p.hello_by) {
      handshake_failed(p, "no hello within " + duration_text(options.hello_deadline));
    } else if (p.state == State::kReady && !p.in_flight.empty()) {
      const InFlight oldest = p.in_flight.begin()->second;
      if (now >= std::max(oldest.sent, p.last_progress) + oldest.budget) {
        const std::string& partial = p.process->partial_line();
        std::optional<std::size_t> culprit;
        if (!shares_batch(p, oldest)) culprit = oldest.slot;
        fail(p, culprit, Outcome::kTimeout,
             "no answer within " + duration_text(oldest.budget) + "; adapter killed" +
                 (partial.empty() ? "" : "; unterminated output: " + protocol::excerpt(partial)),
             culprit.has_value());
      }
    }
  }
}

// Can `p` take one more request now? A lone request (a retry, or a process's first request on
// probation) needs a process with nothing in flight, and keeps it to itself.
bool AdapterPool::Impl::takes(const Proc& p, bool alone) const {
  if (p.state != State::kReady || p.process->queued_bytes() >= kMaxQueuedBytes) return false;
  if (!p.in_flight.empty() && (alone || p.probation || p.in_flight.begin()->second.alone)) return false;
  return p.in_flight.size() < options.max_in_flight;
}

void AdapterPool::Impl::dispatch() {
  auto now = Clock::now();
  // A process on probation proves itself on the canary first, when there is one.
  for (Proc& p : procs) {
    const DecodeRequest* c =
        p.probation && p.state == State::kReady && p.in_flight.empty() ? canary_request() : nullptr;
    if (c == nullptr) continue;
    std::uint64_t id = next_id++;
    p.process->enqueue(protocol::decode_request(id, c->root, c->input));
    p.in_flight[id] = InFlight{kCanary, now, options.deadline, true};
  }
  while (!pending.empty()) {
    std::size_t slot = pending.front();
    const Slot& s = this->slot(slot);
    Proc* best = nullptr;
    for (Proc& p : procs) {
      if (takes(p, s.retried) && (best == nullptr || p.in_flight.size() < best->in_flight.size())) best = &p;
    }
    if (best == nullptr) break;  // in order: a retry waits for an idle process
    pending.pop_front();
    std::uint64_t id = next_id++;
    Clock::duration budget = options.deadline;
    bool alone = s.retried || best->probation;
    if (s.kind != Kind::kBench && !alone && best->batch_limit > 1) {
      std::string entry = s.kind == Kind::kDecode
                              ? protocol::decode_request(id, s.request->root, s.request->input)
                              : protocol::validate_request(id, s.document->document, s.document->input);
      best->batch_bytes += entry.size();
      best->batch_lines.push_back(std::move(entry));
      best->batch_ids.push_back(id);
      best->in_flight[id] = InFlight{slot, now, budget, false, 0};
      if (best->batch_lines.size() >= best->batch_limit || best->batch_bytes >= kBatchBytes)
        send_batch(*best);
      continue;
    }
    if (s.kind == Kind::kDecode) {
      best->process->enqueue(protocol::decode_request(id, s.request->root, s.request->input));
    } else if (s.kind == Kind::kValidate) {
      best->process->enqueue(protocol::validate_request(id, s.document->document, s.document->input));
    } else {
      // The bench op runs `iterations` decodes: allow a tenth of a deadline for each.
      budget *= static_cast<long>(std::clamp<std::uint64_t>((s.iterations + 9) / 10, 1, 1000000));
      best->process->enqueue(
          s.document
              ? protocol::bench_validate_request(id, s.document->document, s.document->input, s.iterations)
              : protocol::bench_request(id, s.request->root, s.request->input, s.iterations));
    }
    best->in_flight[id] = InFlight{slot, now, budget, alone};
  }
  for (Proc& p : procs) {
    if (!p.batch_lines.empty()) send_batch(p);
    if (p.process && p.process->wants_write()) p.process->flush();
  }
  if (pending.empty()) return;
  bool alive = std::any_of(procs.begin(), procs.end(), [](const Proc& p) { return p.state != State::kDown; });
  if (alive) return;
  std::string reason = "stopped", tail;
  Outcome outcome = Outcome::kCrash;
  for (const Proc& p : procs) {
    if (!p.down_reason.empty()) {
      reason = p.gave_up ? p.down_reason : "could not restart it: " + p.down_reason;
      tail = p.down_tail;
      outcome = p.down_outcome;
      break;
    }
  }
  // Only the oldest call's requests: it is then answered, and the calls behind it try the down
  // processes again first (relaunch_down()), as the next call always has.
  const Job& front = jobs.front();
  std::deque<std::size_t> later;
  for (std::size_t slot : pending) {
    if (slot < front.first + front.count) {
      finish(slot, outcome, name() + " is down: " + reason, tail, 0);
    } else {
      later.push_back(slot);
    }
  }
  pending = std::move(later);
}

// Sends the entries dispatch() collected for `p`: one alone as its own line (the adapter's answer
// is the same either way), more as one batch line under an id of its own.
void AdapterPool::Impl::send_batch(Proc& p) {
  if (p.batch_lines.size() == 1) {
    p.process->enqueue(p.batch_lines.front());
  } else {
    std::uint64_t batch_id = next_id++;
    p.process->enqueue(protocol::batch_request(batch_id, p.batch_lines));
    // One line answers the whole batch, so the process shows no progress until all its entries are
    // done: the line gets a deadline per entry (a batch of slow validates is not a hang).
    auto budget = options.deadline * static_cast<long>(p.batch_ids.size());
    for (std::uint64_t id : p.batch_ids) {
      InFlight& f = p.in_flight[id];
      f.batch = batch_id;
      f.budget = budget;
    }
    p.batches[batch_id] = p.batch_ids;
  }
  p.batch_lines.clear();
  p.batch_ids.clear();
  p.batch_bytes = 0;
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

void AdapterPool::Impl::interrupt() {
  for (std::size_t i = slot_base; i < slot_base + slots.size(); ++i) {
    if (!slot(i).done) abandon(i, "interrupted");
  }
  pending.clear();
  end_busy_processes();
}

// Processes still working on requests given up would answer into the next call: end them; the
// next call starts fresh ones.
void AdapterPool::Impl::end_busy_processes() {
  for (Proc& p : procs) {
    if (p.state == State::kStarting || (p.state == State::kReady && !p.in_flight.empty())) {
      p.process->kill();
      p.process.reset();
      p.state = State::kDown;
      p.down_reason.clear();
      p.in_flight.clear();
      p.batches.clear();
      ++p.generation;
    }
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

void AdapterPool::Impl::mark_done(std::size_t i, bool done) {
  Slot& s = slot(i);
  if (s.done == done) return;
  s.done = done;
  for (Job& job : jobs) {
    if (i >= job.first && i < job.first + job.count) {
      done ? ++job.done : --job.done;
      return;
    }
  }
}

void AdapterPool::Impl::relaunch_down() {
  for (Proc& p : procs) {
    if (p.state == State::kDown) {
      ++counters.restarts;
      launch(p);
    }
  }
}

void AdapterPool::Impl::admit(std::vector<Slot> call, bool counted, Deliver deliver) {
  const bool idle = jobs.empty();
  Job job{slot_base + slots.size(), call.size(), 0, counted, std::move(deliver)};
  for (Slot& s : call) slots.push_back(std::move(s));
  jobs.push_back(std::move(job));
  const Job& taken = jobs.back();
  const bool refused = closed || stop_requested();
  for (std::size_t i = taken.first; i < taken.first + taken.count; ++i) {
    if (refused) {
      abandon(i, closed ? "the pool is shut down" : "interrupted");
    } else {
      pending.push_back(i);
    }
  }
  if (refused || taken.count == 0 || !idle) return;
  for (Proc& p : procs) p.last_read = Clock::time_point();  // idle since the last call
  // Anything a ready process wrote while idle belongs to no request: settle it before sending.
  service(Clock::duration::zero());
  check_exits();
  relaunch_down();
}

// One round of the loop: hand out requests, wait for the processes (or a new call), act on what
// they did.
void AdapterPool::Impl::step() {
  if (stop_requested()) {
    interrupt();
    return;
  }
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

void AdapterPool::Impl::deliver_done() {
  while (front_done()) {
    Job job = std::move(jobs.front());
    jobs.pop_front();
    const std::size_t end = job.first + job.count;
    // The call's requests are the caller's again once it is answered: a canary is copied first.
    if (good_slot && *good_slot < end) {
      if (!canary && canary_request() != nullptr) canary = *canary_request();
      good_slot.reset();
    }
    // A repeat of one of its answers from now on is an answer for an unknown id.
    for (Proc& p : procs)
      std::erase_if(p.answered, [end](const auto& entry) { return entry.second.slot < end; });
    if (job.counted) counters.requests += job.count;
    std::vector<Slot> answered = take_front_slots(job.count);
    // The next call starts as a call to an idle pool would: a process given up during this one, or
    // whose restart failed, gets another chance.
    if (!jobs.empty() && !stop_requested()) relaunch_down();
    job.deliver(answered, nullptr);
  }
}

// The loop threw (out of memory, most likely): every call taken or queued gets the error, and the
// processes with work are ended, as on a stop, so that nothing answers into a later call.
void AdapterPool::Impl::fail_all(std::exception_ptr error) {
  end_busy_processes();
  for (Proc& p : procs) p.answered.clear();
  pending.clear();
  good_slot.reset();
  std::deque<Job> failed = std::move(jobs);
  jobs.clear();
  for (Job& job : failed) {
    std::vector<Slot> taken = take_front_slots(job.count);
    job.deliver(taken, error);
  }
  std::deque<Queued> queued;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    queued.swap(incoming);
  }
  for (Queued& q : queued) q.deliver(q.slots, error);
}

std::vector<Slot> AdapterPool::Impl::take_front_slots(std::size_t count) {
  auto end = slots.begin() + static_cast<std::ptrdiff_t>(count);
  std::vector<Slot> taken(std::make_move_iterator(slots.begin()), std::make_move_iterator(end));
  slots.erase(slots.begin(), end);
  slot_base += count;
  return taken;
}

void AdapterPool::Impl::take_incoming() {
  std::deque<Queued> taken;
  {
    std::lock_guard<std::mutex> feed(feed_mutex);
    taken.swap(incoming);
  }
  for (Queued& q : taken) admit(std::move(q.slots), q.counted, std::move(q.deliver));
}

void AdapterPool::Impl::drive(bool take_queued) {
  try {
    while (true) {
      if (take_queued) take_incoming();
      deliver_done();
      if (jobs.empty()) return;
      step();
    }
  } catch (...) {
    fail_all(std::current_exception());
  }
}

void AdapterPool::Impl::serve() {
  SigpipeGuard guard;  // for the thread's whole life: it writes to the children
  std::unique_lock<std::mutex> feed(feed_mutex);
  while (true) {
    feed_cv.wait(feed, [this] { return !incoming.empty() || feed_closed; });
    if (incoming.empty()) return;  // closed, and every call answered
    feed.unlock();
    {
      std::lock_guard<std::mutex> engine(engine_mutex);
      drive(true);
    }
    feed.lock();
  }
}

void AdapterPool::Impl::wake_feed() {
  if (feed_wake[1] < 0) return;
  char byte = 1;
  [[maybe_unused]] auto n = ::write(feed_wake[1], &byte, 1);  // a full pipe already wakes the poll
}

void AdapterPool::Impl::submit(std::vector<Slot> call, bool counted, Deliver deliver) {
  std::unique_lock<std::mutex> feed(feed_mutex);
  if (feed_closed) {
    // Shut down: the pool's thread is gone (or going), so this caller answers, without the pool.
    for (Slot& s : call) {
      s.result = ImplResult{};
      s.result.implementation = spec.name;
      s.result.outcome = Outcome::kError;
      s.result.message = "the pool is shut down";
      s.result.abandoned = true;
      s.done = true;
    }
    feed.unlock();
    deliver(call, nullptr);
    return;
  }
  incoming.push_back(Queued{std::move(call), counted, std::move(deliver)});
  if (!worker.joinable()) worker = std::thread([this] { serve(); });
  feed.unlock();
  feed_cv.notify_one();
  wake_feed();
}

std::vector<Slot> AdapterPool::Impl::call(std::vector<Slot> call, bool counted) {
  std::optional<std::vector<Slot>> answered;
  std::exception_ptr failed;
  {
    std::unique_lock<std::mutex> feed(feed_mutex);
    std::unique_lock<std::mutex> engine(engine_mutex, std::defer_lock);
    // Nothing queued and the pool's thread idle: this thread drives the call itself, as if the pool
    // had no thread (no hand-over to another thread and back for a caller that waits anyway).
    if (!feed_closed && incoming.empty() && engine.try_lock() && jobs.empty()) {
      feed.unlock();
      SigpipeGuard guard;
      try {
        admit(std::move(call), counted, [&](std::vector<Slot>& slots, std::exception_ptr error) {
          if (error) {
            failed = error;
          } else {
            answered = std::move(slots);
          }
        });
      } catch (...) {
        fail_all(std::current_exception());
        if (!failed) throw;  // the call was not taken
      }
      drive(false);
      if (failed) std::rethrow_exception(failed);
      return std::move(*answered);
    }
  }
  std::promise<std::vector<Slot>> promised;
  auto future = promised.get_future();
  submit(std::move(call), counted, [&promised](std::vector<Slot>& slots, std::exception_ptr error) {
    if (error) {
      promised.set_exception(error);
    } else {
      promised.set_value(std::move(slots));
    }
  });
  return future.get();
}

namespace {

std::vector<Slot> decode_slots(const std::vector<DecodeRequest>& requests) {
  std::vector<Slot> slots(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) slots[i].request = &requests[i];
  return slots;
}

std::vector<ImplResult> decode_results(std::vector<Slot>& slots) {
  std::vector<ImplResult> results;
  results.reserve(slots.size());
  for (Slot& s : slots) results.push_back(std::move(s.result));
  return results;
}

std::vector<Slot> validate_slots(const std::vector<ValidateRequest>& requests) {
  std::vector<Slot> slots(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    slots[i].kind = Kind::kValidate;
    slots[i].document = &requests[i];
  }
  return slots;
}

std::vector<ValidateResult> validate_results(std::vector<Slot>& slots, const std::string& name) {
  std::vector<ValidateResult> results(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& s = slots[i];
    if (s.verdict) {
      results[i] = std::move(*s.verdict);
      continue;
    }
    // The harness's own verdict (crash, timeout, protocol, abandoned), carried in the decode result.
    ValidateResult& r = results[i];
    r.implementation = name;
    switch (s.result.outcome) {
      case Outcome::kCrash:
        r.verdict = Verdict::kCrash;
        break;
      case Outcome::kTimeout:
        r.verdict = Verdict::kTimeout;
        break;
      case Outcome::kProtocol:
        r.verdict = Verdict::kProtocol;
        break;
      default:
        r.verdict = Verdict::kError;
        break;
    }
    r.message = s.result.message;
    r.stderr_tail = std::move(s.result.stderr_tail);
    r.millis = s.result.millis;
    r.abandoned = s.result.abandoned;
  }
  return results;
}

std::vector<ValidateResult> without_canonical_layer(std::size_t count, const std::string& name) {
  std::vector<ValidateResult> results(count);
  for (auto& r : results) {
    r.implementation = name;
    r.verdict = Verdict::kUnsupported;
    r.message = "the adapter's hello does not list the canonical layer";
  }
  return results;
}

}  // namespace

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

Result<std::unique_ptr<AdapterPool>, StartError> AdapterPool::start(const AdapterSpec& spec,
                                                                    const PoolOptions& options) {
  auto impl = std::make_unique<Impl>(spec, options);
  if (auto error = impl->start()) return std::move(*error);
  return std::unique_ptr<AdapterPool>(new AdapterPool(std::move(impl)));
}

AdapterPool::AdapterPool(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AdapterPool::~AdapterPool() { shutdown(); }

const Identity& AdapterPool::identity() const { return impl_->identity; }

std::vector<ImplResult> AdapterPool::decode(const std::vector<DecodeRequest>& requests) {
  auto answered = impl_->call(decode_slots(requests), true);
  return decode_results(answered);
}

void AdapterPool::submit_decode(const std::vector<DecodeRequest>& requests, DecodeDone done) {
  impl_->submit(decode_slots(requests), true,
                [done = std::move(done)](std::vector<Slot>& slots, std::exception_ptr error) {
                  done(decode_results(slots), error);
                });
}

std::vector<ValidateResult> AdapterPool::validate(const std::vector<ValidateRequest>& requests) {
  if (!impl_->identity.has_layer(kCanonicalLayer))
    return without_canonical_layer(requests.size(), impl_->spec.name);
  auto answered = impl_->call(validate_slots(requests), true);
  return validate_results(answered, impl_->spec.name);
}

void AdapterPool::submit_validate(const std::vector<ValidateRequest>& requests, ValidateDone done) {
  if (!impl_->identity.has_layer(kCanonicalLayer)) {
    done(without_canonical_layer(requests.size(), impl_->spec.name), nullptr);
    return;
  }
  impl_->submit(
      validate_slots(requests), true,
      [done = std::move(done), name = impl_->spec.name](std::vector<Slot>& slots, std::exception_ptr error) {
        done(validate_results(slots, name), error);
      });
}

namespace {

// `count` bench requests, of requests[i] or documents[i] (one of the two is null), pipelined.
std::vector<std::optional<std::uint64_t>> run_bench(AdapterPool::Impl& impl, std::size_t count,
                                                    const DecodeRequest* requests,
                                                    const ValidateRequest* documents,
                                                    std::uint64_t iterations) {
  std::vector<Slot> slots(count);
  for (std::size_t i = 0; i < count; ++i) {
    slots[i].kind = Kind::kBench;
    slots[i].request = requests ? &requests[i] : nullptr;
    slots[i].document = documents ? &documents[i] : nullptr;
    slots[i].iterations = iterations;
  }
  std::vector<std::optional<std::uint64_t>> out(count);
  if (count == 0) return out;
  auto answered = impl.call(std::move(slots), false);
  for (std::size_t i = 0; i < count; ++i) out[i] = answered[i].nanos;
  return out;
}

}  // namespace

std::optional<std::uint64_t> AdapterPool::bench(const DecodeRequest& request, std::uint64_t iterations) {
  return run_bench(*impl_, 1, &request, nullptr, iterations)[0];
}

std::vector<std::optional<std::uint64_t>> AdapterPool::bench_each(const std::vector<DecodeRequest>& requests,
                                                                  std::uint64_t iterations) {
  return run_bench(*impl_, requests.size(), requests.data(), nullptr, iterations);
}

std::optional<std::uint64_t> AdapterPool::bench_validate(const ValidateRequest& request,
                                                         std::uint64_t iterations) {
  return run_bench(*impl_, 1, nullptr, &request, iterations)[0];
}

std::vector<std::optional<std::uint64_t>> AdapterPool::bench_validate_each(
    const std::vector<ValidateRequest>& requests, std::uint64_t iterations) {
  return run_bench(*impl_, requests.size(), nullptr, requests.data(), iterations);
}

AdapterPool::Stats AdapterPool::stats() const { return impl_->stats(); }

void AdapterPool::shutdown() { impl_->shutdown(); }

}  // namespace crosscheck::exec
