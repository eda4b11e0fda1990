// run_folder.cpp: reading a run folder's findings (originals and minimized siblings).
#include "baseline/run_folder.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "json/parse.hpp"

namespace crosscheck::baseline {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMin = ".min.json";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// run.json's "implementations" ("cpp,python,rust"), when the folder has one.
void read_run_json(const fs::path& dir, std::set<std::string>& out) {
  std::ifstream in(dir / "run.json", std::ios::binary);
  if (!in) return;
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = json::parse(ss.str());
  if (!parsed.ok() || !parsed.value().is_object())
    throw Fatal((dir / "run.json").string() + ": not a run configuration (expected a JSON object)");
  const json::Value* impls = parsed.value().find("implementations");
  if (!impls || !impls->is_string()) return;
  std::string_view list = impls->string_value();
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    out.emplace(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
}

findings::Finding load_or_fail(const std::string& path) {
  auto f = findings::FindingStore::load(path);
  if (!f.ok()) throw Fatal(f.error() + " (expected a crosscheck-finding/1 file)");
  return std::move(f.value());
}

}  // namespace

RunFolder load_run_folder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Fatal("run folder " + dir + ": no such folder");
  RunFolder run;
  run.dir = dir;
  fs::path where =
      fs::is_directory(fs::path(dir) / "findings", ec) ? fs::path(dir) / "findings" : fs::path(dir);
  run.findings_dir = where.string();
  read_run_json(dir, run.implementations);
  std::vector<std::string> originals;
  std::set<std::string> minimized;
  for (const auto& e : fs::directory_iterator(where, ec)) {
    std::string name = e.path().filename().string();
    // Finding names (finding_store.hpp); anything else (temporaries, reports) is not a finding.
    bool finding_name =
        name.starts_with("diverge-") || name.starts_with("crash-") || name.starts_with("timeout-");
    if (!e.is_regular_file() || !finding_name || !ends_with(name, ".json")) continue;
    if (ends_with(name, kMin)) {
      minimized.insert(name);
    } else {
      originals.push_back(name);
    }
  }
  if (ec) throw Fatal("run folder " + run.findings_dir + ": cannot be listed: " + ec.message());
  // A minimized file whose original is gone stands for itself.
  for (const auto& m : minimized) {
    std::string original = m.substr(0, m.size() - kMin.size()) + ".json";
    if (!fs::exists(where / original)) originals.push_back(m);
  }
  std::sort(originals.begin(), originals.end());
  for (const auto& name : originals) {
    RunFinding f;
    f.path = (where / name).string();
    f.finding = load_or_fail(f.path);
    std::string min_name = name.substr(0, name.size() - 5) + std::string(kMin);
    if (!ends_with(name, kMin) && minimized.count(min_name)) {
      f.min_path = (where / min_name).string();
      f.minimized = load_or_fail(*f.min_path);
    }
    for (const auto& r : f.finding.results) run.implementations.insert(r.implementation);
    run.findings.push_back(std::move(f));
  }
  return run;
}

std::vector<Occurrence> occurrences(const std::vector<RunFolder>& runs) {
  std::vector<Occurrence> out;
  for (const auto& run : runs) {
    for (const auto& f : run.findings) {
      for (const auto& d : f.finding.divergences) {
        Occurrence o;
        o.root = f.finding.root;
        o.divergence = d;
        o.finding = f.path;
        o.input = f.finding.input;
        o.replay = f.finding.replay;
        o.results = f.finding.results;
        if (f.minimized) {
          for (const auto& md : f.minimized->divergences) {
            if (md.bucket != d.bucket) continue;
            o.finding = *f.min_path;
            o.input = f.minimized->input;
            o.replay = f.minimized->replay;
            o.minimized = true;
            o.results = f.minimized->results;
            break;
          }
        }
        out.push_back(std::move(o));
      }
    }
  }
  return out;
}

}  // namespace crosscheck::baseline
