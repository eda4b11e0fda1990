// command.hpp: how subcommands plug into the CLI. Each src/cli/command_<verb>.cpp defines one
// CommandSpec and registers it with a static Registration; main() builds the CLI11 app from the
// registry, so the same table drives parsing and --help.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace crosscheck::cli {

struct CommandSpec {
  const char* name;      ///< "decode"
  const char* summary;   ///< one line for `crosscheck --help`
  const char* examples;  ///< shown at the end of `crosscheck <name> --help`
  /// Adds the options to `sub` and returns the action to run once parsing succeeded; the action
  /// returns the exit code, or throws crosscheck::Fatal.
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

std::vector<CommandSpec>& registry();

struct Registration {
  explicit Registration(CommandSpec spec) { registry().push_back(std::move(spec)); }
};

}  // namespace crosscheck::cli
