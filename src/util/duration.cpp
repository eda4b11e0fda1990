// duration.cpp: see duration.hpp.
#include "util/duration.hpp"

#include <regex>

#include "util/result.hpp"

namespace crosscheck {

double parse_duration(const std::string& option, const std::string& text) {
  static const std::regex form(R"(^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$)");
  std::smatch m;
  double seconds = 0;
  if (!text.empty() && std::regex_match(text, m, form)) {
    if (m[1].matched) seconds += 3600 * std::stod(m[1]);
    if (m[2].matched) seconds += 60 * std::stod(m[2]);
    if (m[3].matched) seconds += std::stod(m[3]);
    if (seconds > 0) return seconds;
  }
  throw Fatal(option + " '" + text + "': expected a positive duration such as 30, 30s, 5m, 1h or 1h30m");
}

}  // namespace crosscheck
