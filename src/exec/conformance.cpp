// conformance.cpp: `crosscheck adapters --check` runs the checks (detail/conformance_*_checks.cpp),
// each over a raw AdapterProcess (a session: detail/conformance_session.hpp).
//
// One session (a process past its hello) serves the checks in turn. A check sends its requests and
// reads answers with a deadline that restarts at every line; a passing check is followed by one
// plain decode whose answer must be the next line, which charges an extra or repeated answer, a
// death or a hang to the check that caused it. Any failure ends the session (killed and reaped);
// the next check starts a fresh process with a new handshake, so one fault is reported once and
// the remaining checks still say something.
#include "exec/conformance.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <utility>

#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "exec/sigpipe_guard.hpp"

namespace crosscheck::exec::conformance {

using namespace detail;

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
