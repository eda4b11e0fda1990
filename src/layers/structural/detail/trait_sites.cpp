// trait_sites.cpp: which of an input's traits decide a divergence (trait_sites.hpp).
#include "layers/structural/detail/trait_sites.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace crosscheck::layers::structural {
namespace {

/// `a` is `b` or one of its ancestors (JSON Pointers; "" is the root).
bool ancestor_or_self(std::string_view a, std::string_view b) {
  return b.size() >= a.size() && b.compare(0, a.size(), a) == 0 &&
         (b.size() == a.size() || b[a.size()] == '/');
}

bool near(std::string_view a, std::string_view b) { return ancestor_or_self(a, b) || ancestor_or_self(b, a); }

}  // namespace

TraitSites::TraitSites(const InputTraits& traits, const std::vector<core::ImplResult>& results)
    : traits_(traits) {
  // A big or huge number that an implementation's error points at sits in a typed slot: there the
  // contract (integers within +-(2^53-1)) decides, so it does not make the input free.
  std::set<std::string_view> error_paths;
  for (const auto& r : results) {
    for (const auto& d : r.diagnostics) {
      if (d.severity == "error") error_paths.insert(d.path);
    }
  }
  for (const auto& p : traits.big_number_paths) {
    if (error_paths.count(p)) typed_.insert(p);
  }
}

Decided TraitSites::at(const std::vector<std::string>* paths) const {
  constexpr std::size_t kFar = static_cast<std::size_t>(-1);
  auto distance = [&](std::string_view site) {
    if (!paths) return std::size_t{0};
    std::size_t best = kFar;
    for (const auto& p : *paths) {
      if (!near(site, p)) continue;
      const auto levels = [](std::string_view x) { return std::count(x.begin(), x.end(), '/'); };
      best = std::min(best, static_cast<std::size_t>(std::abs(levels(site) - levels(p))));
    }
    return best;
  };
  std::map<std::size_t, std::set<std::string>> by_distance;             // the nearest come first
  if (traits_.not_json) by_distance[0] = {"not-json", "invalid-utf8"};  // the whole text, no place
  for (const auto& s : traits_.sites) {
    const bool number = s.trait == "big-integer" || s.trait == "huge-exponent";
    by_distance[distance(s.path)].insert(number && typed_.count(s.path) ? std::string(kTypedSlot) : s.trait);
  }
  by_distance.erase(kFar);
  Decided d;
  if (by_distance.empty()) return d;
  const std::set<std::string>& nearest = by_distance.begin()->second;
  for (const auto& name : traits_.names()) {
    if (nearest.count(name)) d.traits.push_back(name);
  }
  d.typed_big_number = nearest.count(std::string(kTypedSlot)) > 0;
  return d;
}

Decided TraitSites::parse_level() const {
  Decided d;
  if (traits_.not_json) {
    d.traits = traits_.names();  // not-json, and invalid-utf8 when that is why
    return d;
  }
  const std::pair<bool, const char*> order[] = {
      {traits_.deep_nesting, "deep-nesting"},   {traits_.lone_surrogate, "lone-surrogate"},
      {traits_.long_number, "long-number"},     {traits_.huge_exponent, "huge-exponent"},
      {traits_.big_integer, "big-integer"},     {traits_.duplicate_keys, "duplicate-keys"},
      {traits_.negative_zero, "negative-zero"},
  };
  for (const auto& [present, name] : order) {
    if (present) {
      d.traits.push_back(name);
      break;
    }
  }
  return d;
}

}  // namespace crosscheck::layers::structural
