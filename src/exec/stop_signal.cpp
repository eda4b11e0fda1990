// stop_signal.cpp: stop_requested(), request_stop(), install_stop_handlers(), reset_stop().
#include "exec/stop_signal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>

#include "exec/adapter_pool.hpp"

namespace crosscheck::exec {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_wake_read{-1};
std::atomic<int> g_wake_write{-1};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

void ensure_wake_pipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return;
    g_wake_read = fds[0];
    g_wake_write = fds[1];
  });
}

void wake() {
  int fd = g_wake_write.load();
  if (fd >= 0) {
    char byte = 1;
    [[maybe_unused]] ssize_t n = ::write(fd, &byte, 1);  // a full pipe is already readable: fine
  }
}

extern "C" void on_stop_signal(int sig) {
  if (g_stop.exchange(true)) {
    // Second signal: the user insists, so die the default way without waiting for the pools.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  int saved = errno;
  wake();
  errno = saved;
}

}  // namespace

int stop_wake_fd() {
  ensure_wake_pipe();
  return g_wake_read.load();
}

bool stop_requested() { return g_stop.load(); }

void request_stop() {
  ensure_wake_pipe();
  g_stop = true;
  wake();
}

void reset_stop() {
  ensure_wake_pipe();
  g_stop = false;
  int fd = g_wake_read.load();
  char buf[256];
  while (fd >= 0 && ::read(fd, buf, sizeof buf) > 0) {
  }
}

void install_stop_handlers() {
  ensure_wake_pipe();
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

}  // namespace crosscheck::exec
