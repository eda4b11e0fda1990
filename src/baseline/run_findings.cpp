// run_findings.cpp: reading a run folder's findings (originals and minimized siblings).
#include "baseline/run_findings.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "run/finding_files.hpp"
#include "run/run_file.hpp"

namespace crosscheck::baseline {
namespace fs = std::filesystem;

namespace {

run::Finding load_or_fail(const std::string& path) {
  auto f = run::FindingStore::load(path);
  if (!f.ok()) throw Fatal(f.error());
  return std::move(f.value());
}

}  // namespace

RunFolder load_run_folder(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Fatal("run folder " + dir + ": no such folder");
  RunFolder folder;
  folder.dir = dir;
  fs::path where = run::findings_dir_of(dir);
  folder.findings_dir = where.string();
  if (auto config = run::read_run_config(dir)) folder.implementations = config->implementation_names();
  for (const auto& listed : run::list_finding_files(where)) {
    RunFinding f;
    f.path = listed.path;
    f.finding = load_or_fail(f.path);
    if (listed.min_path) {
      f.min_path = *listed.min_path;
      f.minimized = load_or_fail(*f.min_path);
    }
    for (const auto& r : f.finding.results) folder.implementations.insert(r.implementation);
    folder.findings.push_back(std::move(f));
  }
  return folder;
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
