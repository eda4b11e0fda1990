// payload_results.hpp: what every implementation of a run said about one payload, and what the
// comparison of their answers found (the unit a run hands on: findings, reports, the reducer).
#pragma once

#include <string>
#include <vector>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"

namespace crosscheck::core {

/// Results of every implementation for one payload, split into schema groups.
struct PayloadResults {
  std::string root;
  std::string input;
  std::vector<ImplResult> results;              ///< one per implementation, in implementation order
  std::vector<std::vector<ImplResult>> groups;  ///< the same results, by schema group
  /// Layer 2, when asked for: the schema document of the root ("" when the root has none) and each
  /// implementation's canonical verdict, in implementation order (empty when not asked for).
  std::string document;
  std::vector<ValidateResult> validations;
  /// The layer-1 comparison of every group and the layer-2 one of every group (with the cross-layer
  /// check), each divergence saying its layer.
  std::vector<Divergence> divergences;
  bool interrupted = false;  ///< the run stopped before every implementation answered: not compared
};

}  // namespace crosscheck::core
