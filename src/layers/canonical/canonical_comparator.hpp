// canonical_comparator.hpp: layer 2, the canonical verdicts of several implementations on one payload
// as one schema document, turned into divergences; and the cross-layer check inside each one.
//
// canonical-acceptance: one implementation's validator says valid, another's invalid. Error paths
// are recorded (in the finding and in the detail) but are never a divergence of their own: engines
// report different first errors for the same verdict. An implementation's own failure of the
// validate op is crash, timeout, protocol or sdk-error, as at layer 1. unsupported (the adapter does
// not list the canonical layer, or does not validate that document) is left out of the comparison;
// the caller reports who was left out.
//
// layer-inconsistency: inside one implementation, canonically valid must imply structurally
// accepted (the codec is looser than the schema). Checked on every input that reached both layers.
//
// Implementation-defined: the traits the reference validator reports on the input (format edges,
// regex constructs, big numbers against bounds, lone surrogates, duplicate keys: docs/canonical.md),
// and the parse-level ones of the input itself that make an engine's parser refuse the text (deep
// nesting, a lone surrogate, a number too long, invalid UTF-8). A layer-2 divergence on an input
// with any of them is labelled implementation-defined and kept apart from contract divergences.
//
// Signatures start with "canonical|", so no layer-2 bucket can equal a layer-1 one, and layer-1
// signatures are what compare() always wrote (docs/reports.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"

namespace crosscheck::layers::canonical {

/// `validations`: the implementations of ONE schema group on `input` (raw bytes) as one document.
/// `decodes`: the structural results of the same payload (any implementations; the cross-layer
/// check pairs them with `validations` by implementation name, and skips those it cannot pair).
std::vector<core::Divergence> compare_canonical(std::string_view input,
                                                const std::vector<core::ValidateResult>& validations,
                                                const std::vector<core::ImplResult>& decodes);

/// "cpp=valid,python=invalid": the verdicts of those that answered valid or invalid, sorted.
std::string verdict_tuple(const std::vector<core::ValidateResult>& validations);

/// The layer-2 implementation-defined traits of `input` (file comment), sorted and distinct.
std::vector<std::string> canonical_traits(std::string_view input,
                                          const std::vector<core::ValidateResult>& validations);

}  // namespace crosscheck::layers::canonical
