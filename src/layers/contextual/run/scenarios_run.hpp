// scenarios_run.hpp: `crosscheck scenarios run FILE...`, layer 3 through the SDKs' own interop
// clients with crosscheck as the scripted server (docs/scenarios.md).
//
// Each file's rows are checked against the snapshot (skew: reported, not run), run on every selected
// client in batches (src/interop/client_runner.hpp) and on the reference host in process
// (src/layers/contextual/host, implementation "cpp", first column: blame follows it), and each row's
// results are compared (src/layers/contextual/compare/scenario_verdict.hpp); every difference is
// written as a finding the moment the row is settled, as a run-folder finding (src/run, one per row).
// OUT is a run folder (docs/run-folder.md): run.json, findings/, summary.json, verdict.json (and
// baseline-check.json with --baseline), which `crosscheck report`, `replay`, `baseline check` and
// `verdict` read. The exit code is the verdict's (src/verdict): 1 when a contract bucket (crash /
// timeout / protocol included) is not in the baseline, else 0; 2 bad input, 3 a client that cannot
// start.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "schema/ir.hpp"

namespace crosscheck::scenario {

struct ScenariosRunOptions {
  std::vector<std::string> files;
  std::string clients_text;  ///< --clients a,b
  std::string client_config;
  std::string out = "crosscheck-out/scenarios";
  std::string schema;
  std::string complete_harness;
  std::size_t batch_size = 0;
  std::string batch_deadline = "300s";
  bool servers = false;
  std::string request_deadline = "10s";
  std::string baseline;  ///< --baseline FILE
  bool strict = false;
  /// Loads --schema ("" for the installed one); Fatal exit 2 on a bad one.
  std::function<std::unique_ptr<schema::Ir>(const std::string&)> load_schema;
};

/// Runs it; the verdict's exit code. Throws Fatal with the exit code of bad input or a client that
/// cannot start.
int run_scenarios(const ScenariosRunOptions& options);

}  // namespace crosscheck::scenario
