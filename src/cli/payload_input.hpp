// payload_input.hpp: the FILE|- argument of the one-payload commands (decode, validate).
#pragma once

#include <string>

namespace crosscheck::cli {

/// The bytes of `file`, or of standard input for "-". Throws Fatal (exit 2) naming the file when it
/// is a directory or cannot be read.
std::string read_payload_or_fail(const std::string& file);

}  // namespace crosscheck::cli
