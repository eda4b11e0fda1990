// merge_coverage.cpp: the union of coverage.json files (see merge_coverage.hpp).
#include "campaign/merge_coverage.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "campaign/merge_io.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign::merging {
namespace {

namespace fs = std::filesystem;

/// A coverage.json list of [node id, outcome bits] pairs (bit 0 accepted, bit 1 rejected), OR-ed per id.
std::map<std::uint64_t, std::uint64_t> read_flag_pairs(const json::Value& list) {
  std::map<std::uint64_t, std::uint64_t> out;
  for (const auto& pair : list.items())
    out[number_or_zero(&pair.items()[0])] |= number_or_zero(&pair.items()[1]) & 3;
  return out;
}

/// The same list written back; adds each outcome's count of nodes.
json::Value write_flag_pairs(const std::map<std::uint64_t, std::uint64_t>& flags, std::uint64_t& accepted,
                             std::uint64_t& rejected) {
  json::Value list = json::Value::array();
  for (const auto& [id, bits] : flags) {
    accepted += bits & 1;
    rejected += (bits >> 1) & 1;
    json::Value pair = json::Value::array();
    pair.push(number(id));
    pair.push(number(bits));
    list.push(std::move(pair));
  }
  return list;
}

}  // namespace

json::Value merge_coverage(const std::vector<std::pair<fs::path, const json::Value*>>& covs) {
  std::map<std::uint64_t, std::uint64_t> flags;
  std::uint64_t tracked = number_or_zero(covs.front().second->find("tracked"));
  // Impossible pairs: what every file that lists them agrees on (the same schema gives the same list;
  // a file of an older version has no list and no say). A pair any run reached is possible.
  std::optional<std::map<std::uint64_t, std::uint64_t>> impossible;
  for (const auto& [path, cov] : covs) {
    if (number_or_zero(cov->find("tracked")) != tracked)
      throw Fatal((path / "coverage.json").string() + ": tracks " +
                  std::to_string(number_or_zero(cov->find("tracked"))) + " nodes, " +
                  (covs.front().first / "coverage.json").string() + " " + std::to_string(tracked) +
                  " (coverage of another schema?)");
    for (const auto& [id, bits] : read_flag_pairs(*cov->find("flags"))) flags[id] |= bits;
    if (const json::Value* list = cov->find("impossibleFlags")) {
      auto these = read_flag_pairs(*list);
      if (!impossible) {
        impossible = std::move(these);
      } else {
        for (auto& [id, bits] : *impossible) bits &= these.count(id) ? these[id] : 0;
      }
    }
  }
  std::uint64_t accepted = 0, rejected = 0;
  json::Value flag_list = write_flag_pairs(flags, accepted, rejected);
  std::uint64_t impossible_accepted = 0, impossible_rejected = 0;
  if (impossible) {  // a pair some run reached is possible after all
    for (auto it = impossible->begin(); it != impossible->end();) {
      it->second &= ~(flags.count(it->first) ? flags[it->first] : 0);
      it = it->second ? std::next(it) : impossible->erase(it);
    }
  }
  json::Value impossible_list = impossible
                                    ? write_flag_pairs(*impossible, impossible_accepted, impossible_rejected)
                                    : json::Value::array();
  // A node is unreached (or impossible) in the union only when every run that lists it so agrees.
  auto intersect = [&](const char* group, const char* key) {
    std::vector<std::string> first;
    std::vector<std::set<std::string>> others;
    bool have_first = false;
    for (const auto& [path, cov] : covs) {
      const json::Value* un = cov->find(group);
      const json::Value* list = un && un->is_object() ? un->find(key) : nullptr;
      if (!list || !list->is_array()) continue;
      std::vector<std::string> items;
      for (const auto& v : list->items())
        if (v.is_string()) items.push_back(v.string_value());
      if (!have_first) {
        first = std::move(items);
        have_first = true;
      } else {
        others.emplace_back(items.begin(), items.end());
      }
    }
    json::Value out = json::Value::array();
    for (const auto& s : first) {
      if (std::all_of(others.begin(), others.end(), [&](const auto& set) { return set.count(s) > 0; }))
        out.push(json::Value::string(s));
    }
    return out;
  };
  const std::uint64_t possible_accepted = tracked - impossible_accepted,
                      possible_rejected = tracked - impossible_rejected;
  auto percent_of = [&](std::uint64_t pairs) {
    return pairs == 0 ? 100.0 : 100.0 * static_cast<double>(accepted + rejected) / static_cast<double>(pairs);
  };
  json::Value o = json::Value::object();
  o.add("tracked", number(tracked));
  o.add("reachedAccepted", number(accepted));
  o.add("reachedRejected", number(rejected));
  o.add("possibleAccepted", number(possible_accepted));
  o.add("possibleRejected", number(possible_rejected));
  o.add("percent", json::Value::number(std::to_string(percent_of(possible_accepted + possible_rejected))));
  o.add("percentAll", json::Value::number(std::to_string(percent_of(2 * tracked))));
  o.add("flags", std::move(flag_list));
  o.add("impossibleFlags", std::move(impossible_list));
  json::Value unreached = json::Value::object();
  unreached.add("neverAccepted", intersect("unreached", "neverAccepted"));
  unreached.add("neverRejected", intersect("unreached", "neverRejected"));
  o.add("unreached", std::move(unreached));
  json::Value cannot = json::Value::object();
  cannot.add("neverVisited", intersect("impossible", "neverVisited"));
  cannot.add("alwaysRejected", intersect("impossible", "alwaysRejected"));
  o.add("impossible", std::move(cannot));
  return o;
}

}  // namespace crosscheck::campaign::merging
