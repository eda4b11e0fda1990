// shared.hpp: what the self-test's files share: the names of its adapters, the time goal, and a few
// text helpers.
#pragma once

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "core/divergence.hpp"

namespace crosscheck::selftest {

constexpr double kGoalSeconds = 60;  // the goal: every fault found within 60 s on a 2-core machine
constexpr const char* kFaulty = "faulty";
constexpr const char* kEquivalent = "equivalent";

inline bool involves(const core::Divergence& d, const std::string& impl) {
  return std::find(d.implementations.begin(), d.implementations.end(), impl) != d.implementations.end();
}

inline std::string fmt_seconds(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 10 ? 1 : 0) << s << " s";
  return o.str();
}

inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

}  // namespace crosscheck::selftest
