// command_adapters.cpp: `crosscheck adapters`, who each adapter is, which schema it was generated from,
// which roots the implementations share (the skew table) and the layer-3 interop clients; with --check, the
// protocol conformance suite (exec/conformance.hpp) against each selected adapter instead.

#include <algorithm>
#include <iomanip>
#include <iostream>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_config.hpp"
#include "exec/conformance.hpp"
#include "interop/client_config.hpp"
#include "json/value.hpp"
#include "util/result.hpp"
#include "util/running_executable.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::cli {
namespace {

std::string lock_field(const core::Identity& id, const char* field) {
  if (!id.lock || !id.lock->is_object()) return "-";
  const json::Value* v = id.lock->find(field);
  return v && v->is_string() ? v->string_value() : "-";
}

// "structural, canonical"; an implementation that answers only the structural layer says so, since
// it is left out of every canonical comparison.
std::string layers_text(const core::Identity& id) {
  std::string text;
  for (const auto& l : id.layers) text += (text.empty() ? "" : ", ") + l;
  if (!id.has_layer(core::kCanonicalLayer)) {
    text += " only (no canonical validation: left out of layer-2 comparisons)";
  }
  return text;
}

// The layer-3 implementations: each SDK's interop client (adapters/clients.json). A client names the
// decoding adapter of the same SDK release; that adapter's hello is where its version and codegen
// lock come from, so they are shown only when that adapter was started in this listing. Without
// `verbose`, one line per client.
void list_clients(const std::vector<core::Identity>& identities, bool verbose) {
  auto clients =
      scenario::load_client_config(scenario::default_client_config_path(), exec::repository_root());
  std::cout << (verbose ? "\n" : "") << "layer-3 clients (" << scenario::default_client_config_path()
            << "):\n";
  if (!clients.ok()) {
    std::cout << "  cannot be listed: " << clients.error() << "\n";
    return;
  }
  for (const auto& c : clients.value()) {
    std::cout << "  " << std::left << std::setw(14) << c.name << " ";
    auto id = std::find_if(identities.begin(), identities.end(),
                           [&](const core::Identity& i) { return i.name == c.sdk_adapter; });
    if (c.unavailable) {
      std::cout << "UNAVAILABLE: " << *c.unavailable << "\n";
    } else if (!verbose) {
      std::cout << (id == identities.end() ? "SDK of adapter " + c.sdk_adapter + " (not started here)"
                                           : "SDK " + id->reported_name + " " + id->version)
                << (c.default_on ? "" : "  (not run by default)") << "\n";
      continue;
    } else {
      std::string argv;
      for (const auto& a : c.argv) argv += (argv.empty() ? "" : " ") + a;
      std::cout << argv << (c.default_on ? "" : "  (not run by default)") << "\n";
    }
    if (!verbose) continue;
    std::cout << "      " << c.description << "\n";
    if (c.unavailable || c.sdk_adapter.empty()) continue;
    if (id == identities.end()) {
      std::cout << "      SDK identity: adapter " << c.sdk_adapter << " not started in this listing\n";
    } else {
      std::cout << "      SDK " << id->reported_name << " " << id->version << " (from adapter " << id->name
                << ")  schema manifest " << lock_field(*id, "schemaManifestSha256").substr(0, 16)
                << "  source commit " << lock_field(*id, "sourceCommit").substr(0, 12) << "\n";
    }
  }
}

// The schema closure of each root per implementation: the whole table with `verbose`, otherwise one
// line saying whether the implementations share every root's schema documents.
void print_closures(const exec::ImplementationSet& set, bool verbose) {
  auto table = set.skew_table();
  auto names = set.names();
  auto skewed = set.skewed_roots();
  if (!verbose) {
    std::size_t missing = 0;
    for (const auto& [root, row] : table)
      missing += std::any_of(names.begin(), names.end(), [&](const std::string& n) {
        auto it = row.find(n);
        return it == row.end() || it->second.empty();
      });
    std::cout << "schema closure per root: " << table.size() << " roots, "
              << (skewed.empty() ? std::string("the same schema documents on every implementation")
                                 : std::to_string(skewed.size()) + " skewed (reported, never compared):");
    for (const auto& s : skewed) std::cout << " " << s;
    if (missing) std::cout << "; " << missing << " missing on some implementation";
    std::cout << " (--verbose: the table)\n";
    return;
  }
  std::cout << "\nschema closure per root (same hash = same schema documents; '-' = root missing):\n";
  std::cout << std::left << std::setw(30) << "root";
  for (const auto& n : names) std::cout << "  " << std::setw(13) << n;
  std::cout << "\n";
  for (const auto& [root, row] : table) {
    std::cout << std::setw(30) << root;
    for (const auto& n : names) {
      auto it = row.find(n);
      std::string cell = it == row.end() || it->second.empty() ? "-" : it->second;
      std::cout << "  " << std::setw(13) << cell;
    }
    std::cout << "\n";
  }
  std::cout << "\n"
            << skewed.size() << " skewed roots" << (skewed.empty() ? "" : " (reported, never compared):");
  for (const auto& s : skewed) std::cout << " " << s;
  std::cout << "\n";
}

// One line per implementation; `verbose` adds its bundle and layers on lines of their own.
int list_adapters(AdapterOptions options, bool verbose) {
  auto set = options.start(false);  // the listing says why each unavailable adapter is
  std::cout << "implementations:\n";
  for (const auto& id : set->identities()) {
    std::cout << "  " << std::left << std::setw(14) << id.name << " " << id.reported_name << " " << id.version
              << " (" << id.language << (id.language_version.empty() ? "" : " " + id.language_version) << ")"
              << (verbose ? "\n     " : ",") << " schema manifest "
              << lock_field(id, "schemaManifestSha256").substr(0, 16) << "  source commit "
              << lock_field(id, "sourceCommit").substr(0, 12) << "  roots " << id.roots.size();
    if (verbose)
      std::cout << "\n      bundle " << id.schema_bundle.value_or("(none reported)") << "\n      layers "
                << layers_text(id) << "\n";
    else
      std::cout << (id.has_layer(core::kCanonicalLayer) ? "" : "  (no canonical layer)") << "\n";
  }
  for (const auto& f : set->failures()) {
    // "unavailable: why" from an adapter the configuration marks so: said once.
    const std::string why =
        f.message.rfind(kUnavailablePrefix, 0) == 0 ? f.message.substr(kUnavailablePrefix.size()) : f.message;
    std::cout << "  " << std::left << std::setw(14) << f.adapter << " UNAVAILABLE: " << why << "\n";
  }
  print_closures(*set, verbose);
  list_clients(set->identities(), verbose);
  return kExitClean;
}

// Exit 0 when every check of every started adapter passed, 1 when a check failed, 3 when an adapter
// that should run could not start. An unavailable adapter in the default selection (an SDK checkout
// that is not set up here) is reported as skipped; one named with --adapters counts as not started.
int check_adapters(const AdapterOptions& options) {
  std::string config_path = options.config.empty() ? exec::default_adapter_config_path() : options.config;
  auto all = exec::load_adapter_config(config_path, exec::repository_root());
  if (!all.ok()) throw Fatal(all.error());
  std::vector<exec::AdapterConfig> extra;
  for (const auto& a : options.adhoc) {
    auto c = exec::parse_adhoc_adapter(a);
    if (!c.ok()) throw Fatal(c.error());
    extra.push_back(std::move(c).value());
  }
  auto selected = exec::select_adapters(all.value(), options.adapters, extra);
  if (!selected.ok()) throw Fatal(selected.error());
  bool explicit_choice = !options.adapters.empty();
  exec::conformance::Options o;
  o.deadline = std::chrono::milliseconds(static_cast<long long>(options.deadline_s * 1000));
  o.in_flight = options.in_flight;
  std::size_t passed = 0, failed = 0, not_started = 0, skipped = 0;
  for (auto config : selected.value()) {
    if (config.unavailable && config.spec.name == verdict::kReferenceImplementation &&
        config.spec.argv.size() >= 2 && config.spec.argv[1] == "serve-adapter") {
      // This build's serve-adapter when the configured build/crosscheck does not exist.
      std::string self = running_executable();
      if (!self.empty()) {
        std::cout << "note: cpp: " << *config.unavailable << "; checking this executable instead: " << self
                  << "\n";
        config.spec.argv[0] = self;
        config.unavailable.reset();
      }
    }
    if (config.unavailable) {
      bool named = explicit_choice || std::any_of(extra.begin(), extra.end(), [&](const auto& e) {
                     return e.spec.name == config.spec.name;
                   });
      std::cout << "adapter " << config.spec.name << ": " << (named ? "CANNOT START" : "SKIPPED")
                << " (unavailable: " << *config.unavailable << ")\n";
      ++(named ? not_started : skipped);
      continue;
    }
    auto report = exec::conformance::run(config.spec, o);
    std::cout << exec::conformance::format(report) << std::flush;
    if (report.start_error) {
      ++not_started;
    } else {
      ++(report.passed() ? passed : failed);
    }
    if (exec::stop_requested()) break;
  }
  std::cout << "\n"
            << passed << " conformant, " << failed << " with failed checks, " << not_started
            << " could not start, " << skipped << " skipped (unavailable)\n";
  if (not_started) return kExitAdapter;
  return failed ? kExitDivergence : kExitClean;
}

const Registration kAdapters{CommandSpec{
    "adapters", "Start every configured adapter and print its identity, schema and the per-root skew table",
    "  crosscheck adapters\n"
    "  crosscheck adapters --adapters cpp,python,rust\n"
    "  crosscheck adapters --check                      # protocol conformance of every default adapter\n"
    "  crosscheck adapters --check --adapter mine='./my-adapter'\n"
    "--check exits 0 when every check passed, 1 when one failed, 3 when an adapter could not start.",
    [](CLI::App& sub) {
      auto o = std::make_shared<AdapterOptions>();
      auto check = std::make_shared<bool>(false);
      auto verbose = std::make_shared<bool>(false);
      o->add_to(sub);
      sub.add_flag("--check", *check,
                   "Run the protocol conformance suite (handshake, ids, pipelining, error rules, "
                   "shutdown) against each selected adapter");
      sub.add_flag("--verbose", *verbose,
                   "The listing in full: each implementation's bundle and layers, the schema closure of "
                   "every root, each client's command and SDK");
      return [o, check, verbose] { return *check ? check_adapters(*o) : list_adapters(*o, *verbose); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
