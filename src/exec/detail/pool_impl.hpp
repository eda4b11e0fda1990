// pool_impl.hpp: AdapterPool::Impl, the engine behind AdapterPool (adapter_pool.hpp), and what its
// parts share: the constants, a request as the pool holds it (Slot), a process and its window
// (Proc). Internal to exec; the parts are the files beside it (adapter_pool.cpp names them).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/impl_result.hpp"
#include "exec/adapter_pool.hpp"
#include "exec/adapter_process.hpp"
#include "json/value.hpp"

namespace crosscheck::exec::pool_detail {

using Clock = std::chrono::steady_clock;
using core::ImplResult;
using core::Outcome;
using core::ValidateResult;
using std::chrono::milliseconds;

inline constexpr milliseconds kPollCap{250};         // re-check the stop flag at least this often
inline constexpr milliseconds kExitGrace{500};       // after stdout EOF, for the child's exit status
inline constexpr milliseconds kShutdownGrace{2000};  // after {"op":"shutdown"}, before SIGKILL
// Requests are handed to a process only while less than this is waiting to be written to it, so a
// batch of large payloads for an adapter that stopped reading does not pile up in memory.
inline constexpr std::size_t kMaxQueuedBytes = std::size_t{8} << 20;
// Coalescing (coalesce()): at most this long, this many answers, and about this many bytes of
// answers waiting in the adapter's stdout pipe (64 KiB on Linux), so the adapter never blocks on it.
inline constexpr std::chrono::microseconds kMaxCoalesce{2000};
inline constexpr std::size_t kCoalesceAnswers = 16;
inline constexpr double kCoalesceBytes = 24 * 1024;
inline constexpr std::size_t kPipeBytes = 64 * 1024;
// How often to look for a child that exited while a helper still holds its stdout (a syscall).
inline constexpr milliseconds kExitCheckEvery{10};
// Failures of one process in a row, without a good answer, before it is put on probation.
inline constexpr std::size_t kFailuresInARow = 3;
// InFlight::slot of the canary, which belongs to no slot of the call.
inline constexpr std::size_t kCanary = static_cast<std::size_t>(-1);
// Batching: a process's window holds this many batches, so it has the next one while the harness
// reads the last; a batch line closes at about this many bytes, so large payloads are not held back.
inline constexpr std::size_t kBatchesInFlight = 4;
inline constexpr std::size_t kBatchBytes = std::size_t{1} << 20;
// A batch line's deadline: one deadline plus this many times the work its entries take at the pace
// the process has shown on earlier batches, so a hang inside a batch is noticed within about one
// deadline while a batch of slow validates is not cut short (batch_budget()).
inline constexpr double kBatchPaceSlack = 8;

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
  // Seconds an entry of a batch line took, a moving average over the batch answers (0: none yet);
  // kept across restarts, as the pace is the SDK's, not the process's.
  double entry_seconds = 0;
};

inline std::string duration_text(Clock::duration d) {
  auto ms = std::chrono::duration_cast<milliseconds>(d).count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

inline double millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace crosscheck::exec::pool_detail

namespace crosscheck::exec {

class AdapterPool::Impl {
 public:
  using Clock = pool_detail::Clock;
  using Slot = pool_detail::Slot;
  using Proc = pool_detail::Proc;
  using InFlight = pool_detail::InFlight;
  using Outcome = core::Outcome;

  Impl(const AdapterSpec& s, const PoolOptions& o);
  ~Impl();

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
  /// Waits until the pool's thread is idle.
  Stats stats() const;

  AdapterSpec spec;
  PoolOptions options;
  core::Identity identity;
  Stats counters;
  std::shared_ptr<CpuTally> reaped_cpu = std::make_shared<CpuTally>(0.0);  // processes killed so far

 private:
  // pool_loop.cpp: processes started and polled, one round of the loop.
  void launch(Proc& p);
  void step();
  void service(Clock::duration max_wait);
  void read_output(Proc& p, std::uint64_t generation);
  void check_exits();
  void coalesce();
  void note_answers(Proc& p, std::size_t answers, std::size_t bytes);

  // pool_dispatch.cpp: pending requests to processes, single lines or batch lines.
  bool takes(const Proc& p, bool alone) const;
  void dispatch();
  void send_batch(Proc& p);
  bool shares_batch(const Proc& p, const InFlight& f) const;

  // pool_answers.cpp: answer lines matched to the requests they answer.
  void on_line(Proc& p, std::string_view line);
  void on_answer(Proc& p, std::string_view line);
  void on_entry(Proc& p, const json::Value& answer, std::uint64_t id, std::size_t hash,
                std::string_view line);
  void on_batch_answer(Proc& p, const json::Value& answer, std::uint64_t id, std::string_view line);
  void finish(std::size_t slot, Outcome outcome, std::string message, std::string tail, double ms);
  /// Finishes a request nobody answered because the harness gave it up (ImplResult::abandoned).
  void abandon(std::size_t slot, std::string why);
  void mark_done(std::size_t i, bool done);

  // pool_failures.cpp: deadlines, failures and the circuit breaker, shed and cut.
  void handshake_failed(Proc& p, std::string why);
  // blame_oldest: with no named culprit, charge the oldest in flight (the sequential adapter's
  // current request); false: charge nobody, retry everything in flight alone.
  void fail(Proc& p, std::optional<std::size_t> culprit, Outcome outcome, std::string message,
            bool blame_oldest = true);
  void give_up(Proc& p, Outcome outcome, std::string why);
  const DecodeRequest* canary_request() const;
  void on_eof(Proc& p);
  void on_overlong(Proc& p);
  Clock::time_point next_deadline() const;
  void check_deadlines();
  /// The deadline of a batch line of `entries` entries to `p`, from the pace it has shown.
  Clock::duration batch_budget(const Proc& p, std::size_t entries) const;
  /// The pace of a batch line just answered (entry_seconds), before its entries count as progress.
  void note_batch_pace(Proc& p, const std::vector<std::uint64_t>& entries);
  /// One answer line for `entries` requests, the first sent at `sent`: into Proc::entry_seconds.
  void note_pace(Proc& p, Clock::time_point sent, std::size_t entries);
  void relaunch_down();
  void end_busy_processes();
  void interrupt();
  /// shed() on the pool's thread: every request of the calls shed that no process was given is
  /// answered skipped.
  void shed_pending();
  /// cut() on the pool's thread: every request of the calls cut is abandoned, sent or not.
  void cut_calls();

  // pool_feed.cpp: calls from the callers' threads to the pool's thread and back.
  // The pool's thread: takes queued calls (admit()) and runs step() until every call is answered.
  void serve();
  void take_incoming();
  /// Runs the calls taken until every one is answered (`take_queued`: taking queued calls too); a
  /// throw answers them all with the error (fail_all()).
  void drive(bool take_queued);
  /// `seq`: the call's number in the order callers made them (shed() sheds the calls up to one).
  void admit(std::vector<Slot> call, bool counted, Deliver deliver, std::uint64_t seq);
  /// Answers the calls at the front whose slots are all done, in the order they were queued.
  void deliver_done();
  void fail_all(std::exception_ptr error);
  std::vector<Slot> take_front_slots(std::size_t count);
  void wake_feed();
  std::uint64_t job_seq(std::size_t slot) const;  ///< Job::seq of the call a slot belongs to

  Slot& slot(std::size_t i) { return slots[i - slot_base]; }
  const Slot& slot(std::size_t i) const { return slots[i - slot_base]; }
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
    std::uint64_t seq = 0;  // Queued::seq
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
    std::uint64_t seq = 0;
  };
  std::mutex feed_mutex;
  std::uint64_t calls_made = 0;    // under feed_mutex: Queued::seq of the last call made
  std::uint64_t shed_through = 0;  // under feed_mutex: shed the calls numbered up to this
  std::uint64_t shed_done = 0;     // the pool's thread: shed_through when it last shed
  std::uint64_t cut_through = 0;   // under feed_mutex: abandon the calls numbered up to this
  std::uint64_t cut_done = 0;      // the pool's thread: cut_through when it last cut
  std::condition_variable feed_cv;
  std::deque<Queued> incoming;
  bool feed_closed = false;
  std::thread worker;
  int feed_wake[2] = {-1, -1};  // a self-pipe, non-blocking and close-on-exec

 public:
  /// AdapterPool::shed(), on any thread: the calls made so far are shed at the pool thread's next step.
  void request_shed();
  /// AdapterPool::cut(), on any thread.
  void request_cut();

 private:
  mutable std::mutex engine_mutex;
};

}  // namespace crosscheck::exec
