// Tests of one adapter process: pipes, line framing, the stderr tail, exit status, group kill.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "exec/adapter_process.hpp"

namespace crosscheck::exec {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<AdapterProcess> spawn_sh(const std::string& script, std::size_t tail = 1000) {
  AdapterSpec spec;
  spec.name = "sh";
  spec.argv = {"sh", "-c", script};
  auto p = AdapterProcess::spawn(spec, tail);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error());
  return p.ok() ? std::move(p).value() : nullptr;
}

// Alive and not a zombie (a killed helper is reparented, and a container's pid 1 may never reap it).
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

// Reads stdout until EOF (bounded by a few seconds), collecting lines.
AdapterProcess::ReadStatus read_all(AdapterProcess& p, std::vector<std::string>& lines,
                                    std::size_t max_line) {
  for (int round = 0; round < 500; ++round) {
    pollfd fds[2] = {{p.stdout_fd(), POLLIN, 0}, {p.stderr_fd(), POLLIN, 0}};
    ::poll(fds, p.stderr_fd() >= 0 ? 2 : 1, 10);
    p.drain_stderr();
    auto status = p.read_lines(lines, max_line);
    if (status != AdapterProcess::ReadStatus::kOk) return status;
  }
  return AdapterProcess::ReadStatus::kOk;
}

TEST(AdapterProcess, LinesStatusAndStderr) {
  auto p = spawn_sh("read x; echo \"got $x\"; printf 'a\\nb\\npartial'; echo oops >&2; exit 7");
  ASSERT_TRUE(p);
  p->enqueue("hello\n");
  ASSERT_TRUE(p->flush());
  std::vector<std::string> lines;
  EXPECT_EQ(read_all(*p, lines, 1000), AdapterProcess::ReadStatus::kEof);
  EXPECT_EQ(lines, (std::vector<std::string>{"got hello", "a", "b"}));
  EXPECT_EQ(p->partial_line(), "partial");
  EXPECT_TRUE(p->wait_exit(2s));
  p->drain_stderr();
  p->kill();
  EXPECT_EQ(p->status_text(), "exited with status 7");
  EXPECT_EQ(p->stderr_tail(), "oops\n");
}

TEST(AdapterProcess, StderrTailIsBounded) {
  auto p = spawn_sh("i=0; while [ $i -lt 2000 ]; do echo line-$i >&2; i=$((i+1)); done; echo end >&2", 100);
  ASSERT_TRUE(p);
  std::vector<std::string> lines;
  read_all(*p, lines, 1000);
  p->wait_exit(2s);
  p->drain_stderr();
  std::string tail = p->stderr_tail();
  EXPECT_EQ(tail.size(), 100u);
  EXPECT_EQ(tail.substr(tail.size() - 14), "line-1999\nend\n");
}

TEST(AdapterProcess, OverlongLineStopsReading) {
  auto p = spawn_sh("printf '{\"id\":5,\"x\":\"'; head -c 100000 /dev/zero | tr '\\0' a; echo '\"}'");
  ASSERT_TRUE(p);
  std::vector<std::string> lines;
  EXPECT_EQ(read_all(*p, lines, 4096), AdapterProcess::ReadStatus::kOverlong);
  EXPECT_EQ(p->overlong_prefix().rfind("{\"id\":5,", 0), 0u);
  EXPECT_TRUE(lines.empty());
}

TEST(AdapterProcess, KillEndsTheWholeGroup) {
  // The shell starts a helper and waits; killing the adapter must take the helper down too, or it
  // would keep the pipes open.
  auto p = spawn_sh("sleep 30 & echo $!; wait");
  ASSERT_TRUE(p);
  std::vector<std::string> lines;
  for (int i = 0; i < 300 && lines.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    p->read_lines(lines, 100);
  }
  ASSERT_EQ(lines.size(), 1u);
  pid_t helper = std::stoi(lines[0]);
  EXPECT_TRUE(running(helper));
  p->kill();
  EXPECT_EQ(p->status_text(), "killed by signal 9 (SIGKILL)");
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    gone = !running(helper);
    if (!gone) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(gone);
}

TEST(AdapterProcess, WriteToAClosedStdinReportsIt) {
  auto p = spawn_sh("exec 0<&-; sleep 1");
  ASSERT_TRUE(p);
  std::this_thread::sleep_for(200ms);
  // Blocked so that a SIGPIPE from the failed write cannot end the test process.
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  p->enqueue("x\n");
  EXPECT_FALSE(p->flush());
  timespec zero{0, 0};
  sigtimedwait(&set, nullptr, &zero);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  EXPECT_EQ(p->stdin_fd(), -1);
}

}  // namespace
}  // namespace crosscheck::exec
