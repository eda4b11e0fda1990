// host.hpp: the C++ reference host for AHP's layer 3, contextual admission and composition of a
// request-correlated hooks/intercept response (docs/host.md).
//
// Given the pending request and the response, apply() either derives the application result exactly
// as the upstream scenario contract defines it (keys decision, executed, input, messages, result, flow,
// continuationInstructions, continuationRemaining, injections; the shape the SDKs' interop clients
// report as `actual`), or rejects the response naming the one rule it breaks first, in the order of
// rules(). Both messages are validated canonically first with the layer-2 reference
// (canonical::CanonicalValidator, documents intercept-request and intercept-response); the contextual
// rules are the contract's, checked before anything is composed, so a rejected response publishes
// nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "json/value.hpp"

namespace crosscheck::host {

class RuleCoverage;

/// What the reference host made of one request and response.
struct Applied {
  /// The request is canonical and the response was admitted and composed. A response the SDK layer
  /// admits but the synthetic host's tool contract refuses (rule kHostInput) is accepted with
  /// host_accepted false: the contract's "SDK accepted, host refused" outcome.
  bool accepted = false;
  bool host_accepted = true;
  /// The derived application result when accepted (an object), else {"rejected": true}.
  json::Value result;
  /// The rule the response (or request) breaks, a stable name of rules(); "" when accepted and the host
  /// accepted.
  std::string rule;
  /// What broke it, for a person: the effect index and member, or the canonical error.
  std::string message;
};

/// Rule names (stable: rule coverage and findings store them), one constant per entry of host_rules.def.
#define CROSSCHECK_HOST_RULE(constant, name, rejects, text) inline constexpr const char* constant = name;
#include "layers/contextual/host/host_rules.def"
#undef CROSSCHECK_HOST_RULE

/// One rule of the reference host: its stable name, whether it rejects (false for the composition
/// rules, which shape an accepted result), and one line saying what it is.
struct Rule {
  std::string name;
  bool rejects = true;
  std::string text;
};
/// Every rule of host_rules.def, rejecting ones in the order apply() checks them, then the composition rules.
const std::vector<Rule>& rules();

/// What each boundary admits, from the typed-payload contract of the snapshot (intercept-response's
/// per-boundary effect unions): the effect kinds ("stop" and "continue" for the two flow operations),
/// the one modify target and its value contract, and the return contract where the boundary is one of
/// the four return boundaries. The one boundary table: the generator draws from it too.
enum class Contract { kNone, kAny, kObject, kMessages, kTextParts, kFormAnswers, kWorkspace, kElicitResult };

struct Boundary {
  std::string_view type;
  std::vector<std::string_view> effects;
  std::string_view modify_target;
  Contract modify = Contract::kNone;
  Contract returns = Contract::kNone;
};

/// Every boundary of the protocol, one row each.
const std::vector<Boundary>& boundaries();
/// nullptr for a type that is not a boundary.
const Boundary* boundary_of(std::string_view type);

/// The boundaries whose application result the contract defines through the synthetic host: the ones
/// apply() derives a result for. Other boundaries are admitted by the same rules, with executed false
/// and no input.
bool is_tool_input_boundary(const std::string& event_type);

/// The reference host on one request and one response (parsed). `validator` must know the documents
/// intercept-request and intercept-response. With `coverage`, every rule checked is tallied there
/// (rule_coverage.hpp): a rejecting rule as accepted when it held on its subject and rejected when it
/// is the rule named, a composition rule by the constructs the response carries; a non-canonical
/// request tallies only request-canonical. The result is the same with or without it.
Applied apply(const canonical::CanonicalValidator& validator, const json::Value& request,
              const json::Value& response, RuleCoverage* coverage = nullptr);

/// A key of apply()'s result whose value depends on a choice where the contract is silent
/// (docs/host.md, "Choices where the contract is silent"), and the name of that choice.
struct OpenKey {
  std::string key;
  std::string choice;
};
/// The open keys of the result for this request and response: implementations that differ from the
/// reference on these keys alone are implementation-defined, not deviating. Empty for most rows.
std::vector<OpenKey> open_keys(const json::Value& request, const json::Value& response);

}  // namespace crosscheck::host
