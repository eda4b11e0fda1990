// conformance.hpp: the adapter protocol v1 conformance suite (`crosscheck adapters --check`).
//
// Each check drives one raw AdapterProcess directly, not through the AdapterPool: the pool turns
// protocol faults into restarts and per-request results, which is right for a run but hides them
// from someone writing an adapter. The checks follow docs/protocol.md: the hello reply (fields,
// types, snake_case roots sorted and unique), refusing protocol 999 (refusal line, exit 2), ids
// echoed, 64 pipelined requests each answered once in any order, unknown root -> unsupported,
// invalid base64 -> error "invalid base64", text that is not JSON -> rejected with invalid_json,
// bytes that are not UTF-8 -> error or rejected, a 1 MiB payload, bad request lines -> error with
// id null (or the request's integer id), the optional bench op, the validate op (when the hello
// lists the canonical layer), the batch op (when it lists batch: one answer line, in order, a bad
// entry a bad request, one entry over batch.max refused), shutdown and end of input -> exit 0. Every line is
// held to its schema in schemas/adapter-*.schema.json and to the structure the pool enforces
// (protocol_codec.hpp). After each check a follow-up request must be answered next, so an extra line (a
// second answer, an unsolicited note) or a death is charged to the check that caused it; a check that leaves
// the adapter dead, hung or out of step gets a fresh process for the next one.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "exec/adapter_pool.hpp"

namespace crosscheck::exec::conformance {

struct Options {
  std::chrono::milliseconds deadline{10000};        ///< per wait for an answer (reset by each line)
  std::chrono::milliseconds hello_deadline{60000};  ///< start-up, including the SDK's own loading
  std::chrono::milliseconds exit_grace{2000};       ///< after shutdown or EOF, as the pool allows
  std::size_t in_flight = 64;                       ///< requests pipelined by the pipelining check
  std::size_t large_payload_bytes = std::size_t{1} << 20;
  std::size_t stderr_tail_bytes = 1200;
  std::vector<std::string> only;  ///< run just these checks (empty: all); the handshake always runs
  /// The document the validate-op check asks for (one every SDK's canonical entrypoint knows).
  std::string validate_document = "intercept-request";
};

struct CheckResult {
  std::string name;  ///< "handshake", "ids-echoed", ...
  bool passed = false;
  std::string detail;       ///< pass: what was seen; fail: what was wrong
  std::string stderr_tail;  ///< failures only: the adapter's last stderr bytes
};

struct Report {
  std::string adapter;                     ///< configured name
  std::optional<std::string> start_error;  ///< the adapter could not be started (exit 3)
  std::string start_stderr_tail;
  std::vector<CheckResult> checks;  ///< empty when start_error is set
  bool passed() const;              ///< started, and every check passed
};

/// Names of the checks in the order run() performs them.
const std::vector<std::string>& check_names();

/// Runs every check against `spec` (fresh processes as needed; at most a few at a time).
Report run(const AdapterSpec& spec, const Options& options = {});

/// The report as text: a header line, then "  PASS name  detail" or "  FAIL name  reason" plus
/// the indented stderr tail, one line per check.
std::string format(const Report& report);

}  // namespace crosscheck::exec::conformance
