// merge_coverage.cpp: the union of coverage.json files (see merge_coverage.hpp).
#include "campaign/merge_coverage.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {
namespace {

namespace fs = std::filesystem;

/// The sources every list agrees on, in the first list's order.
std::vector<std::string> intersect(const std::vector<const std::vector<std::string>*>& lists) {
  std::vector<std::string> out;
  if (lists.empty()) return out;
  std::vector<std::set<std::string>> others;
  for (std::size_t i = 1; i < lists.size(); ++i) others.emplace_back(lists[i]->begin(), lists[i]->end());
  for (const auto& s : *lists.front()) {
    if (std::all_of(others.begin(), others.end(), [&](const auto& set) { return set.count(s) > 0; }))
      out.push_back(s);
  }
  return out;
}

/// Layer 2: the union of the flags of every file that has it (a run without the canonical layer has
/// none and no say); a node is unreached in the union only when every such file lists it so.
std::optional<run::CanonicalCoverageFile> merge_canonical(
    const std::vector<std::pair<fs::path, const run::CoverageFile*>>& covs) {
  std::optional<run::CanonicalCoverageFile> out;
  const fs::path* first = nullptr;
  std::vector<const std::vector<std::string>*> never_passed, never_failed;
  for (const auto& [path, cov] : covs) {
    if (!cov->canonical) continue;
    const run::CanonicalCoverageFile& c = *cov->canonical;
    if (!out) {
      out.emplace();
      out->figures.tracked = c.figures.tracked;
      first = &path;
    } else if (c.figures.tracked != out->figures.tracked) {
      throw Fatal((path / run::kCoverageFile).string() + ": canonical.tracked is " +
                  std::to_string(c.figures.tracked) + ", " + (*first / run::kCoverageFile).string() +
                  " has " + std::to_string(out->figures.tracked) + " (layer-2 coverage of another schema?)");
    }
    for (const auto& [id, bits] : c.flags) out->flags[id] |= bits;
    never_passed.push_back(&c.never_passed);
    never_failed.push_back(&c.never_failed);
  }
  if (!out) return out;
  for (const auto& [id, bits] : out->flags) {
    out->figures.reached_passed += bits & 1;
    out->figures.reached_failed += (bits >> 1) & 1;
    out->figures.reached_both += bits == 3;
  }
  out->never_passed = intersect(never_passed);
  out->never_failed = intersect(never_failed);
  return out;
}

}  // namespace

run::CoverageFile merge_coverage(const std::vector<std::pair<fs::path, const run::CoverageFile*>>& covs) {
  run::CoverageFile out;
  const std::uint64_t tracked = covs.front().second->figures.tracked;
  // Impossible pairs: what every file that lists them agrees on (the same schema gives the same list;
  // a file of an older version has no list and no say). A pair any run reached is possible.
  std::optional<run::CoverageFlags> impossible;
  for (const auto& [path, cov] : covs) {
    if (cov->figures.tracked != tracked)
      throw Fatal((path / run::kCoverageFile).string() + ": tracks " + std::to_string(cov->figures.tracked) +
                  " nodes, " + (covs.front().first / run::kCoverageFile).string() + " " +
                  std::to_string(tracked) + " (coverage of another schema?)");
    for (const auto& [id, bits] : cov->flags) out.flags[id] |= bits;
    if (!cov->lists_impossible) continue;
    if (!impossible) {
      impossible = cov->impossible_flags;
    } else {
      for (auto& [id, bits] : *impossible) {
        auto it = cov->impossible_flags.find(id);
        bits &= it == cov->impossible_flags.end() ? 0 : it->second;
      }
    }
  }
  run::CoverageFigures& f = out.figures;
  f.tracked = tracked;
  for (const auto& [id, bits] : out.flags) {
    f.reached_accepted += bits & 1;
    f.reached_rejected += (bits >> 1) & 1;
  }
  std::uint64_t impossible_accepted = 0, impossible_rejected = 0;
  if (impossible) {
    for (const auto& [id, bits] : *impossible) {
      auto reached = out.flags.find(id);
      auto left = static_cast<std::uint8_t>(bits & ~(reached == out.flags.end() ? 0 : reached->second));
      if (!left) continue;
      out.impossible_flags[id] = left;
      impossible_accepted += left & 1;
      impossible_rejected += (left >> 1) & 1;
    }
  }
  f.possible_accepted = tracked - impossible_accepted;
  f.possible_rejected = tracked - impossible_rejected;
  f.has_possible = true;
  out.lists_impossible = true;
  // A node is unreached (or impossible) in the union only when every run that lists it so agrees.
  auto lists = [&](std::vector<std::string> run::CoverageFile::*member) {
    std::vector<const std::vector<std::string>*> all;
    for (const auto& [path, cov] : covs) all.push_back(&(cov->*member));
    return intersect(all);
  };
  out.never_accepted = lists(&run::CoverageFile::never_accepted);
  out.never_rejected = lists(&run::CoverageFile::never_rejected);
  out.never_visited = lists(&run::CoverageFile::never_visited);
  out.always_rejected = lists(&run::CoverageFile::always_rejected);
  out.canonical = merge_canonical(covs);
  return out;
}

}  // namespace crosscheck::campaign::merging
