// command_repro.cpp: `crosscheck repro FINDING --sdk NAME [--out DIR] [--force] [--deviation-of IMPL]`,
// a standalone reproducer of a finding in the SDK's own language (src/repro, docs/repro.md). The SDK's
// adapter is started once for its hello: the version and schema manifest the reproducer names.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/adapter_options.hpp"
#include "cli/broken_rules.hpp"
#include "cli/command.hpp"
#include "exec/adapter_config.hpp"
#include "json/value.hpp"
#include "repro/repro.hpp"
#include "run/finding_file.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct ReproOptions {
  std::string finding, sdk, out, deviation_of, config, schema;
  bool force = false;
  bool unverified = false;
};

std::string lock_member(const core::Identity& id, const char* key) {
  if (!id.lock || !id.lock->is_object()) return "";
  const json::Value* v = id.lock->find(key);
  return v && v->is_string() ? v->string_value() : "";
}

/// The adapter named --sdk, from the configuration: an unknown name or one not set up here is exit 2.
exec::AdapterConfig sdk_config(const ReproOptions& o) {
  const std::string path = o.config.empty() ? exec::default_adapter_config_path() : o.config;
  auto all = exec::load_adapter_config(path, exec::repository_root());
  if (!all.ok()) throw Fatal(all.error());
  auto selected = exec::select_adapters(all.value(), {o.sdk}, {});
  if (!selected.ok()) throw Fatal("--sdk: " + selected.error());
  return selected.value().front();
}

core::Identity hello_of(const ReproOptions& o) {
  AdapterOptions adapters;
  adapters.adapters = {o.sdk};
  adapters.config = o.config;
  adapters.schema = o.schema;
  std::unique_ptr<exec::ImplementationSet> set;
  try {
    set = adapters.start(false);
  } catch (const Fatal& e) {
    throw Fatal("--sdk " + o.sdk + ": the SDK is missing here: " + e.what());
  }
  for (auto& id : set->identities())
    if (id.name == o.sdk) return id;
  throw Fatal("--sdk " + o.sdk + ": the SDK is missing here: its adapter did not start");
}

int repro(const ReproOptions& o) {
  auto finding = run::FindingStore::load(o.finding);
  if (!finding.ok()) throw Fatal(finding.error());
  const exec::AdapterConfig config = sdk_config(o);
  repro::SdkInfo sdk;
  sdk.name = o.sdk;
  std::vector<std::string> roots;  // the SDK's roots, from its hello (none known without one)
  const std::string family = o.sdk.substr(0, o.sdk.find('/'));
  if (config.unavailable && o.unverified && (family == "go" || family == "typescript")) {
    // No checkout: written from the adapter's entrypoints alone, and said so in the header.
    sdk.language = family;
    sdk.path = o.sdk.find('/') == std::string::npos ? "text" : o.sdk.substr(o.sdk.find('/') + 1);
    sdk.version = "unknown";
    sdk.verified = false;
  } else if (config.unavailable) {
    throw Fatal("--sdk " + o.sdk + ": the SDK is missing here: " + *config.unavailable + " (build it with " +
                config.build +
                (family == "go" || family == "typescript" ? "; --unverified writes it anyway" : "") + ")");
  } else {
    const core::Identity id = hello_of(o);
    roots = id.roots;
    sdk.language = id.language;
    sdk.path = id.reported_name.find('/') == std::string::npos
                   ? "text"
                   : id.reported_name.substr(id.reported_name.find('/') + 1);
    sdk.version = id.version;
    sdk.manifest_sha256 = lock_member(id, "schemaManifestSha256");
    sdk.source_repository = lock_member(id, "sourceRepository");
    sdk.source_commit = lock_member(id, "sourceCommit");
    sdk.protocol_version = lock_member(id, "protocolVersion");
  }
  if (sdk.language == "rust") {
    // The adapter's own lock file: the reproducer resolves the crates the adapter was built with.
    if (auto lock = read_file_bytes(std::filesystem::path(config.spec.cwd) / "Cargo.lock"))
      sdk.cargo_lock = *lock;
  }

  const std::string deviating = o.deviation_of.empty() ? o.sdk : o.deviation_of;
  auto plan = repro::plan_reproducer(finding.value(), o.finding, deviating, sdk.language);
  if (!plan.ok()) throw Fatal(o.finding + ": refused: " + plan.error());
  plan->rules = shipped_broken_rules()(finding.value());
  if (sdk.verified && std::find(roots.begin(), roots.end(), plan->root) == roots.end())
    throw Fatal(o.finding + ": refused: " + o.sdk + " has no root '" + plan->root + "' (its hello lists " +
                std::to_string(roots.size()) + " roots)");
  auto files = repro::write_reproducer(plan.value(), sdk);
  if (!files.ok()) throw Fatal("--sdk " + o.sdk + ": " + files.error());

  std::string out = o.out;
  if (out.empty()) {
    std::string name = o.sdk;
    std::replace(name.begin(), name.end(), '/', '-');
    out = "crosscheck-out/repro/" + name + "-" + plan->root + "-" + plan->finding_id.substr(0, 12);
  }
  auto written = repro::write_files(out, files.value(), o.force);
  if (!written.ok()) throw Fatal("--out " + written.error());
  for (const auto& path : written.value()) std::cout << "wrote " << path << "\n";
  if (!sdk.verified)
    std::cout << "unverified: no checkout of the " << sdk.language << " SDK was available; never run here\n";
  if (sdk.language == "python")
    std::cout << "run: " << written.value().front() << " with the SDK's python (exit 1 while it deviates)\n";
  else if (sdk.language == "rust")
    std::cout << "run: cd " << out << " && cargo test --release (fails while the SDK deviates)\n";
  else if (sdk.language == "go")
    std::cout << "run: point go.mod's replace at an SDK checkout, then cd " << out << " && go test ./...\n";
  else
    std::cout << "run: node --test " << written.value().front() << " (the SDK's package resolvable)\n";
  return kExitClean;
}

const Registration kRepro{CommandSpec{
    "repro",
    "Write a standalone reproducer of a finding in the SDK's own language (layers 1-2; layer 3 for python)",
    "  crosscheck repro crosscheck-out/findings/diverge-<hash>.json --sdk python\n"
    "  crosscheck repro nightly/findings/diverge-<hash>.min.json --sdk rust --out repro-rust/\n"
    "  crosscheck repro FINDING --sdk python --deviation-of faulty   # another implementation's deviation, "
    "asked "
    "of python",
    [](CLI::App& sub) {
      auto o = std::make_shared<ReproOptions>();
      sub.add_option("finding", o->finding, "The finding file (findings/<name>.json or its .min.json)")
          ->required();
      sub.add_option("--sdk", o->sdk, "The SDK's adapter (python, rust): the reproducer's language")
          ->required();
      sub.add_option("--out", o->out, "Output folder (default: crosscheck-out/repro/<sdk>-<root>-<id>)");
      sub.add_flag("--force", o->force, "Replace the reproducer's files in an existing --out folder");
      sub.add_option(
          "--deviation-of", o->deviation_of,
          "Reproduce this implementation's deviation (default: the --sdk itself), asked of the SDK");
      sub.add_flag("--unverified", o->unverified,
                   "go, typescript: write the reproducer without a checkout of the SDK (marked unverified)");
      sub.add_option("--adapter-config", o->config,
                     "Adapter configuration file (default: adapters/default.json)");
      sub.add_option("--schema", o->schema,
                     "Default schema (as for run): the reference's, for the adapter's start");
      return [o] { return repro(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
