// replay.hpp: the one command line that replays a finding file, printed in reports and stored in
// the finding itself.
#pragma once

#include <string>
#include <string_view>

namespace crosscheck::run {

/// "crosscheck replay <path>", the path quoted so that a POSIX shell reads it back exactly, whatever
/// bytes it holds (spaces, quotes, $, newlines, a leading dash).
std::string replay_command(std::string_view finding_path);

/// A word a POSIX shell reads back as `word` (single-quoted when it needs quoting).
std::string shell_quote(std::string_view word);

}  // namespace crosscheck::run
