// impl_result.hpp: what one implementation said about one payload, whichever way it was obtained
// (in-process C++ decoder, or an adapter process speaking protocol v1), plus the adapter's identity.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::core {

/// The adapter's own four outcomes, then the ones the harness adds when an adapter misbehaves.
enum class Outcome { kAccepted, kRejected, kUnsupported, kError, kCrash, kTimeout, kProtocol };
const char* outcome_name(Outcome outcome);  ///< "accepted", ..., "crash", "timeout", "protocol"
std::optional<Outcome> parse_outcome(std::string_view name);

struct Diag {
  std::string path;      ///< JSON Pointer
  std::string code;      ///< one of the nine SDK codes (or whatever the adapter said)
  std::string severity;  ///< "error" | "warning"
  bool operator==(const Diag&) const = default;
};

struct ImplResult {
  std::string implementation;  ///< "cpp", "python", "go/direct", ...
  Outcome outcome = Outcome::kError;
  std::vector<Diag> diagnostics;
  std::optional<std::string> encoded;       ///< re-encoded JSON text (decoded from base64)
  std::optional<std::string> encode_error;  ///< the SDK's encode failed
  std::optional<std::string> message;       ///< error / crash / timeout / protocol detail
  std::string stderr_tail;                  ///< for crash, timeout, protocol: the adapter's last stderr
  double millis = 0;                        ///< wall time of the request as the harness saw it
  /// Never answered: the harness gave the request up (the run is stopping, or the pool is shut down).
  /// Set by AdapterPool; such a payload is not compared (it would become an sdk-error finding).
  bool abandoned = false;
};

/// Layer 2 (canonical validation): the adapter's four verdicts, then the harness's own as for Outcome.
enum class Verdict { kValid, kInvalid, kUnsupported, kError, kCrash, kTimeout, kProtocol };
inline const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kValid:
      return "valid";
    case Verdict::kInvalid:
      return "invalid";
    case Verdict::kUnsupported:
      return "unsupported";
    case Verdict::kError:
      return "error";
    case Verdict::kCrash:
      return "crash";
    case Verdict::kTimeout:
      return "timeout";
    case Verdict::kProtocol:
      return "protocol";
  }
  return "error";
}

inline std::optional<Verdict> parse_verdict(std::string_view name) {
  for (Verdict v : {Verdict::kValid, Verdict::kInvalid, Verdict::kUnsupported, Verdict::kError,
                    Verdict::kCrash, Verdict::kTimeout, Verdict::kProtocol}) {
    if (name == verdict_name(v)) return v;
  }
  return std::nullopt;
}

/// What one implementation's canonical validation said about one payload as one schema document.
struct ValidateResult {
  std::string implementation;
  Verdict verdict = Verdict::kError;
  std::vector<std::string> error_paths;  ///< JSON Pointers the validator reported (invalid only)
  /// The reference only (adapters report paths alone): the failed keyword of each error path, in
  /// the same order ("format", "maxLength", "oneOf", ...).
  std::vector<std::string> error_keywords;
  /// The reference only: the implementation-defined traits its validator met on the way
  /// (docs/canonical.md, "Implementation-defined traits"), where another correct engine may answer
  /// differently.
  std::vector<std::string> implementation_defined;
  std::optional<std::string> message;  ///< the SDK's text; error / crash / timeout / protocol detail
  std::string stderr_tail;             ///< for crash, timeout, protocol: the adapter's last stderr
  double millis = 0;
  bool abandoned = false;  ///< never answered: the harness gave the request up (not compared)
};

/// The name of the contract's reference among the implementations: the C++ decoder, run in process
/// (and behind `crosscheck serve-adapter`). Every module names it through this constant.
inline constexpr const char* kReferenceImplementation = "cpp";

/// The comparison layers of adapter protocol v1 (hello's "layers").
inline constexpr const char* kStructuralLayer = "structural";
inline constexpr const char* kCanonicalLayer = "canonical";

/// Who an adapter is (its hello answer).
struct Identity {
  std::string name;  ///< as configured ("python/direct"); the hello's implementation.name is `reported_name`
  std::string reported_name, language, version, language_version, os;
  std::optional<json::Value> lock;  ///< the SDK's ahp-codegen.lock.json, or none
  std::optional<std::string> schema_bundle;
  std::vector<std::string> roots;  ///< snake_case
  bool reports_warnings = true;    ///< hello's "reportsWarnings": false for paths that cannot return warnings
  std::vector<std::string> layers{kStructuralLayer};  ///< hello's "layers" (absent: structural only)
  bool has_layer(std::string_view layer) const {
    for (const auto& l : layers) {
      if (l == layer) return true;
    }
    return false;
  }
};

}  // namespace crosscheck::core
