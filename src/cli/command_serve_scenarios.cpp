// command_serve_scenarios.cpp: `crosscheck serve-scenarios --config FILE`, the stdio server side of
// the cross-language adapter contract v1 with scripted responses (src/interop/scripted_server.hpp).
// An SDK's interop client spawns it as its serverCommand; `crosscheck scenarios run` writes the
// config. stdout carries only AHP messages; diagnostics go to stderr.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/command.hpp"
#include "interop/receipt.hpp"
#include "interop/scripted_server.hpp"
#include "interop/server_config.hpp"
#include "json/write.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"

namespace crosscheck::cli {
namespace {

int serve(const std::string& config_path) {
  auto config = scenario::read_server_config(config_path);
  if (!config.ok()) throw Fatal(config.error());
  auto file = scenario::read_scenario_file(config->scenario_file);
  if (!file.ok()) throw Fatal(file.error().text());
  std::optional<scenario::ReceiptWriter> receipts;
  if (!config->receipt_file.empty()) receipts.emplace(config->receipt_file);
  scenario::ScriptedServer server(file.value(), receipts ? &*receipts : nullptr);
  if (!config->readiness_file.empty()) {
    json::Value ready = json::Value::object();
    ready.add("endpoint", json::Value::string("stdio"));
    ready.add("controlEndpoint", json::Value::null());
    ready.add("pid", json::Value::number(std::to_string(::getpid())));
    run::write_file_atomically(config->readiness_file, json::write(ready) + "\n");
  }
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::cout << server.answer(line) << '\n' << std::flush;
  }
  return kExitClean;
}

const Registration kServeScenarios{CommandSpec{
    "serve-scenarios",
    "Answer an SDK interop client over stdio with each scenario's scripted response (the contract's server "
    "side)",
    "  crosscheck serve-scenarios --config server.json   # {transport:\"stdio\", scenarioFile, "
    "receiptFile?}\n"
    "  .venv/bin/python -m agenthooksprotocol.interop client --config client.json   # serverCommand: this",
    [](CLI::App& sub) {
      auto config = std::make_shared<std::string>();
      sub.add_option("--config", *config, "Server config (schemas/scenario-server-config.schema.json)")
          ->required();
      return [config] { return serve(*config); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
