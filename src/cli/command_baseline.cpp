// command_baseline.cpp: `crosscheck baseline check|update`, a run's findings against the
// known-divergence baseline (src/baseline, docs/baseline.md).
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "baseline/classify.hpp"
#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/verdict_file.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct BaselineOptions {
  AdapterOptions adapters;  ///< for --replay
  std::string baseline;
  std::string json_out;
  std::vector<std::string> runs;
  bool strict = false, verbose = false, replay = false, fail_stale = false;
};

std::vector<baseline::RunFolder> load_runs(const std::vector<std::string>& dirs,
                                           std::set<std::string>& impls) {
  std::vector<baseline::RunFolder> runs;
  for (const auto& d : dirs) {
    runs.push_back(baseline::load_run_folder(d));
    impls.insert(runs.back().implementations.begin(), runs.back().implementations.end());
  }
  return runs;
}

/// Re-runs the stored witness of each stale entry: id -> "reproduces", "gone" or "no-witness".
std::map<std::string, std::string> replay_stale(const BaselineOptions& o, const baseline::Baseline& b,
                                                const baseline::Classification& c) {
  std::map<std::string, std::string> verdict;
  std::vector<const baseline::Entry*> entries;
  std::vector<exec::DecodeRequest> batch;
  for (const auto& id : c.stale) {
    for (const auto& e : b.entries) {
      if (e.id != id) continue;
      if (e.witness && e.witness->input) {
        entries.push_back(&e);
        batch.push_back({e.witness->root, *e.witness->input});
      } else {
        verdict[id] = "no-witness";
      }
    }
  }
  if (batch.empty()) return verdict;
  auto set = o.adapters.start();
  auto results = set->run(batch);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    bool again = false;
    for (const auto& d : results[i].divergences)
      again = again || baseline::matches_divergence(*entries[i], results[i].root, d);
    verdict[entries[i]->id] = again ? "reproduces" : "gone";
  }
  return verdict;
}

int check(const BaselineOptions& o) {
  auto b = baseline::load_baseline(o.baseline);
  std::set<std::string> impls;
  auto runs = load_runs(o.runs, impls);
  auto c = baseline::classify(b, baseline::occurrences(runs), impls);
  baseline::print_classification(std::cout, b, c, o.strict, o.verbose);
  std::map<std::string, std::string> replayed;
  if (o.replay) replayed = replay_stale(o, b, c);
  std::size_t failing_stale = 0;
  for (const auto& id : c.stale) {
    auto it = replayed.find(id);
    if (it != replayed.end() && it->second == "reproduces") {
      std::cout << "replay: entry " << id
                << ": its witness still diverges in a matching bucket (this run did not reach it)\n";
    } else if (it != replayed.end() && it->second == "gone") {
      ++failing_stale;
      std::cout << "replay: entry " << id
                << ": its witness no longer diverges that way; the fault may be fixed, "
                << "remove the entry\n";
    } else {
      ++failing_stale;
      if (o.replay) std::cout << "replay: entry " << id << ": no witness stored\n";
    }
  }
  verdict::Verdict v = c.verdict(o.strict, b.path);
  if (o.fail_stale) v.failing_stale = failing_stale;
  const int code = v.exit_code();
  if (!o.json_out.empty()) {
    json::Value out = baseline::classification_to_json(b, o.runs, c, o.strict);
    json::Value r = json::Value::object();
    for (const auto& [id, v] : replayed) r.add(id, json::Value::string(v));
    out.add("replay", std::move(r));
    *out.find("exitCode") = json::Value::number(std::to_string(code));
    *out.find("verdict") = verdict::to_json(v);
    json::WriteOptions pretty;
    pretty.indent = 2;
    run::write_file_atomically(o.json_out, json::write(out, pretty) + "\n");
    // The check recorded beside one run is that run's verdict (the CI scripts read it from there).
    if (o.runs.size() == 1) run::write_verdict(o.runs.front(), v, "baseline check");
  }
  if (c.new_contract || (o.strict && c.new_defined)) {
    std::cout << "to add the new buckets for triage: crosscheck baseline update --baseline " << o.baseline
              << (o.strict ? " --strict" : "");
    for (const auto& r : o.runs) std::cout << " " << r;
    std::cout << "\n";
  }
  return code;
}

int update(const BaselineOptions& o) {
  std::error_code ec;
  baseline::Baseline b;
  if (std::filesystem::exists(o.baseline, ec)) {
    b = baseline::load_baseline(o.baseline);
  } else {
    b.path = o.baseline;
  }
  std::set<std::string> impls;
  auto runs = load_runs(o.runs, impls);
  auto c = baseline::classify(b, baseline::occurrences(runs), impls);
  auto added = baseline::entries_for_new(b, c, o.strict);
  std::string text = baseline::append_entries(b.text, added);
  // The new file must read back as a baseline with every old entry and the new ones.
  auto check_back = baseline::parse_baseline(text, o.baseline);
  if (!check_back.ok() || check_back->entries.size() != b.entries.size() + added.size())
    throw Fatal("internal error: the updated baseline does not read back (" +
                (check_back.ok() ? std::string("entry count") : check_back.error()) + "); nothing written");
  if (!added.empty() || b.text.empty()) run::write_file_atomically(o.baseline, text);
  for (const auto& e : added) std::cout << "added " << e.id << ": " << *e.bucket << "\n";
  std::cout << o.baseline << ": " << added.size() << " entries added (reason \"TODO: triage\"), "
            << b.entries.size() << " kept as they were\n";
  return kExitClean;
}

const Registration kBaseline{CommandSpec{
    "baseline", "Known-divergence baselines: sort a run's findings into new, known and stale; add new ones",
    "  crosscheck baseline check --baseline known.json crosscheck-out/\n"
    "  crosscheck baseline check --baseline known.json --json check.json shard1/ shard2/\n"
    "  crosscheck baseline check --baseline known.json --replay --adapters cpp,python,rust nightly/\n"
    "  crosscheck baseline update --baseline known.json nightly/\n"
    "Exit status (check): 0 no new contract divergence, 1 new ones (or stale with --fail-stale), 2 bad "
    "input.",
    [](CLI::App& sub) {
      sub.require_subcommand(1);
      auto o = std::make_shared<BaselineOptions>();
      CLI::App* chk = sub.add_subcommand("check", "Sort the runs' buckets into new, known and stale");
      CLI::App* upd = sub.add_subcommand("update", "Append an entry per new bucket, reason \"TODO: triage\"");
      for (CLI::App* app : {chk, upd}) {
        app->add_option("--baseline", o->baseline, "Baseline file (crosscheck-baseline/1)")->required();
        app->add_flag("--strict", o->strict, "New implementation-defined buckets count as new too");
        app->add_option("runs", o->runs, "Run folders (fuzz or run --out)")->required();
      }
      chk->add_option("--json", o->json_out, "Also write the result as JSON to this file");
      chk->add_flag("--verbose", o->verbose, "List every known bucket");
      chk->add_flag("--replay", o->replay, "Re-run the stored witness of each stale entry on the adapters");
      chk->add_flag("--fail-stale", o->fail_stale,
                    "Exit 1 when an entry is stale (with --replay: when its witness no longer diverges)");
      o->adapters.add_to(*chk);
      return [o, chk] { return chk->parsed() ? check(*o) : update(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
