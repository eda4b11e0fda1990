// command_replay.cpp: `crosscheck replay FINDING`, re-run one finding on the configured adapters and
// say whether it still reproduces, in the same bucket.
#include <iostream>
#include <set>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "run/finding_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

int replay(const AdapterOptions& adapters, const std::string& path) {
  auto loaded = run::FindingStore::load(path);
  if (!loaded.ok()) throw Fatal(loaded.error());
  const run::Finding& f = loaded.value();
  auto set = adapters.start();
  // A layer-2 finding is re-run at both layers (its bucket may be a layer-inconsistency).
  auto results = set->run({{f.root, f.input}}, run::finding_layers(f));
  const auto& now = results.front();
  std::set<std::string> before, after;
  for (const auto& d : f.divergences) before.insert(d.bucket);
  for (const auto& d : now.divergences) after.insert(d.bucket);
  ResultTable table(set->names());
  table.add_row(path, now);
  table.print(std::cout);
  for (const auto& d : now.divergences) {
    std::cout << (before.count(d.bucket) ? "  same bucket " : "  NEW bucket  ") << d.bucket << " " << d.layer
              << " " << differential::class_name(d.cls) << ": " << d.detail << "\n";
  }
  std::size_t kept = 0;
  for (const auto& b : before) {
    if (after.count(b)) {
      ++kept;
    } else {
      std::cout << "  gone         " << b << "\n";
    }
  }
  if (kept == before.size() && !before.empty()) {
    std::cout << "REPRODUCES: all " << kept << " bucket(s) of " << path << "\n";
  } else if (kept > 0) {
    std::cout << "PARTLY REPRODUCES: " << kept << " of " << before.size() << " bucket(s)\n";
  } else {
    std::cout << "DOES NOT REPRODUCE: none of the " << before.size() << " bucket(s) of " << path
              << " was seen\n";
  }
  return kept > 0 ? kExitDivergence : kExitClean;
}

const Registration kReplay{CommandSpec{
    "replay", "Re-run one finding and say whether it still reproduces in the same bucket (exit 1 if it does)",
    "  crosscheck replay crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck replay --adapters cpp,python crosscheck-out/diverge-0a1b2c.json",
    [](CLI::App& sub) {
      auto adapters = std::make_shared<AdapterOptions>();
      auto path = std::make_shared<std::string>();
      adapters->add_to(sub);
      sub.add_option("finding", *path, "A finding file written by run or fuzz")->required();
      return [adapters, path] { return replay(*adapters, *path); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
