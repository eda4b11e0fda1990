// differential_sender.cpp: the sender process of fuzz_differential and the fuzzing process's end of
// its pipe (see differential_sender.hpp for the why). Built without coverage instrumentation.
//
// Pipe format, one frame per input: "<root> <length>\n" followed by exactly <length> payload bytes.
#include "fuzz/differential_sender.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/divergence.hpp"
#include "exec/adapter_config.hpp"
#include "exec/implementation_set.hpp"
#include "run/finding_file.hpp"
#include "schema/loader.hpp"
#include "util/result.hpp"

extern char** environ;

namespace crosscheck::fuzz {
namespace {

constexpr const char* kRoleVariable = "CROSSCHECK_DIFFERENTIAL_ROLE";
constexpr std::size_t kMaxPerBucket = 3;  // finding files per bucket, as crosscheck fuzz keeps
using Clock = std::chrono::steady_clock;

std::size_t env_size(const char* name, std::size_t fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(value, &end, 10);
  if (*end != '\0' || n == 0) {
    std::fprintf(stderr, "ERROR: %s=%s: expected a positive integer\n", name, value);
    std::exit(2);
  }
  return static_cast<std::size_t>(n);
}

std::string env_string(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    if (comma > at) out.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// The sender's state: implementations, findings, counters.
class Sender {
 public:
  int run() {
    // stdout is the start-up status pipe: one line, READY or the error.
    auto fail = [](const std::string& message, int code) {
      write_all(1, "ERROR " + message + "\n");
      return code;
    };
    const auto schema_path = schema::default_schema_path();
    if (!schema_path) return fail("no schema: set CROSSCHECK_SCHEMA or run ./setup install", 2);
    auto loaded = schema::load_schema(*schema_path);
    if (!loaded.ok()) return fail(loaded.error().message(), 2);
    ir_ = std::make_shared<const schema::Ir>(std::move(loaded).value());

    batch_size_ = env_size("CROSSCHECK_DIFF_BATCH", 128);  // a bad value ends the start-up (exit 2)
    const std::string config_path = exec::default_adapter_config_path();
    auto all = exec::load_adapter_config(config_path, exec::repository_root());
    if (!all.ok()) return fail(all.error(), 2);
    const std::vector<std::string> names = split_names(env_string("CROSSCHECK_ADAPTERS", ""));
    std::vector<exec::AdapterConfig> adhoc;
    if (const char* text = std::getenv("CROSSCHECK_ADAPTER"); text && *text) {
      auto parsed = exec::parse_adhoc_adapter(text);
      if (!parsed.ok()) return fail("CROSSCHECK_ADAPTER: " + parsed.error(), 2);
      adhoc.push_back(std::move(parsed).value());
    }
    auto selected = exec::select_adapters(all.value(), names, adhoc);
    if (!selected.ok()) return fail("CROSSCHECK_ADAPTERS: " + selected.error(), 2);
    impls_ = std::make_unique<exec::ImplementationSet>(ir_, selected.value(), exec::PoolOptions{});
    // An adapter asked for by name (or ad hoc) must start; a default one that is unavailable here
    // (Go and TypeScript without their SDK checkouts) is only reported.
    for (const auto& f : impls_->failures()) {
      const bool asked = !names.empty() || f.adapter == (adhoc.empty() ? "" : adhoc.front().spec.name);
      if (asked) return fail("adapter " + f.adapter + ": " + f.message, 3);
      std::fprintf(stderr, "fuzz_differential: adapter %s left out: %s\n", f.adapter.c_str(),
                   f.message.c_str());
    }
    const auto started = impls_->names();
    if (std::none_of(started.begin(), started.end(),
                     [](const std::string& n) { return n.rfind("cpp", 0) != 0; }))
      return fail("no adapter started (" + config_path + "): nothing to compare the C++ decoder with", 3);
    try {
      store_ =
          std::make_unique<run::FindingStore>(env_string("CROSSCHECK_FINDINGS_DIR", "differential-findings"));
    } catch (const Fatal& e) {
      return fail(e.what(), 2);
    }
    for (const auto& n : started) implementations_ += (implementations_.empty() ? "" : ",") + n;
    write_all(1, "READY " + implementations_ + " " + store_->dir() + "\n");
    ::dup2(2, 1);  // from now on stdout is stderr: the status pipe is done
    loop();
    std::fprintf(
        stderr,
        "fuzz_differential sender: %llu inputs received, decoded by %s in %llu batches; %llu divergent "
        "(%llu contract, %llu implementation-defined only), %zu buckets, %llu finding files in %s\n",
        static_cast<unsigned long long>(received_), implementations_.c_str(),
        static_cast<unsigned long long>(batches_), static_cast<unsigned long long>(divergent_),
        static_cast<unsigned long long>(contract_), static_cast<unsigned long long>(divergent_ - contract_),
        buckets_.size(), static_cast<unsigned long long>(written_), store_->dir().c_str());
    impls_.reset();  // shuts the adapters down
    return 0;
  }

 private:
  /// Reads frames until EOF; a batch goes out when it is full, or when no input came for 200 ms.
  void loop() {
    std::string in;
    std::vector<exec::DecodeRequest> batch;
    bool eof = false;
    char chunk[65536];
    while (!eof || !batch.empty()) {
      bool idle = false;
      if (!eof) {
        pollfd p{0, POLLIN, 0};
        const int ready = ::poll(&p, 1, batch.empty() ? -1 : 200);
        if (ready < 0 && errno == EINTR) continue;
        idle = ready == 0;
        if (ready > 0) {
          const ssize_t n = ::read(0, chunk, sizeof chunk);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) {
            eof = true;
          } else {
            in.append(chunk, static_cast<std::size_t>(n));
            parse_frames(in, batch);
          }
        }
      }
      if (!batch.empty() && (batch.size() >= batch_size_ || idle || eof)) {
        run_batch(batch);
        batch.clear();
      }
    }
  }

  void parse_frames(std::string& in, std::vector<exec::DecodeRequest>& batch) {
    std::size_t at = 0;
    while (true) {
      const std::size_t newline = in.find('\n', at);
      if (newline == std::string::npos) break;
      const std::size_t space = in.find(' ', at);
      if (space == std::string::npos || space > newline) {
        std::fprintf(stderr, "fuzz_differential sender: bad frame header, stopping\n");
        std::exit(2);
      }
      const std::size_t length = std::strtoull(in.c_str() + space + 1, nullptr, 10);
      if (in.size() - newline - 1 < length) break;
      batch.push_back({in.substr(at, space - at), in.substr(newline + 1, length)});
      ++received_;
      at = newline + 1 + length;
    }
    in.erase(0, at);
  }

  void run_batch(const std::vector<exec::DecodeRequest>& batch) {
    ++batches_;
    const auto results = impls_->run(batch);
    for (const auto& p : results) {
      if (p.divergences.empty()) continue;
      ++divergent_;
      const bool contract = std::any_of(p.divergences.begin(), p.divergences.end(),
                                        [](const auto& d) { return !d.implementation_defined; });
      contract_ += contract;
      bool write = false;
      for (const auto& d : p.divergences) write = buckets_[d.bucket]++ < kMaxPerBucket || write;
      if (!write) continue;
      run::Finding f = run::finding_of(p);
      f.source = "fuzz_differential";
      const std::string file = (std::filesystem::path(store_->dir()) / run::finding_file_name(f)).string();
      f.replay = "crosscheck replay " + file;
      store_->write(f);
      ++written_;
      const auto& d = p.divergences.front();
      std::string impls;
      for (const auto& i : d.implementations) impls += (impls.empty() ? "" : ",") + i;
      std::fprintf(stderr, "fuzz_differential: %s%s divergence on %s [%s]: %s\n", core::class_name(d.cls),
                   contract ? "" : " (implementation-defined)", p.root.c_str(), impls.c_str(), file.c_str());
    }
  }

  std::shared_ptr<const schema::Ir> ir_;
  std::unique_ptr<exec::ImplementationSet> impls_;
  std::unique_ptr<run::FindingStore> store_;
  std::string implementations_;
  std::size_t batch_size_ = 128;
  std::map<std::string, std::size_t> buckets_;
  std::uint64_t received_ = 0, batches_ = 0, divergent_ = 0, contract_ = 0, written_ = 0;
};

}  // namespace

bool is_differential_sender() {
  const char* role = std::getenv(kRoleVariable);
  return role && std::strcmp(role, "sender") == 0;
}

int run_differential_sender() {
  ::signal(SIGPIPE, SIG_IGN);
  return Sender().run();
}

void SenderLink::start() {
  limit_ = env_size("CROSSCHECK_DIFF_BUFFER_MB", 16) << 20;
  int data[2], status[2];
  if (::pipe2(data, O_CLOEXEC) != 0 || ::pipe2(status, O_CLOEXEC) != 0) {
    std::fprintf(stderr, "ERROR: fuzz_differential: pipe: %s\n", std::strerror(errno));
    std::exit(2);
  }
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> env_text;
  std::string asan_options = "strict_memcmp=0";
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "ASAN_OPTIONS=", 13) == 0) {
      asan_options = std::string(*e + 13) + ":" + asan_options;
    } else if (std::strncmp(*e, kRoleVariable, std::strlen(kRoleVariable)) != 0) {
      env_text.emplace_back(*e);
    }
  }
  env_text.push_back(std::string(kRoleVariable) + "=sender");
  // Only for the sender, which starts the adapters through Boost.Process: its environment lookup
  // (boost/process/environment.hpp, find) compares "KEY=" against every entry with std::equal over
  // the key's length, reading past entries shorter than the key, which ASan's strict memcmp check
  // reports in the ASan build. The fuzzing process keeps the strict check.
  env_text.push_back("ASAN_OPTIONS=" + asan_options);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string arg0 = self;
  char* argv[] = {arg0.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, data[0], 0);
  posix_spawn_file_actions_adddup2(&actions, status[1], 1);
  pid_t pid = -1;
  const int spawned = ec ? ENOENT : ::posix_spawn(&pid, self.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(data[0]);
  ::close(status[1]);
  if (spawned != 0) {
    std::fprintf(stderr, "ERROR: fuzz_differential: cannot start the sender (%s): %s\n", self.c_str(),
                 std::strerror(spawned));
    std::exit(3);
  }
  pid_ = pid;
  fd_ = data[1];
  // The start-up line; the sender starts every adapter first (each SDK loads its tables).
  std::string line;
  char c;
  while (::read(status[0], &c, 1) == 1 && c != '\n') line += c;
  ::close(status[0]);
  if (line.rfind("READY ", 0) != 0) {
    int wstatus = 0;
    ::waitpid(pid_, &wstatus, 0);
    const int code = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0 ? WEXITSTATUS(wstatus) : 3;
    std::fprintf(stderr, "ERROR: fuzz_differential: %s\n",
                 line.rfind("ERROR ", 0) == 0 ? line.c_str() + 6 : "the sender exited during start-up");
    std::exit(code);
  }
  std::fprintf(stderr, "fuzz_differential: sender %d ready (implementations %s)\n", pid_, line.c_str() + 6);
  ::signal(SIGPIPE, SIG_IGN);  // a sender that dies must not kill the fuzzer
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(fd_, F_SETPIPE_SZ, 1 << 20);  // fewer full-pipe moments; the default 64 KiB is kept if refused
}

bool SenderLink::offer(std::string_view root, std::string_view payload) {
  if (gone_ || finished_ || fd_ < 0) {
    ++dropped_;
    return false;
  }
  pump();
  const std::string header = std::string(root) + " " + std::to_string(payload.size()) + "\n";
  if (buffer_.size() - sent_ + header.size() + payload.size() > limit_) {
    ++dropped_;
    return false;
  }
  buffer_ += header;
  buffer_.append(payload);
  ++offered_;
  pump();
  return true;
}

void SenderLink::pump() {
  while (sent_ < buffer_.size() && !gone_) {
    const ssize_t n = ::write(fd_, buffer_.data() + sent_, buffer_.size() - sent_);
    if (n > 0) {
      sent_ += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      break;
    } else {
      std::fprintf(stderr, "fuzz_differential: the sender is gone (%s); inputs from now on are dropped\n",
                   std::strerror(errno));
      gone_ = true;
    }
  }
  if (sent_ == buffer_.size()) {
    buffer_.clear();
    sent_ = 0;
  } else if (sent_ > (1u << 20) && sent_ * 2 > buffer_.size()) {
    buffer_.erase(0, sent_);
    sent_ = 0;
  }
}

void SenderLink::finish() {
  if (finished_ || fd_ < 0) return;
  finished_ = true;
  const auto deadline = Clock::now() + std::chrono::seconds(env_size("CROSSCHECK_FLUSH_SECONDS", 60));
  auto left_ms = [&] {
    return static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count()));
  };
  while (pending() && !gone_ && left_ms() > 0) {
    pollfd p{fd_, POLLOUT, 0};
    if (::poll(&p, 1, left_ms()) > 0) pump();
  }
  if (pending())
    std::fprintf(stderr, "fuzz_differential: %zu bytes not handed to the sender\n", buffer_.size() - sent_);
  ::close(fd_);
  fd_ = -1;
  int wstatus = 0;
  while (::waitpid(pid_, &wstatus, WNOHANG) == 0) {
    if (left_ms() == 0) {
      std::fprintf(stderr,
                   "fuzz_differential: the sender did not finish within CROSSCHECK_FLUSH_SECONDS: stopped; "
                   "findings already written are complete\n");
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &wstatus, 0);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace crosscheck::fuzz
