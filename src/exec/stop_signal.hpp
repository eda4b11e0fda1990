// stop_signal.hpp: the process-wide stop flag behind stop_requested() (adapter_pool.hpp), plus a
// wake-up pipe so that a pool blocked in poll() notices a SIGINT/SIGTERM at once.
//
// The handler only stores an atomic and writes one byte to the pipe (both async-signal-safe). The
// pipe is never drained while the flag is set, so every poller sees it readable until reset_stop().
#pragma once

namespace crosscheck::exec {

/// Read end of the wake-up pipe (non-blocking, close-on-exec), created on first use; -1 if pipe()
/// failed (pollers then fall back to their periodic check of stop_requested()).
int stop_wake_fd();

}  // namespace crosscheck::exec
