#include "util/running_executable.hpp"

#include <unistd.h>

#include <filesystem>
#include <string_view>
#include <system_error>

namespace crosscheck {

std::string running_executable() {
  std::error_code ec;
  std::string path = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return "";
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.size() > kDeleted.size() &&
      path.compare(path.size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0) {
    // The old file lives on as long as this process does, and its /proc link can be executed.
    return "/proc/" + std::to_string(::getpid()) + "/exe";
  }
  return path;
}

}  // namespace crosscheck
