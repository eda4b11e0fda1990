// server_config.hpp: the one reader and writer of serve-scenarios configs
// (schemas/scenario-server-config.schema.json).
#pragma once

#include <string>

#include "util/result.hpp"

namespace crosscheck::scenario {

struct ServerConfig {
  std::string scenario_file;
  std::string readiness_file;  ///< "" when not asked for
  std::string receipt_file;    ///< "" when not asked for
};

/// Error names the file and the field.
Result<ServerConfig, std::string> read_server_config(const std::string& path);
/// Writes the config atomically (transport stdio, auth none).
void write_server_config(const std::string& path, const ServerConfig& config);

}  // namespace crosscheck::scenario
