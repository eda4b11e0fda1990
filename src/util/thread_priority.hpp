// thread_priority.hpp: the calling thread gives way to other work on the machine.
//
// Linux keeps the nice value and the scheduling policy per thread, a process inherits them from the
// thread that starts it, and an unprivileged process cannot raise its priority back: call these only
// on a thread that starts no process. Each is best effort: on failure the thread runs as before.
#pragma once

namespace crosscheck {

/// Raises the calling thread's nice value by `by` (at most to 19): a run started under `nice` keeps
/// its offset.
void raise_own_nice(int by);

/// The calling thread runs only when a core is otherwise idle (SCHED_IDLE), or failing that at the
/// lowest nice level.
void run_only_when_idle();

}  // namespace crosscheck
