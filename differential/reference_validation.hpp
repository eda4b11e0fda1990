// reference_validation.hpp: layer 2 (canonical validation) of the C++ reference, the one place both
// the in-process `cpp` member of an ImplementationSet and `crosscheck serve-adapter` ask.
//
// The reference canonical validator (src/json/schema_validator over the SDK schema bundle) is not
// wired in yet: until it is, the reference does not list the canonical layer and answers every
// document unsupported. Wiring it in is this file alone: reference_layers() adds kCanonicalLayer
// and validate_reference() calls the validator.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "differential/impl_result.hpp"
#include "schema/ir.hpp"

namespace crosscheck::differential {

/// The layers the C++ reference answers (hello's "layers").
inline std::vector<std::string> reference_layers() { return {kStructuralLayer}; }

/// The reference's canonical verdict on `input` (raw bytes) as schema document `document` of `ir`.
inline ValidateResult validate_reference(const schema::Ir& ir, std::string_view document,
                                         std::string_view input) {
  (void)ir;
  (void)input;
  ValidateResult r;
  r.implementation = "cpp";
  r.verdict = Verdict::kUnsupported;
  r.message = "the C++ reference has no canonical validator for " + std::string(document) + " yet";
  return r;
}

}  // namespace crosscheck::differential
