// scenario_verdict.hpp: every layer-3 verdict, computed in one place: what a client answered, whether it met
// the row's expectation (the upstream verifier contract), and how clients differ from each other.
//
// Rules (docs/scenarios.md, "Verdicts"):
// - A client *derived* a result when `actual` is an object other than {"rejected": true}; it
//   *rejected* when `actual` is {"rejected": true}, or it reported passed/failed with actual null
//   (it refused before deriving anything). Unsupported, inapplicable, crash, timeout and protocol
//   answer nothing comparable.
// - Expectation (class contextual-expectation): expectError rows need a rejection, or, for a row
//   with hostExpected, an SDK acceptance the host refused (sdkAccepted true, hostAccepted false) whose
//   actual matches hostExpected on every key. expected rows need a derived result where every
//   expected key is present and semantically equal, and no unasserted result, flow, injections,
//   continuationInstructions, continuationRemaining or rejected member.
// - Between clients: one derives while another rejects (contextual-acceptance); two derive and
//   differ on a result key (contextual-result, bucket naming the keys). Keys compared: decision,
//   executed, input, messages, result, flow, continuationInstructions, continuationRemaining,
//   injections; presence counts, values by semantic equality (exact decimals).
// - Blame: when the reference host (named "cpp", first in the results) answered, the clients of a
//   difference are the ones whose answer or result differs from the reference's, whatever the
//   majority, and the keys of contextual-result are those where some client differs from it.
// - Prior state: the bucket of a difference on a row whose request carries state from earlier in the
//   occurrence (state.flow, state.instructions or state.injections) ends in /prior-state, before any
//   /implementation-defined: dropping that state and composing this response wrongly are apart.
// - Open keys: a contextual-result or contextual-expectation difference whose keys are all keys the
//   contract leaves open for the row (host::open_keys) is implementation-defined: its bucket ends in
//   /implementation-defined and it does not fail the run.
// - Tolerance: at a boundary other than tool.before, when the row does not assert input, a native
//   input placeholder (absent, null or {}) equals any other placeholder (Python writes {}, Rust
//   null); an asserted input is always exact.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "interop/client_runner.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {

/// The keys of the contract's application result, in the contract's order.
const std::vector<std::string>& result_keys();

enum class Answer { kDerived, kRejected, kNone };
Answer answer_of(const RowResult& result);

struct ExpectationVerdict {
  bool applicable = false;  ///< false when the client answered nothing comparable
  bool met = false;
  std::string kind;               ///< "" when met; "rejected", "derived", "keys", "unasserted"
  std::vector<std::string> keys;  ///< for keys / unasserted
  std::string text() const;       ///< "expected a result, rejected", "differs on decision, input", ...
};
ExpectationVerdict check_expectation(const Row& row, const RowResult& result);

struct Difference {
  std::string
      cls;  ///< contextual-acceptance | contextual-result | contextual-expectation | request-admission
  std::string bucket;
  std::vector<std::string> clients;  ///< the clients it blames (those differing from the reference)
  /// Every implementation it involves, for the finding: those that answered (acceptance,
  /// admission), the reference and the clients differing from it (result; without a reference,
  /// every client that derived), the one client (expectation).
  std::vector<std::string> involved;
  std::vector<std::string> keys;  ///< differing result keys (contextual-result, -expectation)
  std::string summary;            ///< one line for the terminal
  /// The choices where the contract is silent that make this difference implementation-defined: for
  /// request-admission the reference's traits (e.g. date-time-leap-second); for contextual-result and
  /// contextual-expectation, when every differing key is open for the row (host::open_keys, e.g.
  /// incoming-continue-allowance). Such a difference is reported apart and does not fail the run.
  std::vector<std::string> implementation_defined;
};

using ClientResults = std::vector<std::pair<std::string, const RowResult*>>;

/// Every difference on one row, clients against each other first, then each against the row.
std::vector<Difference> compare_row(const Row& row, const ClientResults& results);

/// Request admission (`scenarios run --servers`): one answer per implementation, the reference's
/// first. One difference of class request-admission when the admitted/refused answers differ; its
/// `clients` are the servers whose answer differs from the reference's (blame follows the
/// contract, whatever the majority), and the bucket names every answer:
/// request-admission/<event type>/<name>=<admitted|refused>,... (with "/implementation-defined" at the
/// end when the reference's traits make it so).  Crash, timeout and protocol answers
/// compare with nothing; the caller counts them.
struct Admission;  // server_admission.hpp
using AdmissionResults = std::vector<std::pair<std::string, const Admission*>>;
std::vector<Difference> compare_admission(const Row& row, const AdmissionResults& results);

/// The row's event type ("tool.before"), "" when absent.
std::string event_type(const Row& row);

}  // namespace crosscheck::scenario
