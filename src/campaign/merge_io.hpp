// merge_io.hpp: the small readers and writers crosscheck merge shares between its files: a file read
// or parsed with a Fatal naming it (corpus entries, finding files and events are copied as they are).
#pragma once

#include <filesystem>
#include <string>

#include "json/value.hpp"

namespace crosscheck::campaign::merging {

/// The bytes of `p`; Fatal (exit 2) naming it when it cannot be read.
std::string read_file(const std::filesystem::path& p);
/// `p` parsed as JSON; Fatal naming it when it cannot be read or is not JSON.
json::Value parse_file(const std::filesystem::path& p);
/// `v` written with `indent`, and a newline.
std::string pretty(const json::Value& v, int indent);

}  // namespace crosscheck::campaign::merging
