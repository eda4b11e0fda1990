// scenario_support.hpp: what `scenarios run` and `replay` share to run scenario rows: the reference
// host's answer on a row as a client-shaped result, and picking the SDK clients (or servers) by name.
#pragma once

#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "scenario/client_config.hpp"
#include "scenario/client_runner.hpp"
#include "scenario/scenario_file.hpp"

namespace crosscheck::cli {

/// The reference host (src/host) on one row, as a result of the shape a client reports: its own
/// status is whether it meets the row, and a response the synthetic host refuses after SDK
/// acceptance carries sdkAccepted / hostAccepted / rejectionLayer in its report row, as the clients
/// write them. A request that is not canonical leaves it inapplicable.
scenario::RowResult reference_result(const canonical::CanonicalValidator& validator,
                                     const scenario::Row& row);

/// The clients of `config_path` ("" for adapters/clients.json) named in `names` (empty: every
/// available one, warning about the others on stderr). With `servers`, a client without a server
/// command is unavailable. Fatal exit 3 when a named one is unavailable or none is left, exit 2 for a
/// bad configuration or an unknown name.
std::vector<scenario::ClientSpec> pick_clients(const std::string& config_path,
                                               const std::vector<std::string>& names, bool servers);

}  // namespace crosscheck::cli
