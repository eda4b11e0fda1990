// adapter_options.hpp: the options every differential command shares (--adapters, --adapter,
// --schema, --jobs, --deadline, --in-flight) and starting the implementations they select.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/implementation_set.hpp"

namespace crosscheck::cli {

/// How ImplementationSet words the failure of an adapter its configuration marks unavailable (no SDK
/// checkout here, ...): "unavailable: <why>".
inline constexpr std::string_view kUnavailablePrefix = "unavailable: ";

struct AdapterOptions {
  std::vector<std::string> adapters;  ///< --adapters cpp,python
  std::vector<std::string> adhoc;     ///< --adapter NAME='COMMAND ARGS'
  std::string config;                 ///< --adapter-config FILE
  std::string schema;                 ///< --schema PATH
  std::size_t jobs = 1;
  double deadline_s = 10;
  std::size_t in_flight = 64;

  void add_to(CLI::App& app);
  /// Loads the schema and the adapter configuration and starts the selected implementations.
  /// Prints a WARNING per adapter that could not start, and one note naming the default adapters
  /// that are not set up here (unavailable: no SDK checkout, ...) unless `list_unavailable` is false
  /// (a listing that shows them itself); throws Fatal(exit 3) when an adapter the user named
  /// explicitly cannot start, or when fewer than one adapter besides cpp is running and the user
  /// asked for adapters.
  std::unique_ptr<exec::ImplementationSet> start(bool list_unavailable = true) const;
};

}  // namespace crosscheck::cli
