// command_scenarios_generate.hpp: `crosscheck scenarios generate`, added beside `scenarios run` by
// command_scenarios.cpp (docs/scenario-generator.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace crosscheck::cli {

struct ScenariosVerb {
  CLI::App* app = nullptr;      ///< the subcommand, to ask whether it was chosen
  std::function<int()> action;  ///< runs it once parsing succeeded
};

/// Adds the `generate` subcommand to `scenarios`.
ScenariosVerb add_scenarios_generate(CLI::App& scenarios);

}  // namespace crosscheck::cli
