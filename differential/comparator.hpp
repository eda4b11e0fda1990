// comparator.hpp: turns the results of several implementations on one payload into divergences.
//
// Classes (ARCHITECTURE.md, "Comparison"): acceptance (accepted vs rejected), warnings (different
// multisets of warning (path, code)), diagnostics (both rejected, different error (path, code)
// sets; lower weight), round-trip-self (an accepted payload whose re-encoding is not semantically
// equal to the input), round-trip-cross (re-encodings differ between implementations), crash,
// timeout, sdk-error (the adapter caught an exception), protocol (the adapter broke the protocol).
// Implementations are compared only within one schema group (same closure hash for the root):
// skewed roots are reported by the caller, never silently compared.
//
// Some inputs are implementation-defined (duplicate keys, lone surrogates, huge exponents, deep
// nesting, integers beyond 2^53, -0, invalid UTF-8 ...): a divergence on such an input is labelled
// with those traits and kept apart from contract divergences unless the policy is strict.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "differential/impl_result.hpp"
#include "json/value.hpp"

namespace crosscheck::differential {

enum class DivergenceClass {
  kAcceptance,
  kWarnings,
  kDiagnostics,
  kRoundTripSelf,
  kRoundTripCross,
  kCrash,
  kTimeout,
  kSdkError,
  kProtocol,
};
const char* class_name(DivergenceClass c);  ///< "acceptance", "warnings", ..., "round-trip-self", "sdk-error"
std::optional<DivergenceClass> parse_class(std::string_view name);

/// Properties of an input that make some behaviour implementation-defined (ahp-sdks.md §7.3).
struct InputTraits {
  bool not_json = false;  ///< not valid strict JSON (includes invalid UTF-8, BOM)
  bool invalid_utf8 = false;
  bool duplicate_keys = false;
  bool lone_surrogate = false;
  bool huge_exponent = false;  ///< a number outside the double range, or with |exponent| > 308
  bool big_integer = false;    ///< an integer-valued number beyond +-(2^53-1)
  bool negative_zero = false;
  bool long_number = false;   ///< a number token of more than 4300 digits (Python's int limit)
  bool deep_nesting = false;  ///< nesting deeper than 100 (SDK recursion limits differ)
  /// JSON Pointers of the numbers behind big_integer and huge_exponent. Those traits make behaviour
  /// free only in opaque positions: where an implementation's error names one of these paths, the
  /// number sits in a typed slot and the contract decides (see compare()).
  std::vector<std::string> big_number_paths;
  bool any() const;
  std::vector<std::string> names() const;  ///< e.g. {"duplicate-keys", "lone-surrogate"}
};
InputTraits analyse_input(std::string_view bytes);

struct Divergence {
  DivergenceClass cls;
  std::vector<std::string> implementations;  ///< involved, sorted
  std::string detail;                        ///< one line a person can read
  bool implementation_defined = false;       ///< the input had traits that make this behaviour free
  std::string bucket;                        ///< signature hash (16 hex digits)
  std::string signature;                     ///< the readable signature the hash is taken of
};

struct CompareOptions {
  /// Member names the schema declares; other names in diagnostic paths are abstracted as "?" for
  /// bucketing (unknown members carry arbitrary names that should not split buckets).
  const std::set<std::string, std::less<>>* known_names = nullptr;
  bool compare_diagnostics = true;  ///< both rejected, different error sets
  /// Implementations whose path cannot report warnings (hello's reportsWarnings: false, e.g. a
  /// direct model decode): left out of the warnings comparison.
  std::set<std::string, std::less<>> without_warnings;
};

/// `results` are the implementations of ONE schema group for `root` (see file comment).
std::vector<Divergence> compare(std::string_view root, std::string_view input,
                                const std::vector<ImplResult>& results, const CompareOptions& options = {});

/// "cpp=accepted,python=rejected": the tuple of outcomes, sorted by implementation (the NEZHA key).
std::string outcome_tuple(const std::vector<ImplResult>& results);

/// A JSON Pointer with array indices as "*" and unknown member names as "?".
std::string path_shape(std::string_view pointer, const std::set<std::string, std::less<>>* known_names);

}  // namespace crosscheck::differential
