// json_numbers.hpp: how the campaign's files spell numbers: counts as integers, times and rates with
// three decimals (a non-finite or negative time is written as 0), so state.json, events.jsonl and
// summary.json agree.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "json/value.hpp"

namespace crosscheck::campaign {

inline std::string seconds_text(double t) {
  if (!std::isfinite(t) || t < 0) t = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", t);
  return buf;
}

inline json::Value json_count(std::uint64_t n) { return json::Value::number(std::to_string(n)); }
inline json::Value json_rate(double x) { return json::Value::number(seconds_text(x)); }

}  // namespace crosscheck::campaign
