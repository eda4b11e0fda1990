// known_cases.cpp: known failures of case-based runs.
#include "baseline/known_cases.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "util/result.hpp"

namespace crosscheck::baseline {
namespace {

bool is_glob(const std::string& pattern) { return pattern.find('*') != std::string::npos; }

}  // namespace

std::vector<Entry> load_known_cases(const std::string& path) {
  std::vector<Entry> out;
  if (path.empty()) return out;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Fatal("cannot read known-failure list " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = json::parse(ss.str());
  if (!parsed.ok()) throw Fatal(path + ": not JSON: " + parsed.error().message());
  if (parsed.value().is_object() && parsed.value().find("format")) {
    auto b = parse_baseline(ss.str(), path);
    if (!b.ok()) throw Fatal(b.error());
    for (auto& e : b->entries) {
      if (!e.cases.empty()) out.push_back(std::move(e));
    }
    return out;
  }
  const json::Value* known = parsed.value().is_object() ? parsed.value().find("known") : nullptr;
  if (!known || !known->is_object())
    throw Fatal(path +
                ": expected a baseline {\"format\": \"crosscheck-baseline/1\", ...} or the older "
                "{\"known\": {implementation: {case id: reason}}}");
  for (const auto& impl : known->members()) {
    if (!impl.value.is_object())
      throw Fatal(path + ": field 'known." + impl.key + "': expected {case id: reason}");
    for (const auto& c : impl.value.members()) {
      if (!c.value.is_string() || c.value.string_value().empty()) {
        throw Fatal(path + ": field 'known." + impl.key + "." + c.key + "': expected the reason as a string");
      }
      Entry e;
      e.id = impl.key + ":" + c.key;
      e.implementations = {impl.key};
      e.cases = {c.key};
      e.reason = c.value.string_value();
      out.push_back(std::move(e));
    }
  }
  return out;
}

CaseCell KnownCases::judge(const std::string& implementation, const std::string& case_id, bool failed) {
  CaseCell cell;
  bool promised = false;
  for (const auto& e : entries_) {
    if (!matches_case(e, implementation, case_id)) continue;
    cell.entries += (cell.entries.empty() ? "" : ", ") + e.id;
    for (const auto& p : e.cases) {
      if (!is_glob(p) && p == case_id) promised = true;
      if (failed && is_glob(p) && glob_match(p, case_id)) used_globs_.insert(e.id + "\n" + p);
    }
  }
  bool is_known = !cell.entries.empty() && (failed || promised);
  if (is_known && !failed) {
    cell.state = CaseState::kStale;
  } else if (is_known) {
    cell.state = CaseState::kKnown;
  } else {
    cell.state = failed ? CaseState::kFail : CaseState::kPass;
  }
  return cell;
}

std::vector<std::string> KnownCases::stale_patterns(const std::vector<std::string>& implementations,
                                                    const std::set<std::string>& case_ids,
                                                    std::vector<std::string>& unknown_ids) const {
  std::vector<std::string> out;
  for (const auto& e : entries_) {
    bool runs_here = std::any_of(implementations.begin(), implementations.end(),
                                 [&](const std::string& n) { return names_implementation(e, n); });
    for (const auto& p : e.cases) {
      if (is_glob(p) && runs_here && !used_globs_.count(e.id + "\n" + p)) {
        out.push_back("known-failure entry " + e.id + ": pattern " + p +
                      " covers no failing case; remove it or narrow it");
      } else if (!is_glob(p) && !case_ids.count(p)) {
        unknown_ids.push_back("known-failure entry " + e.id + " names case " + p);
      }
    }
  }
  return out;
}

}  // namespace crosscheck::baseline
