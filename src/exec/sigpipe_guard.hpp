// sigpipe_guard.hpp: keeps SIGPIPE from ending the harness while it writes to adapter children.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace crosscheck::exec {

// Blocks SIGPIPE in this thread while the pool writes to children, then discards one that a write
// to a dead child raised: EPIPE is handled, and the harness must not die of it (tests and library
// users do not all ignore SIGPIPE the way main() does).
class SigpipeGuard {
 public:
  SigpipeGuard() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SigpipeGuard() {
    if (!sigismember(&old_, SIGPIPE)) {
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, SIGPIPE);
      timespec zero{0, 0};
      while (::sigtimedwait(&set, nullptr, &zero) > 0) {
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  sigset_t old_;
};

}  // namespace crosscheck::exec
