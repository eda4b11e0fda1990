// file.hpp: whole-file reads for the places that read a run folder's or a seed's bytes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace crosscheck {

/// The exact bytes of `path`, or nullopt when it cannot be opened (missing, a folder, no permission).
std::optional<std::string> read_file_bytes(const std::filesystem::path& path);

}  // namespace crosscheck
