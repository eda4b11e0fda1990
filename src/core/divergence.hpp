// divergence.hpp: what a comparison finds, whichever layer found it: the divergence classes (the
// list and what each means: divergence_classes.def) and one divergence with its bucket signature.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/impl_result.hpp"

namespace crosscheck::core {

/// The kinds of divergence, most severe first (the list and what each means: divergence_classes.def).
enum class DivergenceClass {
#define CROSSCHECK_DIVERGENCE_CLASS(enumerator, name) enumerator,
#include "core/divergence_classes.def"
#undef CROSSCHECK_DIVERGENCE_CLASS
};
const char* class_name(DivergenceClass c);  ///< "acceptance", "warnings", ..., "round-trip-self", "sdk-error"
std::optional<DivergenceClass> parse_class(std::string_view name);  ///< nullopt for a name not in the list
std::vector<DivergenceClass> all_classes();                         ///< most severe first
/// Where buckets of this class sort in reports: 0 for the most severe.
int class_rank(DivergenceClass c);

struct Divergence {
  DivergenceClass cls;
  /// The comparison layer that found it: kStructuralLayer (layers/structural's compare()) or
  /// kCanonicalLayer (layers/canonical's compare_canonical(); layer-inconsistency is found there too,
  /// where both layers meet).
  std::string layer = kStructuralLayer;
  std::vector<std::string> implementations;  ///< involved, sorted
  std::string detail;                        ///< one line a person can read
  /// A trait of the input decides it (layers/structural/comparator.hpp says which traits do).
  bool implementation_defined = false;
  std::string bucket;     ///< signature hash (16 hex digits)
  std::string signature;  ///< the readable signature the hash is taken of
};

}  // namespace crosscheck::core
