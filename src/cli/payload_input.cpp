#include "cli/payload_input.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "util/result.hpp"

namespace crosscheck::cli {

std::string read_payload_or_fail(const std::string& file) {
  if (file == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw Fatal("cannot read payload file " + file + ": it is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Fatal("cannot read payload file " + file);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) throw Fatal("cannot read payload file " + file);
  return bytes.str();
}

}  // namespace crosscheck::cli
