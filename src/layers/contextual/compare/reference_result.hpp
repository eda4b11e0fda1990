// reference_result.hpp: the reference host (src/layers/contextual/host) on one scenario row, as a result of
// the shape a client reports, so the reference is a column like any client (`scenarios run`, `replay`, the
// layer-3 fuzz campaign).
#pragma once

#include "canonical/canonical_validator.hpp"
#include "interop/client_runner.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {

/// Its own status is whether it meets the row; a response the synthetic host refuses after SDK
/// acceptance carries sdkAccepted / hostAccepted / rejectionLayer in its report row, as the clients
/// write them. A request that is not canonical leaves it inapplicable. The rule the host names is
/// the first note ("reference rule <name>").
RowResult reference_result(const canonical::CanonicalValidator& validator, const Row& row);

}  // namespace crosscheck::scenario
