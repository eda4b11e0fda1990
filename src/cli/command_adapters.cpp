// command_adapters.cpp: `crosscheck adapters`, who each adapter is, which schema it was generated from,
// and which roots the implementations share (the skew table).
#include <iomanip>
#include <iostream>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "json/value.hpp"

namespace crosscheck::cli {
namespace {

std::string lock_field(const differential::Identity& id, const char* field) {
  if (!id.lock || !id.lock->is_object()) return "-";
  const json::Value* v = id.lock->find(field);
  return v && v->is_string() ? v->string_value() : "-";
}

int list_adapters(AdapterOptions options) {
  auto set = options.start();
  std::cout << "implementations:\n";
  for (const auto& id : set->identities()) {
    std::cout << "  " << std::left << std::setw(14) << id.name << " " << id.reported_name << " " << id.version
              << " (" << id.language << (id.language_version.empty() ? "" : " " + id.language_version)
              << ")\n"
              << "      schema manifest " << lock_field(id, "schemaManifestSha256").substr(0, 16)
              << "  source commit " << lock_field(id, "sourceCommit").substr(0, 12) << "  roots "
              << id.roots.size() << "\n"
              << "      bundle " << id.schema_bundle.value_or("(none reported)") << "\n";
  }
  for (const auto& f : set->failures()) {
    std::cout << "  " << std::left << std::setw(14) << f.adapter << " UNAVAILABLE: " << f.message << "\n";
  }
  auto table = set->skew_table();
  auto names = set->names();
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
  auto skewed = set->skewed_roots();
  std::cout << "\n"
            << skewed.size() << " skewed roots" << (skewed.empty() ? "" : " (reported, never compared):");
  for (const auto& s : skewed) std::cout << " " << s;
  std::cout << "\n";
  return kExitClean;
}

const Registration kAdapters{CommandSpec{
    "adapters", "Start every configured adapter and print its identity, schema and the per-root skew table",
    "  crosscheck adapters\n"
    "  crosscheck adapters --adapters cpp,python,rust",
    [](CLI::App& sub) {
      auto o = std::make_shared<AdapterOptions>();
      o->add_to(sub);
      return [o] { return list_adapters(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
