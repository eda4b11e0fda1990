// conformance_session.hpp: what the checks of the conformance suite (conformance.hpp) share: a
// session (one adapter process past its hello, and the lines it wrote that nobody read yet), the
// context the hello gave, reading answers with a deadline, and each check's entry point. Internal to
// exec: conformance.cpp runs the checks, conformance_<op>_checks.cpp hold them by the op they try.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/impl_result.hpp"
#include "exec/adapter_process.hpp"
#include "exec/conformance.hpp"
#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::exec::conformance::detail {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline constexpr std::size_t kMaxLine = std::size_t{64} << 20;  // the pool's limit on an answer line
inline constexpr std::uint64_t kNoId = ~std::uint64_t{0};       // decode_answer() of an id-null answer

std::string seconds_text(milliseconds d);
long long elapsed_ms(Clock::time_point since);

// One adapter process and the lines it has written but nobody has read yet.
class Session {
 public:
  enum class Status { kLine, kEof, kTimeout, kOverlong, kStopped };

  static Result<std::unique_ptr<Session>, std::string> spawn(const AdapterSpec& spec, const Options& o);

  void send(std::string_view bytes) {
    p_->enqueue(bytes);
    p_->flush();
  }

  /// The next non-blank stdout line, waiting at most `wait` (writing queued stdin meanwhile).
  Status next(std::string& line, milliseconds wait);

  /// Why the wait for `what` ended without a line; ends the process (its status goes in the text).
  std::string failure(Status status, const std::string& what, milliseconds wait);

  std::string tail() {
    p_->drain_stderr();
    return p_->stderr_tail();
  }
  void end() {
    p_->drain_stderr();
    p_->kill();
    ended_ = true;
  }
  bool ended() const { return ended_; }
  AdapterProcess& process() { return *p_; }

 private:
  Session() = default;
  std::unique_ptr<AdapterProcess> p_;
  std::deque<std::string> lines_;
  bool eof_ = false, overlong_ = false, ended_ = false;
};

using Status = Session::Status;

struct Failure {
  std::string message, stderr_tail;
};

// Spawns the adapter, sends `hello`, and waits for the first line.
Result<std::pair<std::unique_ptr<Session>, std::string>, Failure> open(const AdapterSpec& spec,
                                                                       const Options& o,
                                                                       const std::string& hello);

std::string quoted(std::string_view text);  ///< as a JSON string
/// A decode request line.
std::string decode_line(std::uint64_t id, std::string_view root, std::string_view base64_text);
/// The line as a JSON object, or nullopt with `why` saying what it is instead.
std::optional<json::Value> parse_line(const std::string& line, std::string& why);
/// The outcome, with the message when there is one (for failure details).
std::string outcome_text(const core::ImplResult& r);

// What the checks share: the adapter, the options, and what its hello said.
struct Context {
  Context(const AdapterSpec& s, const Options& options) : spec(s), o(options) {}
  const AdapterSpec& spec;
  const Options& o;
  std::string root;         // a root the adapter lists
  std::string valid_input;  // a small payload for it (any outcome will do)
  std::string unknown_root;
  std::string language;
  bool canonical = false;     // the hello lists the canonical layer (the validate op)
  std::size_t batch_max = 0;  // the hello's batch.max (the batch op), 0 when it does not list it
  std::uint64_t next_id = 100;
};

// Reads answers until each id in `ids` has one and `nulls` answers with id null came. Fails on a
// line that is not a JSON object, an id not asked for, a second answer, EOF or a deadline.
struct Collected {
  std::map<std::uint64_t, json::Value> by_id;
  std::vector<std::uint64_t> order;  // ids in the order their answers came
  std::vector<json::Value> null_id;
};

std::optional<std::string> collect(Session& s, const Context& c, const std::set<std::uint64_t>& ids,
                                   std::size_t nulls, Collected& out, const std::string& what);

// A decode answer: its schema (schemas/adapter-answer.schema.json) and the structure the pool
// enforces.
Result<core::ImplResult, std::string> decode_answer(const json::Value& answer, std::uint64_t id);

// For an accepted answer to a payload that is JSON: the SDK's re-encoding, which the comparator
// parses, must be JSON text too. (For other payloads what encode makes of them is a finding of the
// differential run, not a protocol matter.)
std::optional<std::string> encoded_problem(const core::ImplResult& r);

// One decode request, one answer.
Result<core::ImplResult, std::string> ask(Session& s, Context& c, std::string_view root,
                                          std::string_view base64_text, const std::string& what);

// After a passing check: the next line must be the answer to one more plain request.
std::optional<std::string> follow_up(Session& s, Context& c);

CheckResult pass(std::string name, std::string detail);
CheckResult fail(std::string name, std::string detail);

// ---- the checks, in the order run() performs them ----------------------------------------------

// The handshake and the process's life (conformance_lifecycle_checks.cpp).
/// What is wrong with the hello answer `line`, if anything; else fills `c` and a `summary` of it.
std::optional<std::string> hello_problem(const std::string& line, Context& c, std::string& summary);
CheckResult check_shutdown(Session& s, Context& c);
// These two start a process of their own.
CheckResult check_eof(const AdapterSpec& spec, Context& c, std::string& tail);
CheckResult check_refusal(const AdapterSpec& spec, Context& c, std::string& tail);

// The decode op (conformance_decode_checks.cpp).
CheckResult check_ids(Session& s, Context& c);
CheckResult check_pipelining(Session& s, Context& c);
CheckResult check_unknown_root(Session& s, Context& c);
CheckResult check_invalid_base64(Session& s, Context& c);
CheckResult check_invalid_json(Session& s, Context& c);
CheckResult check_not_utf8(Session& s, Context& c);
CheckResult check_byte_order_mark(Session& s, Context& c);
CheckResult check_large(Session& s, Context& c);
CheckResult check_bad_requests(Session& s, Context& c);

// The optional ops: bench (conformance_bench_checks.cpp), validate (conformance_validate_checks.cpp),
// batch (conformance_batch_checks.cpp).
CheckResult check_bench(Session& s, Context& c);
CheckResult check_validate(Session& s, Context& c);
CheckResult check_batch(Session& s, Context& c);

}  // namespace crosscheck::exec::conformance::detail
