// thread_priority.cpp: see thread_priority.hpp.
#include "util/thread_priority.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace crosscheck {
namespace {

id_t own_tid() { return static_cast<id_t>(::syscall(SYS_gettid)); }

}  // namespace

void raise_own_nice(int by) {
  errno = 0;
  const int now = ::getpriority(PRIO_PROCESS, own_tid());  // -1 is a nice value too: errno tells
  if (errno == 0) (void)::setpriority(PRIO_PROCESS, own_tid(), std::min(19, now + by));
}

void run_only_when_idle() {
  sched_param param{};
  if (::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &param) != 0)
    (void)::setpriority(PRIO_PROCESS, own_tid(), 19);
}

}  // namespace crosscheck
