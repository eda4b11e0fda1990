// comparator.hpp: turns the results of several implementations on one payload into divergences.
//
// Classes (ARCHITECTURE.md, "Comparison"; the list: core/divergence_classes.def): acceptance, warnings,
// diagnostics (both rejected, different errors; the least severe), round-trip-self, round-trip-cross,
// and one implementation's own failure: crash, timeout, sdk-error, protocol.
//
// Implementations are compared only within one schema group (same closure hash for the root):
// skewed roots are reported by the caller, never silently compared.
//
// Some inputs are implementation-defined (duplicate keys, lone surrogates, huge exponents, deep
// nesting, integers beyond 2^53, -0, invalid UTF-8 ...; input_traits.hpp). A divergence is labelled
// implementation-defined, and kept apart from contract divergences unless the policy is strict, when
// such a trait decides it: one that sits where the implementations differ (at, above or below a path
// their diagnostics or re-encodings disagree on). A trait elsewhere in the input decides nothing.
//
// An implementation that rejects the text itself (invalid_json) while others parse it is one fault of
// its own, an acceptance divergence "X rejected, the others parsed", decided by the one trait that can
// stop a parser (depth, a lone surrogate ...). Those that parsed are then compared among themselves.
// Signatures (the bucket of a divergence) are described in docs/reports.md.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "json/value.hpp"
#include "layers/structural/input_traits.hpp"

namespace crosscheck::layers::structural {

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
std::vector<core::Divergence> compare(std::string_view root, std::string_view input,
                                      const std::vector<core::ImplResult>& results,
                                      const CompareOptions& options = {});

/// "cpp=accepted,python=rejected": the tuple of outcomes, sorted by implementation (the NEZHA key).
std::string outcome_tuple(const std::vector<core::ImplResult>& results);

/// A JSON Pointer with array indices as "*" and unknown member names as "?".
std::string path_shape(std::string_view pointer, const std::set<std::string, std::less<>>* known_names);

}  // namespace crosscheck::layers::structural
