// command_scenarios.cpp: `crosscheck scenarios run FILE...` (its flags; src/layers/contextual/run runs
// it), with `scenarios generate` and `scenarios seed` added beside it (docs/scenarios.md).
#include <memory>

#include "cli/command.hpp"
#include "cli/command_scenarios_generate.hpp"
#include "cli/command_scenarios_seed.hpp"
#include "cli/schema_option.hpp"
#include "layers/contextual/run/scenarios_run.hpp"

namespace crosscheck::cli {
namespace {

int run(scenario::ScenariosRunOptions& o) {
  o.load_schema = [](const std::string& path) { return std::make_unique<schema::Ir>(load_ir_or_fail(path)); };
  return scenario::run_scenarios(o);
}

const Registration kScenarios{CommandSpec{
    "scenarios",
    "Layer 3: run scenario files through each SDK's interop client, crosscheck as the scripted server",
    "  crosscheck scenarios run tests/data/scenarios/composition.json\n"
    "  crosscheck scenarios run --clients python,rust --out out/l3 a.json b.json\n"
    "  crosscheck scenarios run --baseline tests/data/baseline/known.json --out out/l3 a.json\n"
    "  crosscheck scenarios run --complete-harness crosscheck/0.1.0 old-snapshot.json\n"
    "  crosscheck scenarios run --servers --clients python,rust tests/data/scenarios/admission.json\n"
    "  crosscheck scenarios seed --findings out/l3 --out seeded.json --merge seeded.json\n"
    "  crosscheck report out/l3; crosscheck replay out/l3/findings/diverge-<hash>.json",
    [](CLI::App& sub) {
      auto o = std::make_shared<scenario::ScenariosRunOptions>();
      sub.require_subcommand(1);
      CLI::App* run_cmd = sub.add_subcommand("run", "Run scenario files on the clients and compare them");
      run_cmd->add_option("files", o->files, "Scenario files (schemas/scenario-file.schema.json)")
          ->required();
      // One value split here: a vector option would also swallow the positional files after it.
      run_cmd->add_option("--clients", o->clients_text,
                          "SDK clients to run, comma-separated (default: every available one); the reference "
                          "host (cpp) always runs first");
      run_cmd->add_option("--client-config", o->client_config,
                          "Client configuration (default adapters/clients.json)");
      run_cmd->add_option("--out", o->out,
                          "Run folder: run.json, findings/, summary.json, verdict.json, the clients' batch "
                          "folders (default crosscheck-out/scenarios)");
      run_cmd->add_option("--schema", o->schema,
                          "The implementations' schema snapshot (default: set-up's bundle)");
      run_cmd->add_option(
          "--complete-harness", o->complete_harness,
          "NAME/VERSION: add params.event.harness to requests that lack it (older snapshots)");
      run_cmd->add_option("--batch-size", o->batch_size, "Rows per client run (default: the whole file)");
      run_cmd->add_option("--batch-deadline", o->batch_deadline, "Deadline of one client run (default 300s)");
      run_cmd->add_flag("--servers", o->servers,
                        "Request admission: send each row's request to each SDK's interop server instead "
                        "(crosscheck as the client), and compare admitted vs refused with the reference");
      run_cmd->add_option("--request-deadline", o->request_deadline,
                          "--servers: deadline of one request (default 10s)");
      run_cmd->add_option("--baseline", o->baseline,
                          "Known divergences (crosscheck-baseline/1): buckets it covers are known and do not "
                          "fail; writes OUT/baseline-check.json");
      run_cmd->add_flag("--strict", o->strict, "New implementation-defined buckets fail the run too");
      ScenariosVerb generate = add_scenarios_generate(sub);  // command_scenarios_generate.cpp
      ScenariosVerb seed = add_scenarios_seed(sub);          // command_scenarios_seed.cpp
      return [o, generate, seed] {
        if (generate.app->parsed()) return generate.action();
        return seed.app->parsed() ? seed.action() : run(*o);
      };
    }}};

}  // namespace
}  // namespace crosscheck::cli
