// conformance.cpp: the checks of `crosscheck adapters --check`, each over a raw AdapterProcess.
//
// One session (a process past its hello) serves the checks in turn. A check sends its requests and
// reads answers with a deadline that restarts at every line; a passing check is followed by one
// plain decode whose answer must be the next line, which charges an extra or repeated answer, a
// death or a hang to the check that caused it. Any failure ends the session (killed and reaped);
// the next check starts a fresh process with a new handshake, so one fault is reported once and
// the remaining checks still say something.
#include "exec/conformance.hpp"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/impl_result.hpp"
#include "exec/adapter_process.hpp"
#include "exec/protocol_codec.hpp"
#include "exec/sigpipe_guard.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance {

using core::Diag;
using core::Identity;
using core::ImplResult;
using core::kCanonicalLayer;
using core::Outcome;
using core::outcome_name;
using core::Verdict;
using core::verdict_name;

namespace {

using Clock = std::chrono::steady_clock;
using json::Value;
using std::chrono::milliseconds;

constexpr std::size_t kMaxLine = std::size_t{64} << 20;  // the pool's limit on an answer line
constexpr std::uint64_t kNoId = ~std::uint64_t{0};       // decode_answer() of an id-null answer

std::string seconds_text(milliseconds d) {
  return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s" : std::to_string(d.count()) + " ms";
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - since).count();
}

// One adapter process and the lines it has written but nobody has read yet.
class Session {
 public:
  enum class Status { kLine, kEof, kTimeout, kOverlong, kStopped };

  static Result<std::unique_ptr<Session>, std::string> spawn(const AdapterSpec& spec, const Options& o) {
    auto p = AdapterProcess::spawn(spec, o.stderr_tail_bytes);
    if (!p.ok()) return p.error();
    auto s = std::unique_ptr<Session>(new Session());
    s->p_ = std::move(p).value();
    return s;
  }

  void send(std::string_view bytes) {
    p_->enqueue(bytes);
    p_->flush();
  }

  /// The next non-blank stdout line, waiting at most `wait` (writing queued stdin meanwhile).
  Status next(std::string& line, milliseconds wait) {
    auto until = Clock::now() + wait;
    for (;;) {
      while (!lines_.empty()) {
        line = std::move(lines_.front());
        lines_.pop_front();
        if (line.find_first_not_of(" \t\r") != std::string::npos) return Status::kLine;
      }
      if (overlong_) return Status::kOverlong;
      if (eof_) return Status::kEof;
      if (stop_requested()) return Status::kStopped;
      auto left = until - Clock::now();
      if (left <= Clock::duration::zero()) return Status::kTimeout;
      pollfd fds[3];
      nfds_t n = 0;
      fds[n++] = {p_->stdout_fd(), POLLIN, 0};
      if (p_->stderr_fd() >= 0) fds[n++] = {p_->stderr_fd(), POLLIN, 0};
      if (p_->wants_write()) fds[n++] = {p_->stdin_fd(), POLLOUT, 0};
      auto timeout = std::min<long long>(std::chrono::ceil<milliseconds>(left).count(), 250);
      int ready = ::poll(fds, n, static_cast<int>(timeout));
      p_->drain_stderr();
      if (p_->wants_write()) p_->flush();
      std::vector<std::string> got;
      auto status = p_->read_lines(got, kMaxLine);
      for (auto& g : got) lines_.push_back(std::move(g));
      if (status == AdapterProcess::ReadStatus::kEof) eof_ = true;
      if (status == AdapterProcess::ReadStatus::kOverlong) overlong_ = true;
      // A child whose helper still holds stdout never shows EOF: notice its exit instead.
      if (ready == 0 && got.empty() && p_->has_exited()) eof_ = true;
    }
  }

  /// Why the wait for `what` ended without a line; ends the process (its status goes in the text).
  std::string failure(Status status, const std::string& what, milliseconds wait) {
    std::string why;
    switch (status) {
      case Status::kEof: {
        bool exited = p_->wait_exit(milliseconds(500));
        p_->drain_stderr();
        std::string partial = p_->partial_line();
        p_->kill();
        why = "the adapter died while waiting for " + what + " (" +
              (exited ? p_->status_text() : "closed its stdout, then " + p_->status_text()) + ")";
        if (!partial.empty()) why += "; unterminated last line: " + protocol::excerpt(partial);
        break;
      }
      case Status::kTimeout:
        why = "nothing came within " + seconds_text(wait) + " while waiting for " + what;
        break;
      case Status::kOverlong:
        why = "a line longer than 64 MiB while waiting for " + what + ": " +
              protocol::excerpt(p_->overlong_prefix(), 60);
        break;
      case Status::kStopped:
        why = "interrupted";
        break;
      case Status::kLine:
        break;
    }
    end();
    return why;
  }

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
                                                                       const std::string& hello) {
  auto spawned = Session::spawn(spec, o);
  if (!spawned.ok()) return Failure{spawned.error(), ""};
  auto s = std::move(spawned).value();
  s->send(hello);
  std::string line;
  Status status = s->next(line, o.hello_deadline);
  if (status != Status::kLine) {
    std::string why = s->failure(status, "the hello answer", o.hello_deadline);
    return Failure{why, s->tail()};
  }
  return std::make_pair(std::move(s), std::move(line));
}

std::string quoted(std::string_view text) { return json::quote(text); }

std::string decode_line(std::uint64_t id, std::string_view root, std::string_view base64_text) {
  return "{\"op\":\"decode\",\"id\":" + std::to_string(id) + ",\"root\":" + quoted(root) + ",\"input\":\"" +
         std::string(base64_text) + "\"}\n";
}

std::optional<Value> parse_line(const std::string& line, std::string& why) {
  json::ParseLimits limits;
  limits.max_bytes = kMaxLine;
  auto parsed = json::parse(line, limits);
  if (!parsed.ok()) {
    why = "a line that is not JSON (" + parsed.error().message() + "): " + protocol::excerpt(line);
    return std::nullopt;
  }
  if (!parsed.value().is_object()) {
    why = "a line that is not a JSON object: " + protocol::excerpt(line);
    return std::nullopt;
  }
  return std::move(parsed).value();
}

std::string outcome_text(const ImplResult& r) {
  std::string text = outcome_name(r.outcome);
  if (r.message) text += " (message " + quoted(*r.message) + ")";
  return text;
}

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
  std::map<std::uint64_t, Value> by_id;
  std::vector<std::uint64_t> order;  // ids in the order their answers came
  std::vector<Value> null_id;
};

std::optional<std::string> collect(Session& s, const Context& c, const std::set<std::uint64_t>& ids,
                                   std::size_t nulls, Collected& out, const std::string& what) {
  while (out.by_id.size() < ids.size() || out.null_id.size() < nulls) {
    std::string line;
    Status status = s.next(line, c.o.deadline);
    if (status != Status::kLine) return s.failure(status, what, c.o.deadline);
    std::string why;
    auto answer = parse_line(line, why);
    if (!answer) return "got " + why;
    const Value* id = answer->find("id");
    if (id != nullptr && id->is_null()) {
      if (out.null_id.size() >= nulls)
        return "an answer with id null, to no request that lacked an id: " + protocol::excerpt(line);
      out.null_id.push_back(std::move(*answer));
      continue;
    }
    auto n = protocol::answer_id(*answer);
    if (!n) return "an answer without an integer id: " + protocol::excerpt(line);
    if (!ids.count(*n))
      return "an answer for id " + std::to_string(*n) + ", which no request had: " + protocol::excerpt(line);
    if (out.by_id.count(*n))
      return "a second answer for id " + std::to_string(*n) + ": " + protocol::excerpt(line);
    out.by_id.emplace(*n, std::move(*answer));
    out.order.push_back(*n);
  }
  return std::nullopt;
}

// A decode answer: its schema (schemas/adapter-answer.schema.json) and the structure the pool
// enforces.
Result<ImplResult, std::string> decode_answer(const Value& answer, std::uint64_t id) {
  std::string which = id == kNoId ? std::string("an id-null answer") : "answer to id " + std::to_string(id);
  if (auto problem = protocol::schema_problem(protocol::Line::kDecodeAnswer, answer))
    return which + " breaks its schema " + *problem;
  auto r = protocol::parse_decode_answer(answer);
  if (!r.ok()) return which + ": " + r.error();
  return r;
}

// For an accepted answer to a payload that is JSON: the SDK's re-encoding, which the comparator
// parses, must be JSON text too. (For other payloads what encode makes of them is a finding of the
// differential run, not a protocol matter.)
std::optional<std::string> encoded_problem(const ImplResult& r) {
  if (!r.encoded) return std::nullopt;
  json::ParseLimits limits;
  limits.max_bytes = kMaxLine;
  auto text = json::parse(*r.encoded, limits);
  if (text.ok()) return std::nullopt;
  return "\"encoded\" is not JSON text (" + text.error().message() + "): " + protocol::excerpt(*r.encoded);
}

// One decode request, one answer.
Result<ImplResult, std::string> ask(Session& s, Context& c, std::string_view root,
                                    std::string_view base64_text, const std::string& what) {
  std::uint64_t id = c.next_id++;
  s.send(decode_line(id, root, base64_text));
  Collected got;
  if (auto why = collect(s, c, {id}, 0, got, "the answer to " + what)) return *why;
  return decode_answer(got.by_id.at(id), id);
}

// After a passing check: the next line must be the answer to one more plain request.
std::optional<std::string> follow_up(Session& s, Context& c) {
  auto r = ask(s, c, c.root, base64_encode(c.valid_input), "a follow-up request");
  if (!r.ok()) return "after the check: " + r.error();
  return std::nullopt;
}

CheckResult pass(std::string name, std::string detail) {
  return {std::move(name), true, std::move(detail), ""};
}
CheckResult fail(std::string name, std::string detail) {
  return {std::move(name), false, std::move(detail), ""};
}

// ---- handshake ------------------------------------------------------------------------------

// The hello is judged by protocol::parse_hello, the one definition the pool uses too; the suite adds
// only what concerns this configuration (the name it was configured under) and its own needs (a root
// to send requests for).
std::optional<std::string> hello_problem(const std::string& line, Context& c, std::string& summary) {
  auto hello = protocol::parse_hello(line, kMaxLine);
  if (!hello.ok()) return hello.error();
  const Identity& id = hello.value();
  if (id.reported_name != c.spec.name) {
    return "implementation.name " + quoted(id.reported_name) + " is not the configured name " +
           quoted(c.spec.name);
  }
  const std::vector<std::string>& names = id.roots;
  if (names.empty()) return std::string("\"roots\" is empty: nothing to decode");
  c.language = id.language;
  c.root = std::find(names.begin(), names.end(), "content_reference") != names.end() ? "content_reference"
                                                                                     : names.front();
  c.valid_input = c.root == "content_reference"
                      ? R"({"ref":"ahp://crosscheck/conformance","mediaType":"text/plain"})"
                      : "{}";
  c.unknown_root = "no_such_root_crosscheck";
  while (std::find(names.begin(), names.end(), c.unknown_root) != names.end()) c.unknown_root += "_x";
  std::string version = id.language_version.empty() ? "" : " " + id.language_version;
  summary = id.reported_name + " " + id.version + " (" + id.language + version + "), " +
            std::to_string(names.size()) + " roots, lock " + (id.lock ? "object" : "null") +
            ", schemaBundle " + (id.schema_bundle ? "set" : "null") +
            (id.reports_warnings ? "" : ", reportsWarnings false");
  std::string layers;
  for (const auto& l : id.layers) layers += (layers.empty() ? "" : "+") + l;
  summary += ", layers " + layers;
  c.canonical = id.has_layer(kCanonicalLayer);
  c.batch_max = protocol::hello_batch_max(line, kMaxLine);
  if (c.batch_max > 0) summary += ", batch max " + std::to_string(c.batch_max);
  return std::nullopt;
}

bool contains_bad_request(const std::optional<std::string>& message) {
  return message && message->rfind("bad request", 0) == 0;
}

// ---- checks on a session --------------------------------------------------------------------

CheckResult check_ids(Session& s, Context& c) {
  const std::string name = "ids-echoed";
  // Ids past 2^31 and 2^32 catch an adapter that narrows them; all stay exact in a double.
  const std::uint64_t ids[] = {1, 42, 65535, 2147483648ull, 4294967297ull};
  std::string input = base64_encode(c.valid_input);
  for (std::uint64_t id : ids) {
    s.send(decode_line(id, c.root, input));
    std::string line;
    Status status = s.next(line, c.o.deadline);
    if (status != Status::kLine)
      return fail(name, s.failure(status, "the answer to id " + std::to_string(id), c.o.deadline));
    std::string why;
    auto answer = parse_line(line, why);
    if (!answer) return fail(name, "request id " + std::to_string(id) + " got " + why);
    auto got = protocol::answer_id(*answer);
    const Value* raw = answer->find("id");
    if (!got || *got != id) {
      return fail(name, "request id " + std::to_string(id) + " was answered with id " +
                            (raw ? json::write(*raw) : std::string("(none)")) + ": " +
                            protocol::excerpt(line));
    }
    auto r = decode_answer(*answer, id);
    if (!r.ok()) return fail(name, r.error());
    if (auto problem = encoded_problem(r.value()))
      return fail(name, "answer to id " + std::to_string(id) + ": " + *problem);
  }
  return pass(name, "ids 1, 42, 65535, 2^31, 2^32+1 echoed, one answer each");
}

CheckResult check_pipelining(Session& s, Context& c) {
  const std::string name = "pipelining";
  // Mixed inputs, so answers that take different paths through the SDK may overtake each other.
  const std::vector<std::string> inputs = {c.valid_input,     "{}", "[]", "{\"a\":", "null", "\"text\"",
                                           "{\"x\":[1,2,{}]}"};
  std::set<std::uint64_t> ids;
  std::string batch;
  for (std::size_t i = 0; i < c.o.in_flight; ++i) {
    std::uint64_t id = c.next_id++;
    ids.insert(id);
    batch += decode_line(id, c.root, base64_encode(inputs[i % inputs.size()]));
  }
  auto start = Clock::now();
  s.send(batch);  // every request is written before any answer is read
  Collected got;
  if (auto why = collect(s, c, ids, 0, got, "answers to the pipelined requests")) {
    return fail(name, *why + " (" + std::to_string(got.by_id.size()) + " of " + std::to_string(ids.size()) +
                          " answered)");
  }
  for (const auto& [id, answer] : got.by_id) {
    if (auto r = decode_answer(answer, id); !r.ok()) return fail(name, r.error());
  }
  std::size_t overtaken = 0;
  for (std::size_t i = 1; i < got.order.size(); ++i) overtaken += got.order[i] < got.order[i - 1];
  return pass(name, std::to_string(ids.size()) + " requests in flight, each answered once in " +
                        std::to_string(elapsed_ms(start)) + " ms (" +
                        (overtaken ? std::to_string(overtaken) + " answers out of order" : "in order") + ")");
}

CheckResult check_unknown_root(Session& s, Context& c) {
  const std::string name = "unknown-root";
  // "whatever the input": the root is judged before the payload.
  struct Case {
    std::string input, label;
  };
  for (const Case& k : {Case{base64_encode(c.valid_input), "a valid payload"},
                        Case{base64_encode("\xff{\"a\":"), "bytes that are neither UTF-8 nor JSON"}}) {
    auto r = ask(s, c, c.unknown_root, k.input, "an unknown root");
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kUnsupported) {
      return fail(name, "root " + quoted(c.unknown_root) + " with " + k.label + " answered " +
                            outcome_text(r.value()) + ", want unsupported");
    }
    if (!r->diagnostics.empty()) return fail(name, "unsupported answer carries diagnostics");
  }
  return pass(name, quoted(c.unknown_root) +
                        " answered unsupported, with a valid payload and with bytes that are not "
                        "UTF-8");
}

CheckResult check_invalid_base64(Session& s, Context& c) {
  const std::string name = "invalid-base64";
  for (const char* input : {"@@not base64@@", "e30"}) {  // "e30" is "{}" without its padding
    auto r = ask(s, c, c.root, input, "invalid base64");
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError || r->message != "invalid base64") {
      return fail(name, std::string("input \"") + input + "\" answered " + outcome_text(r.value()) +
                            ", want error with message \"invalid base64\"");
    }
  }
  return pass(name, "\"@@not base64@@\" and unpadded \"e30\" answered error \"invalid base64\"");
}

CheckResult check_invalid_json(Session& s, Context& c) {
  const std::string name = "invalid-json";
  for (const char* text : {"{\"ref\":", "not json"}) {
    auto r = ask(s, c, c.root, base64_encode(text), "text that is not JSON");
    if (!r.ok()) return fail(name, r.error());
    bool diagnosed = std::any_of(r->diagnostics.begin(), r->diagnostics.end(), [](const Diag& d) {
      return d.code == "invalid_json" && d.severity == "error";
    });
    if (r->outcome != Outcome::kRejected || !diagnosed) {
      return fail(name, std::string("input ") + quoted(text) + " answered " + outcome_text(r.value()) +
                            " with " + std::to_string(r->diagnostics.size()) +
                            " diagnostics, want rejected with an invalid_json error (docs/protocol.md)");
    }
  }
  return pass(name, "truncated and bare-word text rejected with invalid_json");
}

// Languages whose SDK text entrypoint takes a string: bytes that are not UTF-8 cannot be handed over.
bool takes_a_string(const std::string& language) {
  return language == "python" || language == "rust" || language == "typescript" || language == "javascript";
}

CheckResult check_not_utf8(Session& s, Context& c) {
  const std::string name = "not-utf8";
  const std::string bytes = "\xff\xfe{\"ref\":\"\xc3(\"}";
  auto r = ask(s, c, c.root, base64_encode(bytes), "bytes that are not UTF-8");
  if (!r.ok()) return fail(name, r.error());
  if (takes_a_string(c.language)) {
    if (r->outcome != Outcome::kError || r->message != "input is not UTF-8") {
      return fail(name, "answered " + outcome_text(r.value()) + ", want error \"input is not UTF-8\" (a " +
                            c.language + " text entrypoint takes a string; docs/protocol.md)");
    }
  } else if (r->outcome != Outcome::kError && r->outcome != Outcome::kRejected) {
    return fail(name, "answered " + outcome_text(r.value()) + ", want error or rejected");
  }
  return pass(name, "answered " + outcome_text(r.value()));
}

// A leading byte-order mark is passed on to the SDK, never stripped or refused by the adapter.
CheckResult check_byte_order_mark(Session& s, Context& c) {
  const std::string name = "byte-order-mark";
  auto r = ask(s, c, c.root, base64_encode("\xef\xbb\xbf" + c.valid_input), "a payload after a BOM");
  if (!r.ok()) return fail(name, r.error());
  if (r->outcome != Outcome::kAccepted && r->outcome != Outcome::kRejected) {
    return fail(name, "answered " + outcome_text(r.value()) +
                          ", want accepted or rejected (the BOM is the SDK's to judge; docs/protocol.md)");
  }
  return pass(name, "UTF-8 BOM before a valid payload answered " + std::string(outcome_name(r->outcome)));
}

std::string large_payload(const Context& c) {
  std::string head =
      c.root == "content_reference" ? R"({"ref":"ahp://crosscheck/large","x-large":")" : R"({"x-large":")";
  std::string text = head;
  const std::string piece = "crosscheck \xc3\xa9t\xc3\xa9 0123456789 ";  // UTF-8, not only ASCII
  while (text.size() + piece.size() + 2 <= c.o.large_payload_bytes) text += piece;
  return text + "\"}";
}

CheckResult check_large(Session& s, Context& c) {
  const std::string name = "large-payload";
  std::string payload = large_payload(c);
  auto start = Clock::now();
  auto r =
      ask(s, c, c.root, base64_encode(payload), "a " + std::to_string(payload.size() >> 10) + " KiB payload");
  if (!r.ok()) return fail(name, r.error());
  if (r->outcome != Outcome::kAccepted && r->outcome != Outcome::kRejected) {
    return fail(name, "a " + std::to_string(payload.size()) + "-byte payload answered " +
                          outcome_text(r.value()) +
                          ", want accepted or rejected (lines have no length limit)");
  }
  if (auto problem = encoded_problem(r.value())) return fail(name, *problem);
  std::string encoded = r->encoded ? ", re-encoding " + std::to_string(r->encoded->size()) + " bytes" : "";
  return pass(name, std::to_string(payload.size()) + " bytes answered " + outcome_name(r->outcome) + " in " +
                        std::to_string(elapsed_ms(start)) + " ms" + encoded);
}

CheckResult check_bad_requests(Session& s, Context& c) {
  const std::string name = "bad-request-lines";
  // Three lines without a usable id (id null expected), two with an integer id (echoed).
  std::string lines = "this is not json\n[1,2,3]\n";
  lines += "{\"op\":\"decode\",\"root\":" + quoted(c.root) + ",\"input\":\"e30=\"}\n";
  lines += "{\"op\":\"frobnicate\",\"id\":77}\n";
  lines += "{\"op\":\"decode\",\"id\":78,\"root\":" + quoted(c.root) + "}\n";
  s.send(lines);
  Collected got;
  if (auto why = collect(s, c, {77, 78}, 3, got, "answers to bad request lines")) return fail(name, *why);
  for (const Value& a : got.null_id) {
    auto r = decode_answer(a, kNoId);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError)
      return fail(name, "an id-null answer has outcome " + outcome_text(r.value()));
  }
  for (const auto& [id, a] : got.by_id) {
    auto r = decode_answer(a, id);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError) {
      return fail(name, "bad request with id " + std::to_string(id) + " answered " + outcome_text(r.value()));
    }
  }
  return pass(name,
              "a non-JSON line, an array and an id-less decode answered error with id null; an unknown op "
              "and a decode without input answered error with their ids");
}

// Layer 2: the validate op, for an adapter whose hello lists the canonical layer.
CheckResult check_validate(Session& s, Context& c) {
  const std::string name = "validate-op";
  if (!c.canonical) {
    return pass(name, "hello lists no canonical layer: not asked (left out of layer-2 comparisons)");
  }
  const std::string& document = c.o.validate_document;
  struct Case {
    std::string label, document, input;  // input: base64 text as sent
    std::vector<Verdict> want;
    std::optional<std::string> message;  // exact message wanted, if any
  };
  std::vector<Case> cases = {
      {"an empty object as " + document,
       document,
       base64_encode("{}"),
       {Verdict::kInvalid, Verdict::kValid},
       std::nullopt},
      {"text that is not JSON", document, base64_encode("{\"jsonrpc\":"), {Verdict::kInvalid}, std::nullopt},
      {"an unknown document",
       "no-such-document-crosscheck",
       base64_encode("{}"),
       {Verdict::kUnsupported},
       std::nullopt},
      {"invalid base64", document, "@@not base64@@", {Verdict::kError}, std::string("invalid base64")},
      {"bytes that are not UTF-8",
       document,
       base64_encode("\xff{}"),
       {Verdict::kError, Verdict::kInvalid},
       std::nullopt},
  };
  // All pipelined, plus a validate without a document (a bad request, answered with its id).
  std::map<std::uint64_t, const Case*> asked;
  std::string lines;
  for (const Case& k : cases) {
    std::uint64_t id = c.next_id++;
    asked[id] = &k;
    lines += "{\"op\":\"validate\",\"id\":" + std::to_string(id) + ",\"document\":" + quoted(k.document) +
             ",\"input\":\"" + k.input + "\"}\n";
  }
  std::uint64_t bad_id = c.next_id++;
  lines += "{\"op\":\"validate\",\"id\":" + std::to_string(bad_id) + ",\"input\":\"e30=\"}\n";
  s.send(lines);
  std::set<std::uint64_t> ids;
  for (const auto& [id, k] : asked) ids.insert(id);
  ids.insert(bad_id);
  Collected got;
  if (auto why = collect(s, c, ids, 0, got, "the validate answers")) return fail(name, *why);
  std::string seen;
  for (const auto& [id, answer] : got.by_id) {
    if (auto problem = protocol::schema_problem(protocol::Line::kValidateAnswer, answer))
      return fail(name, "answer to validate " + std::to_string(id) + " breaks its schema " + *problem);
    auto r = protocol::parse_validate_answer(answer);
    if (!r.ok()) return fail(name, "answer to validate " + std::to_string(id) + ": " + r.error());
    if (id == bad_id) {
      if (r->verdict != Verdict::kError || !r->message || r->message->rfind("bad request", 0) != 0)
        return fail(name, "a validate without a document answered " + std::string(verdict_name(r->verdict)) +
                              ", want error \"bad request: ...\"");
      continue;
    }
    const Case& k = *asked.at(id);
    bool wanted = std::find(k.want.begin(), k.want.end(), r->verdict) != k.want.end();
    if (!wanted || (k.message && r->message != k.message)) {
      std::string want;
      for (Verdict v : k.want) want += (want.empty() ? "" : " or ") + std::string(verdict_name(v));
      return fail(name, k.label + " answered " + verdict_name(r->verdict) +
                            (r->message ? " (message " + quoted(*r->message) + ")" : "") + ", want " + want +
                            (k.message ? " with message " + quoted(*k.message) : ""));
    }
    seen += (seen.empty() ? "" : ", ") + k.label + " " + verdict_name(r->verdict);
  }
  return pass(name, seen + "; a validate without a document: error with its id");
}

// The batch op, for an adapter whose hello lists it: one line of entries (good ones, a bad one, a
// validate when the canonical layer is listed) is answered by exactly one line with one answer per
// entry, in order, each with its entry's id and in its op's form; one entry more than batch.max is
// refused with the refusal form. Answers split over lines, missing, reordered, duplicated or under
// other ids fail here.
CheckResult check_batch(Session& s, Context& c) {
  const std::string name = "batch-op";
  if (c.batch_max == 0) return pass(name, "hello lists no batch op: sent single requests");
  enum class Kind { kDecode, kValidate, kBad };
  struct Entry {
    std::string label, line;
    Kind kind;
    std::uint64_t id;
    std::optional<std::string> want;  // the outcome wanted, if one is fixed
  };
  std::vector<Entry> entries;
  auto add = [&](std::string label, Kind kind, std::optional<std::string> want, auto make) {
    std::uint64_t id = kind == Kind::kBad ? kNoId : c.next_id++;
    entries.push_back({std::move(label), make(id), kind, id, std::move(want)});
  };
  std::string input = base64_encode(c.valid_input);
  add("a decode", Kind::kDecode, std::nullopt,
      [&](std::uint64_t id) { return decode_line(id, c.root, input); });
  add("an unknown root", Kind::kDecode, "unsupported",
      [&](std::uint64_t id) { return decode_line(id, c.unknown_root, input); });
  add("an entry that is not an object", Kind::kBad, "error",
      [](std::uint64_t) { return std::string("7\n"); });
  if (c.canonical) {
    add("a validate", Kind::kValidate, std::nullopt, [&](std::uint64_t id) {
      return protocol::validate_request(id, c.o.validate_document, c.valid_input);
    });
  }
  add("invalid base64", Kind::kDecode, "error",
      [&](std::uint64_t id) { return decode_line(id, c.root, "@@not base64@@"); });
  std::vector<std::string> lines;
  for (const Entry& e : entries) lines.push_back(e.line);
  std::uint64_t batch_id = c.next_id++;
  s.send(protocol::batch_request(batch_id, lines));
  std::string line;
  Status status = s.next(line, c.o.deadline);
  if (status != Status::kLine) return fail(name, s.failure(status, "the batch answer", c.o.deadline));
  std::string why;
  auto reply = parse_line(line, why);
  if (!reply) return fail(name, "got " + why);
  if (auto problem = protocol::schema_problem(protocol::Line::kBatchReply, *reply))
    return fail(name, "the batch answer breaks its schema " + *problem + ": " + protocol::excerpt(line));
  if (protocol::answer_id(*reply) != batch_id)
    return fail(name, "the batch answer's id is not the batch's " + std::to_string(batch_id));
  const auto& answers = reply->find("answers")->items();
  if (answers.size() != entries.size()) {
    return fail(name, std::to_string(answers.size()) + " answers for " + std::to_string(entries.size()) +
                          " entries (one line must answer them all, in order)");
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const Value& a = answers[i];
    const Value* id = a.find("id");
    bool id_ok = e.kind == Kind::kBad ? id != nullptr && id->is_null() : protocol::answer_id(a) == e.id;
    if (!id_ok) {
      return fail(name, "answer #" + std::to_string(i) + " (to " + e.label + ") has id " +
                            (id ? json::write(*id) : std::string("(none)")) + ", want " +
                            (e.kind == Kind::kBad ? std::string("null") : std::to_string(e.id)) +
                            ": answers go in request order");
    }
    std::string outcome;
    if (e.kind == Kind::kValidate) {
      if (auto problem = protocol::schema_problem(protocol::Line::kValidateAnswer, a))
        return fail(name, "answer to " + e.label + " breaks its schema " + *problem);
    } else {
      auto r = decode_answer(a, e.id);
      if (!r.ok()) return fail(name, "answer to " + e.label + ": " + r.error());
      if (e.kind == Kind::kBad && !contains_bad_request(r->message))
        return fail(name, e.label + " answered without \"bad request: ...\"");
      outcome = outcome_name(r->outcome);
    }
    if (e.want && outcome != *e.want)
      return fail(name, e.label + " answered " + outcome + ", want " + *e.want);
  }
  // One entry over the limit: refused, in one line, with the batch's id.
  std::vector<std::string> over;
  for (std::size_t i = 0; i <= c.batch_max; ++i) over.push_back(decode_line(c.next_id++, c.root, input));
  std::uint64_t over_id = c.next_id++;
  s.send(protocol::batch_request(over_id, over));
  status = s.next(line, c.o.deadline);
  if (status != Status::kLine)
    return fail(name, s.failure(status, "the answer to an over-long batch", c.o.deadline));
  reply = parse_line(line, why);
  if (!reply) return fail(name, "got " + why);
  if (auto problem = protocol::schema_problem(protocol::Line::kBatchRefusal, *reply)) {
    return fail(name, "a batch of " + std::to_string(over.size()) + " (max " + std::to_string(c.batch_max) +
                          ") was not refused: " + *problem + ": " + protocol::excerpt(line));
  }
  if (protocol::answer_id(*reply) != over_id) return fail(name, "the refusal's id is not the batch's");
  return pass(name, std::to_string(entries.size()) + " entries answered in order in one line, a bad entry " +
                        "as a bad request; " + std::to_string(over.size()) +
                        " entries refused: " + reply->find("error")->string_value());
}

CheckResult check_bench(Session& s, Context& c) {
  const std::string name = "bench-op";
  std::uint64_t id = c.next_id++;
  s.send("{\"op\":\"bench\",\"id\":" + std::to_string(id) + ",\"root\":" + quoted(c.root) + ",\"input\":\"" +
         base64_encode(c.valid_input) + "\",\"iterations\":3}\n");
  Collected got;
  if (auto why = collect(s, c, {id}, 0, got, "the bench answer")) return fail(name, *why);
  const Value& a = got.by_id.at(id);
  if (a.find("outcome") != nullptr) {  // an adapter without bench answers it as a bad request
    auto r = decode_answer(a, id);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError) return fail(name, "bench answered " + outcome_text(r.value()));
    return pass(name, "optional op not supported: answered error " + quoted(r->message.value_or("")));
  }
  if (auto problem = protocol::schema_problem(protocol::Line::kBenchReply, a))
    return fail(name, "the bench answer breaks its schema " + *problem);
  auto nanos = protocol::parse_bench_answer(a);
  if (!nanos.ok()) return fail(name, nanos.error());
  if (!nanos.value()) {
    const Value* m = a.find("message");
    return pass(name, "declined: " + (m ? json::write(*m) : std::string("no message")));
  }
  return pass(name, "3 iterations took " + std::to_string(*nanos.value() / 1000) + " us in process");
}

// Reads what the adapter wrote after `what`, up to EOF; the first non-blank line, if any.
std::optional<std::string> trailing_output(Session& s) {
  std::string line;
  Status status = s.next(line, milliseconds(200));
  if (status == Status::kLine) return line;
  return std::nullopt;
}

CheckResult check_shutdown(Session& s, Context& c) {
  const std::string name = "shutdown";
  auto start = Clock::now();
  s.send(protocol::shutdown_request());
  bool exited = s.process().wait_exit(c.o.exit_grace);
  auto extra = trailing_output(s);
  s.end();
  if (!exited) return fail(name, "still running " + seconds_text(c.o.exit_grace) + " after shutdown; killed");
  if (s.process().status_text() != "exited with status 0") {
    return fail(name, "after shutdown the adapter " + s.process().status_text() + ", want exit status 0");
  }
  if (extra) return fail(name, "wrote after shutdown (it must not answer): " + protocol::excerpt(*extra));
  return pass(name, "exited with status 0 in " + std::to_string(elapsed_ms(start)) + " ms, nothing written");
}

// ---- checks with their own process ----------------------------------------------------------

CheckResult check_eof(const AdapterSpec& spec, Context& c, std::string& tail) {
  const std::string name = "stdin-eof";
  auto opened = open(spec, c.o, protocol::hello_request());
  if (!opened.ok()) {
    tail = opened.error().stderr_tail;
    return fail(name, "could not start a fresh process: " + opened.error().message);
  }
  auto& s = *opened.value().first;
  auto start = Clock::now();
  s.process().close_stdin();
  bool exited = s.process().wait_exit(c.o.exit_grace);
  auto extra = trailing_output(s);
  s.end();
  tail = s.tail();
  if (!exited)
    return fail(name, "still running " + seconds_text(c.o.exit_grace) + " after its stdin closed; killed");
  if (s.process().status_text() != "exited with status 0") {
    return fail(name, "after end of input the adapter " + s.process().status_text() + ", want exit status 0");
  }
  if (extra) return fail(name, "wrote after end of input: " + protocol::excerpt(*extra));
  tail.clear();
  return pass(name, "end of input: exited with status 0 in " + std::to_string(elapsed_ms(start)) + " ms");
}

CheckResult check_refusal(const AdapterSpec& spec, Context& c, std::string& tail) {
  const std::string name = "refuses-protocol-999";
  auto spawned = Session::spawn(spec, c.o);
  if (!spawned.ok()) return fail(name, "could not start a fresh process: " + spawned.error());
  auto& s = *spawned.value();
  s.send("{\"op\":\"hello\",\"protocol\":999}\n");
  std::string line;
  Status status = s.next(line, c.o.hello_deadline);
  if (status != Status::kLine) {
    std::string why = s.failure(status, "the refusal line", c.o.hello_deadline);
    tail = s.tail();
    return fail(name, "no refusal: " + why);
  }
  auto finish = [&](CheckResult r) {
    s.end();
    if (!r.passed) tail = s.tail();
    return r;
  };
  std::string why;
  auto answer = parse_line(line, why);
  if (!answer) return finish(fail(name, "answered with " + why));
  const Value* op = answer->find("op");
  if (!op || !op->is_string() || op->string_value() != "hello") {
    return finish(fail(name, "the answer is not a hello: " + protocol::excerpt(line)));
  }
  const Value* error = answer->find("error");
  if (!error) return finish(fail(name, "accepted protocol 999 (a hello without \"error\")"));
  if (auto problem = protocol::schema_problem(protocol::Line::kHelloRefusal, *answer))
    return finish(fail(name, "the refusal breaks its schema " + *problem));
  if (error->string_value().find("999") == std::string::npos) {
    return finish(fail(name, "\"error\" must read \"unsupported protocol 999\", got " + json::write(*error)));
  }
  bool exited = s.process().wait_exit(c.o.exit_grace);
  s.end();
  if (!exited)
    return finish(
        fail(name, "refused, but still running " + seconds_text(c.o.exit_grace) + " later; killed"));
  if (s.process().status_text() != "exited with status 2") {
    return finish(fail(name, "refused, then " + s.process().status_text() + ", want exit status 2"));
  }
  return finish(pass(name, "refusal " + quoted(error->string_value()) + ", exit status 2"));
}

}  // namespace

bool Report::passed() const {
  return !start_error && !checks.empty() &&
         std::all_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.passed; });
}

const std::vector<std::string>& check_names() {
  static const std::vector<std::string> kNames = {
      "handshake",      "ids-echoed",        "pipelining", "unknown-root",
      "invalid-base64", "invalid-json",      "not-utf8",   "byte-order-mark",
      "large-payload",  "bad-request-lines", "bench-op",   "validate-op",
      "batch-op",       "shutdown",          "stdin-eof",  "refuses-protocol-999"};
  return kNames;
}

Report run(const AdapterSpec& spec, const Options& options) {
  SigpipeGuard guard;
  Report report;
  report.adapter = spec.name;
  Context c(spec, options);
  auto opened = open(spec, options, protocol::hello_request());
  if (!opened.ok()) {
    report.start_error = opened.error().message;
    report.start_stderr_tail = opened.error().stderr_tail;
    return report;
  }
  std::unique_ptr<Session> session = std::move(opened.value().first);
  std::string summary;
  if (auto why = hello_problem(opened.value().second, c, summary)) {
    CheckResult r = fail("handshake", *why + "; the other checks were not run");
    r.stderr_tail = session->tail();
    session->end();
    report.checks.push_back(std::move(r));
    return report;
  }
  report.checks.push_back(pass("handshake", summary));

  using SessionCheck = std::function<CheckResult(Session&, Context&)>;
  const std::vector<std::pair<std::string, SessionCheck>> session_checks = {
      {"ids-echoed", check_ids},
      {"pipelining", check_pipelining},
      {"unknown-root", check_unknown_root},
      {"invalid-base64", check_invalid_base64},
      {"invalid-json", check_invalid_json},
      {"not-utf8", check_not_utf8},
      {"byte-order-mark", check_byte_order_mark},
      {"large-payload", check_large},
      {"bad-request-lines", check_bad_requests},
      {"bench-op", check_bench},
      {"validate-op", check_validate},
      {"batch-op", check_batch},
      {"shutdown", check_shutdown},
  };
  auto wanted = [&options](const std::string& name) {
    return options.only.empty() ||
           std::find(options.only.begin(), options.only.end(), name) != options.only.end();
  };
  for (const auto& [name, check] : session_checks) {
    if (stop_requested()) break;
    if (!wanted(name)) continue;
    if (!session || session->ended()) {
      // The previous check failed and ended the process: start a fresh one for this check.
      auto again = open(spec, options, protocol::hello_request());
      if (!again.ok()) {
        CheckResult r = fail(name, "could not start a fresh process: " + again.error().message);
        r.stderr_tail = again.error().stderr_tail;
        report.checks.push_back(std::move(r));
        session.reset();
        continue;
      }
      session = std::move(again.value().first);  // its hello was judged by the handshake check
    }
    CheckResult r = check(*session, c);
    if (r.passed && name != "shutdown") {
      if (auto why = follow_up(*session, c)) {
        r.passed = false;
        r.detail = *why;
      }
    }
    if (!r.passed) {
      r.stderr_tail = session->tail();
      session->end();
    }
    report.checks.push_back(std::move(r));
  }
  if (session && !session->ended()) session->end();  // the shutdown check did not run
  session.reset();
  using OwnCheck = CheckResult (*)(const AdapterSpec&, Context&, std::string&);
  for (auto [name, check] : {std::pair<const char*, OwnCheck>{"stdin-eof", check_eof},
                             std::pair<const char*, OwnCheck>{"refuses-protocol-999", check_refusal}}) {
    if (stop_requested()) break;
    if (!wanted(name)) continue;
    std::string tail;
    CheckResult r = check(spec, c, tail);
    r.stderr_tail = tail;
    report.checks.push_back(std::move(r));
  }
  return report;
}

std::string format(const Report& report) {
  std::ostringstream out;
  auto indent_tail = [&out](const std::string& tail) {
    if (tail.empty()) return;
    std::istringstream lines(tail);
    std::string line;
    out << "       stderr tail:\n";
    while (std::getline(lines, line)) out << "       | " << protocol::excerpt(line, 200) << "\n";
  };
  if (report.start_error) {
    out << "adapter " << report.adapter << ": CANNOT START: " << *report.start_error << "\n";
    indent_tail(report.start_stderr_tail);
    return out.str();
  }
  std::size_t failed = static_cast<std::size_t>(std::count_if(
      report.checks.begin(), report.checks.end(), [](const CheckResult& r) { return !r.passed; }));
  out << "adapter " << report.adapter << ": "
      << (failed ? std::to_string(failed) + " of " + std::to_string(report.checks.size()) + " checks FAILED"
                 : "all " + std::to_string(report.checks.size()) + " checks passed")
      << "\n";
  for (const auto& r : report.checks) {
    std::string padded = r.name;
    padded.resize(std::max<std::size_t>(padded.size(), 21), ' ');
    out << "  " << (r.passed ? "PASS " : "FAIL ") << padded << " " << r.detail << "\n";
    if (!r.passed) indent_tail(r.stderr_tail);
  }
  return out.str();
}

}  // namespace crosscheck::exec::conformance
