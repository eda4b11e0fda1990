// command_scenarios_seed.hpp: `crosscheck scenarios seed`, added beside `scenarios run` by
// command_scenarios.cpp (docs/scenarios.md, "Seeding rows from findings").
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command_scenarios_generate.hpp"

namespace crosscheck::cli {

/// Adds the `seed` subcommand to `scenarios`.
ScenariosVerb add_scenarios_seed(CLI::App& scenarios);

}  // namespace crosscheck::cli
