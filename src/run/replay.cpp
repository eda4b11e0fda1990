// replay.cpp: the replay command line.
#include "run/replay.hpp"

#include <algorithm>

namespace crosscheck::run {

std::string shell_quote(std::string_view word) {
  if (word.empty()) return "''";
  bool plain = std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string s = "'";
  for (char c : word) {
    if (c == '\'')
      s += "'\\''";
    else
      s += c;
  }
  return s + "'";
}

std::string replay_command(std::string_view finding_path) {
  // "--" ends the options, so a path that starts with '-' is still the finding.
  std::string_view p = finding_path;
  return "crosscheck replay " + std::string(p.starts_with("-") ? "-- " : "") + shell_quote(p);
}

}  // namespace crosscheck::run
