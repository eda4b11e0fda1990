// client_choice.hpp: what `scenarios run`, `replay` and `fuzz` share to run scenario rows: picking
// the SDK clients (or servers) by name (the reference's column is scenario/reference_result.hpp).
#pragma once

#include <string>
#include <vector>

#include "interop/client_config.hpp"

namespace crosscheck::scenario {

/// --clients a,b: the names in order, without empty ones and without the reference (it always runs;
/// naming it among the clients is allowed and changes nothing).
std::vector<std::string> client_names(const std::string& text);

/// The clients of `config_path` ("" for adapters/clients.json) named in `names` (empty: every
/// available one, warning about the others on stderr). With `servers`, a client without a server
/// command is unavailable. Fatal exit 3 when a named one is unavailable or none is left, exit 2 for a
/// bad configuration or an unknown name.
std::vector<scenario::ClientSpec> pick_clients(const std::string& config_path,
                                               const std::vector<std::string>& names, bool servers);

}  // namespace crosscheck::scenario
