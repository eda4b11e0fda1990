// config_command.cpp: variable expansion and program lookup for configured commands.
#include "util/config_command.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace crosscheck {

std::string expand_config_text(const std::string& text, const std::string& root_dir,
                               std::vector<std::string>* missing) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      std::size_t end = text.find('}', i);
      if (end != std::string::npos) {
        std::string var = text.substr(i + 2, end - i - 2);
        if (var == "ROOT") {
          out += root_dir;
        } else if (const char* v = std::getenv(var.c_str()); v && *v) {
          out += v;
        } else if (missing) {
          missing->push_back(var);
        }
        i = end;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

bool program_exists(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string first_unset_variable(const std::vector<std::string>& variables) {
  for (const auto& var : variables) {
    const char* v = std::getenv(var.c_str());
    if (!v || !*v) return var;
  }
  return "";
}

}  // namespace crosscheck
