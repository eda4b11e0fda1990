// running_executable.hpp: the path of this process's own executable, for the processes it starts
// from it (serve-adapter, serve-scenarios, the self-test's proxies).
#pragma once

#include <string>

namespace crosscheck {

/// The executable this process runs, as a path that starts the same build: the target of
/// /proc/self/exe, or /proc/<pid>/exe when that file was removed or replaced since this process
/// started (a rebuild during a long run: its path would start the new build, or nothing, and the
/// kernel names the old one "<path> (deleted)"). Empty when neither can be read.
std::string running_executable();

}  // namespace crosscheck
