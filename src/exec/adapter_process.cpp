// adapter_process.cpp: spawning with Boost.Process, non-blocking pipe I/O, kill and reap.
#include "exec/adapter_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace crosscheck::exec {
namespace bp = boost::process;
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxReadPerCall = 4 * 1024 * 1024;

// Spawns are serialized: Boost creates its exec-error pipe with pipe() and only then marks it
// close-on-exec; a fork in another thread in between would keep that pipe open in a sibling adapter
// and hang this spawn until the sibling exits.
std::mutex g_spawn_mutex;

std::string errno_text(int error) { return std::strerror(error); }

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string current_dir() {
  std::string buf(4096, '\0');
  if (::getcwd(buf.data(), buf.size()) == nullptr) return ".";
  buf.resize(std::strlen(buf.c_str()));
  return buf;
}

std::string join(const std::string& dir, const std::string& name) {
  if (!name.empty() && name[0] == '/') return name;
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// What execvp would run, as an absolute path, or why nothing: the child changes to `base` before
// exec, so relative names (and relative PATH entries) are resolved against it.
struct Command {
  std::string path, error;
};

Command resolve_command(const AdapterSpec& spec, const std::string& base) {
  const std::string& command = spec.argv.front();
  if (command.empty()) return {"", "empty command"};
  if (command.find('/') != std::string::npos) {
    std::string path = join(base, command);
    errno = 0;
    if (is_executable_file(path)) return {path, ""};
    int error = errno;
    return {"",
            "cannot execute " + command + ": " + (error == 0 ? "not an executable file" : errno_text(error))};
  }
  std::string search;
  if (auto it = spec.env.find("PATH"); it != spec.env.end()) {
    search = it->second;
  } else if (const char* path = std::getenv("PATH")) {
    search = path;
  } else {
    search = "/usr/local/bin:/usr/bin:/bin";
  }
  std::size_t start = 0;
  while (start <= search.size()) {
    std::size_t end = search.find(':', start);
    if (end == std::string::npos) end = search.size();
    std::string dir = search.substr(start, end - start);
    std::string candidate = join(join(base, dir.empty() ? "." : dir), command);
    if (is_executable_file(candidate)) return {candidate, ""};
    start = end + 1;
  }
  return {"", "command not found: " + command};
}

// Moves `fd` to 3 or above: a harness started with 0, 1 or 2 closed must not hand the child a pipe
// that dup2() onto a standard descriptor would leave close-on-exec.
bool lift_fd(int& fd) {
  if (fd > 2) return true;
  int lifted = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  fd = lifted;
  return fd >= 0;
}

bool make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  if (lift_fd(fds[0]) && lift_fd(fds[1])) return true;
  if (fds[0] >= 0) ::close(fds[0]);
  if (fds[1] >= 0) ::close(fds[1]);
  return false;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGHUP:
      return "SIGHUP";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGILL:
      return "SIGILL";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGALRM:
      return "SIGALRM";
    case SIGTERM:
      return "SIGTERM";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    default:
      return "?";
  }
}

}  // namespace

Result<std::unique_ptr<AdapterProcess>, std::string> AdapterProcess::spawn(
    const AdapterSpec& spec, std::size_t stderr_tail_bytes, std::shared_ptr<CpuTally> reaped_cpu) {
  if (spec.argv.empty()) return std::string("empty command");
  std::string base = current_dir();
  if (!spec.cwd.empty()) {
    base = join(base, spec.cwd);
    struct stat st {};
    if (::stat(base.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      return "working directory not found: " + spec.cwd;
    }
  }
  Command exe = resolve_command(spec, base);
  if (!exe.error.empty()) return exe.error;

  std::lock_guard<std::mutex> lock(g_spawn_mutex);
  int in[2], out[2], err[2];
  if (!make_pipe(in)) return "pipe: " + errno_text(errno);
  if (!make_pipe(out)) {
    ::close(in[0]), ::close(in[1]);
    return "pipe: " + errno_text(errno);
  }
  if (!make_pipe(err)) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return "pipe: " + errno_text(errno);
  }
  // The bp::pipe objects own the ends until the child is running; Boost closes the child's ends in
  // the parent, and on failure the destructors close ours.
  bp::pipe child_in(in[0], in[1]), child_out(out[0], out[1]), child_err(err[0], err[1]);
  bp::environment env = boost::this_process::environment();
  for (const auto& [key, value] : spec.env) env[key] = value;
  std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());

  auto process = std::unique_ptr<AdapterProcess>(new AdapterProcess());
  try {
    bp::child child(
        bp::exe = exe.path, bp::args = args, bp::std_in<child_in, bp::std_out> child_out,
        bp::std_err > child_err, bp::start_dir = base, env, bp::extend::on_exec_setup = [](auto&) {
          // Between fork and exec: async-signal-safe calls only.
          ::setpgid(0, 0);
          sigset_t none;
          sigemptyset(&none);
          ::sigprocmask(SIG_SETMASK, &none, nullptr);
          ::signal(SIGPIPE, SIG_DFL);
        });
    process->pid_ = child.id();
    child.detach();  // reaped by this class, not by Boost's destructor
  } catch (const std::exception& e) {
    return "cannot start " + spec.argv.front() + ": " + e.what();
  }
  process->in_ = child_in.native_sink();
  child_in.assign_sink(-1);
  process->out_ = child_out.native_source();
  child_out.assign_source(-1);
  process->err_ = child_err.native_source();
  child_err.assign_source(-1);
  for (int fd : {process->in_, process->out_, process->err_}) set_nonblocking(fd);
  process->tail_cap_ = stderr_tail_bytes;
  process->reaped_cpu_ = std::move(reaped_cpu);
  return process;
}

AdapterProcess::~AdapterProcess() { kill(); }

void AdapterProcess::close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void AdapterProcess::enqueue(std::string_view bytes) {
  if (in_ < 0) return;
  if (write_pos_ == write_buf_.size()) {
    write_buf_.clear();
    write_pos_ = 0;
  }
  write_buf_.append(bytes);
}

bool AdapterProcess::flush() {
  while (in_ >= 0 && write_pos_ < write_buf_.size()) {
    ssize_t n = ::write(in_, write_buf_.data() + write_pos_, write_buf_.size() - write_pos_);
    if (n > 0) {
      write_pos_ += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    close_stdin();  // EPIPE (or worse): the child no longer reads
    return false;
  }
  if (write_pos_ == write_buf_.size()) {
    write_buf_.clear();
    write_pos_ = 0;
  } else if (write_pos_ > (1u << 20) && write_pos_ * 2 > write_buf_.size()) {
    write_buf_.erase(0, write_pos_);
    write_pos_ = 0;
  }
  return true;
}

void AdapterProcess::close_stdin() {
  close_fd(in_);
  write_buf_.clear();
  write_pos_ = 0;
}

AdapterProcess::ReadStatus AdapterProcess::read_lines(std::vector<std::string>& lines, std::size_t max_line) {
  char chunk[kReadChunk];
  std::size_t total = 0;
  bool eof = false;
  while (out_ >= 0 && total < kMaxReadPerCall) {
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      eof = true;
      break;
    }
    total += static_cast<std::size_t>(n);
    read_buf_.append(chunk, static_cast<std::size_t>(n));
    // Split complete lines; scanned_ keeps a long unterminated line from being rescanned per chunk.
    std::size_t start = 0;
    for (std::size_t nl; (nl = read_buf_.find('\n', std::max(start, scanned_))) != std::string::npos;) {
      if (nl - start > max_line) {
        overlong_prefix_ = read_buf_.substr(start, 256);
        return ReadStatus::kOverlong;
      }
      lines.emplace_back(read_buf_, start, nl - start);
      start = nl + 1;
      scanned_ = start;
    }
    read_buf_.erase(0, start);
    scanned_ = read_buf_.size();
    if (read_buf_.size() > max_line) {
      overlong_prefix_ = read_buf_.substr(0, 256);
      return ReadStatus::kOverlong;
    }
    // A short read emptied the pipe: asking again would only return EAGAIN (one syscall per wake-up
    // saved); EOF or more data shows up at the next poll.
    if (static_cast<std::size_t>(n) < sizeof chunk) break;
  }
  if (eof) {
    close_fd(out_);
    return ReadStatus::kEof;
  }
  return ReadStatus::kOk;
}

void AdapterProcess::drain_stderr() {
  char chunk[kReadChunk];
  // Bounded per call, so a child that writes stderr as fast as it is read cannot starve the rest.
  for (std::size_t total = 0; err_ >= 0 && total < kMaxReadPerCall;) {
    ssize_t n = ::read(err_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      close_fd(err_);
      break;
    }
    total += static_cast<std::size_t>(n);
    std::string_view data(chunk, static_cast<std::size_t>(n));
    if (data.size() > tail_cap_) data.remove_prefix(data.size() - tail_cap_);
    tail_.append(data);
    if (tail_.size() > 2 * tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
    if (static_cast<std::size_t>(n) < sizeof chunk) break;  // drained (see read_lines)
  }
}

std::string AdapterProcess::stderr_tail() const {
  return tail_.size() > tail_cap_ ? tail_.substr(tail_.size() - tail_cap_) : tail_;
}

bool AdapterProcess::has_exited() {
  if (reaped_) return true;
  if (pid_ <= 0) return true;
  // WNOWAIT leaves the zombie in place, so the pid (and the group id) stays ours until kill().
  siginfo_t info{};
  int r;
  do {
    r = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
  } while (r < 0 && errno == EINTR);
  return r < 0 || info.si_pid == pid_;
}

bool AdapterProcess::wait_exit(std::chrono::milliseconds grace) {
  auto until = std::chrono::steady_clock::now() + grace;
  while (!has_exited()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

void AdapterProcess::kill() {
  if (pid_ > 0 && !reaped_) {
    // The leader is not reaped yet (alive or a zombie), so neither its pid nor its group id can
    // have been reused: the group kill reaches exactly the adapter and the helpers it started.
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case setpgid failed in the child
    int status = 0;
    struct rusage usage {};
    pid_t r;
    do {
      r = ::wait4(pid_, &status, 0, &usage);
    } while (r < 0 && errno == EINTR);
    reaped_ = true;
    status_ = r == pid_ ? status : -1;
    if (r == pid_ && reaped_cpu_) {
      auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
      reaped_cpu_->fetch_add(seconds(usage.ru_utime) + seconds(usage.ru_stime));
    }
  }
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
  write_buf_.clear();
  write_pos_ = 0;
}

double AdapterProcess::live_cpu_seconds() const {
  if (pid_ <= 0 || reaped_) return 0;
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces and parentheses: the fields after it start after the
  // last ')'. utime, stime, cutime, cstime are fields 14 to 17, so the 12th to 15th after it.
  auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  double ticks = 0;
  for (int k = 3; k <= 17 && fields >> field; ++k)
    if (k >= 14) ticks += std::strtod(field.c_str(), nullptr);
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

std::string AdapterProcess::status_text() const {
  if (!reaped_) return "still running";
  if (status_ == -1) return "exited (status unknown)";
  if (WIFEXITED(status_)) return "exited with status " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) {
    int sig = WTERMSIG(status_);
    return "killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  return "stopped";
}

}  // namespace crosscheck::exec
