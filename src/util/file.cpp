// file.cpp: whole-file reads (see file.hpp).
#include "util/file.hpp"

#include <fstream>
#include <sstream>

namespace crosscheck {

std::optional<std::string> read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace crosscheck
