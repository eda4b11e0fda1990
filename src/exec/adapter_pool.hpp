// adapter_pool.hpp: N long-lived processes of one adapter, speaking protocol v1 (docs/protocol.md).
//
// The pool owns robustness: pipelined requests (up to max_in_flight per process), a per-request
// deadline, detection of a dead adapter, a garbled or over-long line, a wrong, unknown or repeated
// id, a hello with another protocol version; on any of these the process is killed, reaped and
// restarted with a fresh handshake, and the request that killed or hung it is answered with a crash,
// timeout or protocol result carrying the stderr tail. stderr is drained continuously so an adapter
// can never block on it. Requests that were in flight on a process that died for another request's
// sake are retried once, each alone on a process, and never charged for it; every failure charges
// exactly one request (the one it names, else the oldest in flight), so a batch always ends and no
// request is sent more than twice. The deadline counts from when a request was sent or the process
// last answered, whichever is later, so a deep pipeline on a healthy adapter does not time out. A
// restart whose handshake fails leaves that process down (stats().down): its requests go to the
// other processes, or get crash results saying why when none is left; the next call tries to
// start it again. A process that fails 3 times in a row without a good answer must answer a payload
// it answered before (the canary) alone, or it is down until the oldest call is answered, with the class of
// its last failure (docs/robustness.md).
// An adapter whose hello lists the batch op gets what would be pipelined to it grouped into batch
// lines (PoolOptions::max_batch); a broken batch answer charges the entries it fails to answer, a
// refusal halves that adapter's batches, and a death or timeout with a batch in flight retries its
// entries alone (docs/protocol.md, batch). A batch line's deadline is one per entry.
// The pool's own thread (started by its first queued call) drives its processes for queued calls.
// Pipelining across calls: a call queued with submit_decode() or submit_validate() while another
// is running is taken as soon as the processes have room, so an adapter does not run dry at the
// boundary of two calls (the fuzz loop keeps one batch queued behind the one in flight); calls are
// answered in the order they were queued. decode(), validate() and bench() wait for their call, and
// drive it on the calling thread when the pool has nothing else to do. Calls come from one thread
// at a time (separate pools are independent).
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/impl_result.hpp"
#include "util/result.hpp"

namespace crosscheck::exec {

struct AdapterSpec {
  std::string name;                        ///< "python", "go/direct", or an ad-hoc name
  std::vector<std::string> argv;           ///< argv[0] looked up on PATH when it has no slash
  std::string cwd;                         ///< empty: the current directory
  std::map<std::string, std::string> env;  ///< added to (overriding) the harness's environment
};

struct PoolOptions {
  std::size_t processes = 1;                           ///< --jobs
  std::size_t max_in_flight = 64;                      ///< per process
  std::chrono::milliseconds deadline{10000};           ///< per request
  std::chrono::milliseconds hello_deadline{60000};     ///< start-up, including the SDK's own loading
  std::size_t max_line_bytes = std::size_t{64} << 20;  ///< longer answer lines are a protocol error
  std::size_t stderr_tail_bytes = 16384;
  /// Entries per batch line to an adapter whose hello lists the batch op (also at most its own
  /// batch.max and max_in_flight / 4); 1 sends single requests to every adapter.
  std::size_t max_batch = 64;
};

struct StartError {
  std::string adapter;
  std::string message;  ///< "command not found: ...", "no hello within 60 s", "protocol 2 (expected 1)", ...
  std::string stderr_tail;
};

struct DecodeRequest {
  std::string root;   ///< snake_case
  std::string input;  ///< raw payload bytes
};

/// Layer 2: one payload to validate canonically as one schema document.
struct ValidateRequest {
  std::string document;  ///< a schema document name without .schema.json ("intercept-request")
  std::string input;     ///< raw payload bytes
};

class AdapterPool {
 public:
  /// Starts `options.processes` processes and completes their handshakes.
  static Result<std::unique_ptr<AdapterPool>, StartError> start(const AdapterSpec& spec,
                                                                const PoolOptions& options);
  ~AdapterPool();  ///< shutdown()

  const core::Identity& identity() const;

  /// Decodes every request (pipelined across the pool's processes) and returns one result per
  /// request, in request order. Never throws for adapter misbehaviour: that becomes a result.
  std::vector<core::ImplResult> decode(const std::vector<DecodeRequest>& requests);

  /// decode() without waiting: `done` gets the results (or the exception the pool's loop died of) on
  /// the pool's thread once every request is answered. `requests` must outlive that.
  using DecodeDone = std::function<void(std::vector<core::ImplResult>, std::exception_ptr)>;
  void submit_decode(const std::vector<DecodeRequest>& requests, DecodeDone done);

  /// Validates every request canonically (the validate op, pipelined like decode() and with the same
  /// robustness) and returns one result per request, in request order. An adapter whose hello does
  /// not list the canonical layer is not asked: every result is unsupported, saying so.
  std::vector<core::ValidateResult> validate(const std::vector<ValidateRequest>& requests);
  /// validate() without waiting, as submit_decode() (an adapter without the layer is answered at
  /// once, on the calling thread).
  using ValidateDone = std::function<void(std::vector<core::ValidateResult>, std::exception_ptr)>;
  void submit_validate(const std::vector<ValidateRequest>& requests, ValidateDone done);

  /// The optional bench op: total in-process nanoseconds the adapter reports for `iterations`
  /// parse+encode of one payload, or nullopt if the adapter does not support it.
  std::optional<std::uint64_t> bench(const DecodeRequest& request, std::uint64_t iterations);
  /// The same for the validate op (a bench request with `document` instead of `root`): the
  /// adapter's own time for `iterations` validations of one payload.
  std::optional<std::uint64_t> bench_validate(const ValidateRequest& request, std::uint64_t iterations);
  /// One bench request per entry, all sent before the answers are read (up to the in-flight limit,
  /// as decode() sends): the adapter goes from one to the next without waiting for the harness, as
  /// it does in a run. For an adapter whose call takes microseconds, waiting on the pipe between
  /// calls one at a time costs it as much as the call (cold caches after each wake-up).
  std::vector<std::optional<std::uint64_t>> bench_each(const std::vector<DecodeRequest>& requests,
                                                       std::uint64_t iterations);
  std::vector<std::optional<std::uint64_t>> bench_validate_each(const std::vector<ValidateRequest>& requests,
                                                                std::uint64_t iterations);

  /// Counters for reports: restarts, crashes, timeouts, protocol errors. Waits until the pool has
  /// answered every call queued.
  struct Stats {
    std::size_t requests = 0, restarts = 0, crashes = 0, timeouts = 0, protocol_errors = 0;
    std::size_t down = 0;    ///< processes whose restart failed; the next call tries them again
    double cpu_seconds = 0;  ///< CPU time of the pool's processes, summed over restarts (AdapterProcess)
  };
  Stats stats() const;

  /// Sends shutdown, waits a grace period, then kills. Idempotent.
  void shutdown();

  class Impl;

 private:
  explicit AdapterPool(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Set by the SIGINT/SIGTERM handler: pools stop sending, answer what is pending as errors, and
/// callers write what they have before exiting.
bool stop_requested();
void request_stop();
void install_stop_handlers();
/// Clears the flag (tests; or a caller that has dealt with the stop and goes on).
void reset_stop();

}  // namespace crosscheck::exec
