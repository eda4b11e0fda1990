// bench_support.hpp: what every benchmark prints or needs about its machine and its own location.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace crosscheck::bench {

/// The load average as a line to print beside the figures (they mean little on a busy machine).
inline std::string load_average() {
  double load[3] = {0, 0, 0};
  if (::getloadavg(load, 3) != 3) return "unknown";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f (1/5/15 min; %ld cores)", load[0], load[1], load[2],
                ::sysconf(_SC_NPROCESSORS_ONLN));
  return buf;
}

/// The folder of the running benchmark binary (the crosscheck executable sits beside it).
inline std::string self_dir() {
  std::string buf(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return ".";
  buf.resize(static_cast<std::size_t>(n));
  return std::filesystem::path(buf).parent_path().string();
}

}  // namespace crosscheck::bench
