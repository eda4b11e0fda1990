// client_config.hpp: the one reader of adapters/clients.json (schemas/client-config.schema.json),
// the SDK interop clients that are crosscheck's implementations of layer 3.
//
// A client is unavailable, with the reason said, when a variable it requires is unset, its program
// is missing (with how to build it), or its checkout's interop/adapter.json is missing or has no
// `client` command. Unavailable clients are listed, never run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace crosscheck::scenario {

struct ClientSpec {
  std::string name;
  std::string description;
  std::vector<std::string> argv;  ///< without the "--config PATH" crosscheck appends
  /// The SDK's interop server role (same rule); empty when the entry names none.
  std::vector<std::string> server_argv;
  std::string cwd;  ///< absolute
  std::map<std::string, std::string> env;
  std::string build;
  std::vector<std::string> requires_env;
  bool default_on = true;
  std::string sdk_adapter;  ///< the decoding adapter of the same SDK release ("" when none is named)
  std::optional<std::string> unavailable;  ///< why it cannot run here
};

/// Reads the configuration; the error names the file, the client and the field.
Result<std::vector<ClientSpec>, std::string> load_client_config(const std::string& path,
                                                                const std::string& root_dir);

/// <source dir>/adapters/clients.json.
std::string default_client_config_path();
/// The checkout crosscheck was built from (what ${ROOT} names in a client configuration).
std::string checkout_dir();

/// `names` empty: every default client; otherwise exactly those (an unknown name is an error that
/// lists the known ones).
Result<std::vector<ClientSpec>, std::string> select_clients(const std::vector<ClientSpec>& all,
                                                            const std::vector<std::string>& names);

}  // namespace crosscheck::scenario
