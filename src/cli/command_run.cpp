// command_run.cpp: `crosscheck run`, payload files through every implementation, a table of results,
// and every divergence written atomically to the output folder.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "baseline/classify.hpp"
#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/result_table.hpp"
#include "run/finding_file.hpp"
#include "run/replay.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

namespace fs = std::filesystem;

struct RunOptions {
  AdapterOptions adapters;
  std::string root;
  std::string out = "crosscheck-out";
  std::vector<std::string> paths;
  bool strict = false;
  std::string baseline;  ///< --baseline: only divergences no entry covers fail the run
};

std::vector<fs::path> expand_paths(const std::vector<std::string>& paths) {
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> in_dir;
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        if (e.is_regular_file()) in_dir.push_back(e.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      throw Fatal("cannot read payload " + p + ": no such file or folder");
    }
  }
  return files;
}

std::string read_payload(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Fatal("cannot read payload " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run(const RunOptions& o) {
  auto files = expand_paths(o.paths);
  if (files.empty()) throw Fatal("no payload files under " + o.paths.front());
  std::optional<baseline::Baseline> known;
  if (!o.baseline.empty()) known = baseline::load_baseline(o.baseline);  // bad file: exit 2 before any work
  std::vector<baseline::Occurrence> seen;
  auto set = o.adapters.start();
  std::vector<exec::DecodeRequest> batch;
  for (const auto& f : files) {
    std::string root = o.root;
    if (root.empty()) {
      // corpus naming: <root>.<name>.json
      std::string stem = f.filename().string();
      root = stem.substr(0, stem.find('.'));
    }
    batch.push_back({root, read_payload(f)});
  }
  run::FindingStore store(o.out);
  auto results = set->run(batch);
  ResultTable table(set->names());
  std::size_t contract = 0, impl_defined = 0, written = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    table.add_row(files[i].string(), r);
    if (r.divergences.empty()) continue;
    bool all_defined = std::all_of(r.divergences.begin(), r.divergences.end(),
                                   [](const auto& d) { return d.implementation_defined; });
    (all_defined ? impl_defined : contract) += 1;
    run::Finding f = run::finding_of(r);
    f.source = files[i].string();
    f.replay = run::replay_command((fs::path(o.out) / run::finding_file_name(f)).string());
    std::string path = store.write(f);
    ++written;
    for (const auto& d : r.divergences) {
      std::string entries;
      seen.push_back({r.root, d, path, r.input, f.replay, false, r.results});
      if (known) {
        for (const auto& e : known->entries) {
          if (baseline::matches_divergence(e, r.root, d)) entries += (entries.empty() ? "" : ",") + e.id;
        }
      }
      std::cout << (!entries.empty()           ? "KNOWN "
                    : d.implementation_defined ? "IMPL-DEFINED "
                                               : "DIVERGENCE ")
                << core::class_name(d.cls) << " [" << d.bucket << "] " << files[i].string() << ": "
                << d.detail << (entries.empty() ? "" : " (baseline: " + entries + ")")
                << "\n    replay: " << f.replay << "\n";
    }
  }
  table.print(std::cout);
  auto skewed = set->skewed_roots();
  if (!skewed.empty()) {
    std::cout << "skewed roots (implementations generated from different schema documents, not compared): ";
    for (const auto& s : skewed) std::cout << s << " ";
    std::cout << "\n";
  }
  std::cout << files.size() << " payloads, " << contract << " with contract divergences, " << impl_defined
            << " implementation-defined only; " << written << " findings in " << o.out << "\n";
  if (known) {
    auto names = set->names();
    auto c = baseline::classify(*known, seen, {names.begin(), names.end()});
    for (const auto& id : c.stale) std::cout << "stale: baseline entry " << id << ": not seen in this run\n";
    std::cout << "baseline " << o.baseline << ": " << c.new_contract << " new buckets, " << c.new_defined
              << " new implementation-defined, " << c.known << " known\n";
    return c.exit_code(o.strict);
  }
  return baseline::classify(baseline::Baseline{}, seen, {}).exit_code(o.strict);
}

const Registration kRun{CommandSpec{
    "run", "Send payload files to every implementation and report divergences",
    "  crosscheck run corpus/examples\n"
    "  crosscheck run --root intercept_request --adapters cpp,python payload.json\n"
    "  crosscheck run --adapter mine='python3 my_adapter.py' --out out/ payloads/\n"
    "  crosscheck run --baseline tests/data/matrix/known-divergences.json payloads/",
    [](CLI::App& sub) {
      auto o = std::make_shared<RunOptions>();
      o->adapters.add_to(sub);
      sub.add_option("--root", o->root,
                     "Root for every payload (default: the file name up to the first '.')");
      sub.add_option("--out", o->out, "Output folder for findings")->capture_default_str();
      sub.add_flag("--strict", o->strict, "Count divergences on implementation-defined inputs too");
      sub.add_option("--baseline", o->baseline,
                     "Known-divergence baseline (docs/baseline.md): only divergences it does not cover fail");
      sub.add_option("paths", o->paths, "Payload files or folders")->required();
      return [o] { return run(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
