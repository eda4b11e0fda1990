// adapter_options.cpp: shared adapter selection for run, matrix run and adapters.
#include "cli/adapter_options.hpp"

#include <iostream>
#include <sstream>

#include "cli/schema_option.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {

void AdapterOptions::add_to(CLI::App& app) {
  app.add_option("--adapters", adapters, "Comma-separated adapters to use (default: every default one)")
      ->delimiter(',');
  app.add_option("--adapter", adhoc, "Add an ad-hoc adapter: NAME='COMMAND ARGS' (repeatable)");
  app.add_option("--adapter-config", config, "Adapter configuration file (default: adapters/default.json)");
  app.add_option("--schema", schema, "Default schema: folder with manifest.json or an SDK schemas.json");
  app.add_option("--jobs", jobs, "Processes per adapter")->check(CLI::Range(1, 64));
  app.add_option("--deadline", deadline_s, "Seconds an adapter may take for one request")
      ->check(CLI::PositiveNumber);
  app.add_option("--in-flight", in_flight, "Requests in flight per adapter process")
      ->check(CLI::Range(1, 4096));
}

std::unique_ptr<exec::ImplementationSet> AdapterOptions::start(bool list_unavailable) const {
  auto ir = std::make_shared<const schema::Ir>(load_ir_or_fail(schema));
  std::string config_path = config.empty() ? exec::default_adapter_config_path() : config;
  auto all = exec::load_adapter_config(config_path, exec::repository_root());
  if (!all.ok()) throw Fatal(all.error());
  std::vector<exec::AdapterConfig> extra;
  for (const auto& a : adhoc) {
    auto c = exec::parse_adhoc_adapter(a);
    if (!c.ok()) throw Fatal(c.error());
    extra.push_back(std::move(c).value());
  }
  auto selected = exec::select_adapters(all.value(), adapters, extra);
  if (!selected.ok()) throw Fatal(selected.error());
  exec::PoolOptions pool;
  pool.processes = jobs;
  pool.max_in_flight = in_flight;
  pool.deadline = std::chrono::milliseconds(static_cast<long long>(deadline_s * 1000));
  auto set = std::make_unique<exec::ImplementationSet>(ir, selected.value(), pool);
  const bool explicit_choice = !adapters.empty() || !adhoc.empty();
  // An adapter that is not set up here (its configuration says why) is no failure of this run: one
  // line names them all. One that should have started and did not is a warning each.
  std::string unavailable;
  for (const auto& f : set->failures()) {
    if (f.message.rfind(kUnavailablePrefix, 0) == 0 && !explicit_choice)
      unavailable += (unavailable.empty() ? "" : ", ") + f.adapter;
    else
      std::cerr << "WARNING: adapter " << f.adapter << ": " << f.message << "\n";
  }
  if (!unavailable.empty() && list_unavailable)
    std::cerr << "note: not set up here, left out: " << unavailable << " (crosscheck adapters says why)\n";
  if (explicit_choice) {
    for (const auto& f : set->failures()) {
      if (f.message.rfind("its schema bundle", 0) == 0) continue;
      throw Fatal("adapter " + f.adapter + " could not be started: " + f.message, kExitAdapter);
    }
  }
  return set;
}

}  // namespace crosscheck::cli
