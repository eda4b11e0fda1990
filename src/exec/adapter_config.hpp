// adapter_config.hpp: which adapters exist and how to start them (adapters/default.json), plus
// ad-hoc adapters from the command line (--adapter NAME='COMMAND ARGS').
//
// The file is an array of entries {"name", "description", "argv": [...], "cwd", "env": {...}, "build",
// "requires": ["ENV_VAR", ...], "default": bool}, as schemas/adapter-config.schema.json defines it;
// a file that breaks the schema is refused with the JSON Pointer and what was expected there. "${ROOT}" is
// the repository root; "${VAR}" any environment variable. An entry is unavailable (with the reason said) when
// a required variable is unset or its program is missing.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exec/adapter_pool.hpp"
#include "util/result.hpp"

namespace crosscheck::exec {

struct AdapterConfig {
  AdapterSpec spec;
  std::string build;  ///< how to build it (for messages)
  std::vector<std::string> requires_env;
  bool default_on = false;
  std::optional<std::string> unavailable;  ///< why it cannot be started here, if so
};

/// Reads the configuration file. Errors name the file, the JSON Pointer, the entry and what was expected.
Result<std::vector<AdapterConfig>, std::string> load_adapter_config(const std::string& path,
                                                                    const std::string& root_dir);

/// Parses NAME=COMMAND ARGS (whitespace-separated, with '...' or "..." quoting) into an adapter.
Result<AdapterConfig, std::string> parse_adhoc_adapter(const std::string& text);

/// The default configuration file: <source dir>/adapters/default.json.
std::string default_adapter_config_path();
/// The repository root that ${ROOT} stands for.
std::string repository_root();

/// Picks adapters: `names` empty means every default one; otherwise exactly those names (an unknown
/// name is an error listing the known ones). Ad-hoc adapters are appended.
Result<std::vector<AdapterConfig>, std::string> select_adapters(const std::vector<AdapterConfig>& all,
                                                                const std::vector<std::string>& names,
                                                                const std::vector<AdapterConfig>& adhoc);

}  // namespace crosscheck::exec
