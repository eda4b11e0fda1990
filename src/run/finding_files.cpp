// finding_files.cpp: listing finding files and pairing originals with minimized ones.
#include "run/finding_files.hpp"

#include <algorithm>
#include <set>

#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kMin = ".min.json";

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

bool is_finding_name(const std::string& name) {
  bool kind = name.starts_with("diverge-") || name.starts_with("crash-") || name.starts_with("timeout-");
  return kind && ends_with(name, ".json");
}

bool is_minimized_name(const std::string& name) { return ends_with(name, kMin); }

std::string minimized_path_for(const std::string& finding_path) {
  if (is_minimized_name(finding_path)) return finding_path;
  if (ends_with(finding_path, ".json"))
    return finding_path.substr(0, finding_path.size() - 5) + std::string(kMin);
  return finding_path + std::string(kMin);
}

std::vector<FindingFiles> list_finding_files(const fs::path& dir) {
  std::vector<FindingFiles> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  std::set<std::string> originals, minimized;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (!is_finding_name(name) || !e.is_regular_file(ec)) continue;
    (is_minimized_name(name) ? minimized : originals).insert(name);
  }
  if (ec) throw Fatal(dir.string() + ": cannot be listed: " + ec.message());
  for (const auto& m : minimized) {
    std::string original = m.substr(0, m.size() - kMin.size()) + ".json";
    if (!originals.count(original)) out.push_back({m, (dir / m).string(), std::nullopt, true});
  }
  for (const auto& name : originals) {
    FindingFiles f{name, (dir / name).string(), std::nullopt, false};
    std::string min_name = name.substr(0, name.size() - 5) + std::string(kMin);
    if (minimized.count(min_name)) f.min_path = (dir / min_name).string();
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

fs::path findings_dir_of(const fs::path& run_dir) {
  std::error_code ec;
  fs::path sub = run_dir / kFindingsDir;
  return fs::is_directory(sub, ec) ? sub : run_dir;
}

}  // namespace crosscheck::run
