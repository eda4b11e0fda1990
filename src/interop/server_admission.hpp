// server_admission.hpp: layer 3's request admission. Every SDK's interop *server* role validates an
// incoming hooks/intercept request before it answers; `scenarios run --servers` sends each row's
// request to each SDK's server, crosscheck playing the client side over stdio, and compares
// admitted (a JSON-RPC result) against refused (a JSON-RPC error) across the SDKs and the reference.
//
// The server is given the rows with a neutral response (`effects: []`) in place of the scripted
// one: an SDK server builds its answer through its own typed runtime (Rust's hydrates every effect),
// so a row's adversarial response would make it refuse for a reason that is not the request.
//
// One server session answers the rows in order, one request in flight, each within the deadline. A
// server that dies or hangs gets crash or timeout for the row in flight and is started again for
// the rest. A server keeps state across requests (task lineage), so a row refused in a session
// after other rows is asked again alone in a fresh server (unless the reference refuses it too);
// that answer is the row's, with a note when it differs. A server that cannot be started, or exits before
// answering its first request, is Fatal (exit 3) naming it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "interop/client_config.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {

struct Admission {
  std::string status;  ///< admitted | refused | crash | timeout | protocol
  std::string error;   ///< the JSON-RPC error ("-32600 Invalid request"), or what went wrong
  std::string answer;  ///< the server's line, at most 4 KiB of it
  std::vector<std::string> notes;
  std::vector<std::string> traits;  ///< the reference's: implementation-defined constructs it met
  std::string session_dir;          ///< the session's files (config, scenario file, stderr)
};

struct AdmissionOptions {
  std::string work_dir;                        ///< sessions go under <work_dir>/<sdk>/session-<n>/
  std::chrono::milliseconds deadline{10000};   ///< per request
  std::chrono::milliseconds exit_grace{2000};  ///< for a server to exit after its stdin closes
};

class AdmissionRunner {
 public:
  /// `sdk.server_argv` must not be empty.
  AdmissionRunner(ClientSpec sdk, AdmissionOptions options);
  /// One admission per row id. `confirm_refusal` (may be empty: every one) says which refusals
  /// after earlier rows are asked again alone; the caller skips those the reference agrees with.
  std::map<std::string, Admission> run(const std::vector<const Row*>& rows,
                                       const std::function<bool(const Row&)>& confirm_refusal = {});
  const ClientSpec& sdk() const { return sdk_; }

 private:
  struct Session;
  /// Answers `rows` in order in as many sessions as crashes and hangs need.
  void answer(const std::vector<const Row*>& rows, std::map<std::string, Admission>& out);
  ClientSpec sdk_;
  AdmissionOptions options_;
  std::size_t sessions_ = 0;
  bool answered_once_ = false;
};

/// The reference's admission: the request is canonical on the snapshot (intercept-request), and its
/// id is its event's id (the scenario reader already refuses a row where it is not).
Admission reference_admission(const canonical::CanonicalValidator& validator, const Row& row);

/// The one line a request goes out as: the row's request bytes without LF and CR (whitespace
/// between tokens only, so every token stays byte-identical).
std::string request_line(const Row& row);

}  // namespace crosscheck::scenario
