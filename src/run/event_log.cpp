// event_log.cpp: appending to and reading events.jsonl.
#include "run/event_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::run {
namespace {

std::string seconds_text(double t) {
  if (!std::isfinite(t) || t < 0) t = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", t);
  return buf;
}

/// The last complete line of the file (up to 64 KiB back), or "".
std::string last_complete_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::streamoff size = in.tellg();
  std::streamoff start = size > 65536 ? size - 65536 : 0;
  in.seekg(start);
  std::string tail(static_cast<std::size_t>(size - start), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  std::size_t end = tail.rfind('\n');
  if (end == std::string::npos) return "";
  std::size_t begin = end == 0 ? std::string::npos : tail.rfind('\n', end - 1);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return tail.substr(begin, end - begin);
}

std::optional<double> time_of(const json::Value& v) {
  const json::Value* t = v.is_object() ? v.find("t") : nullptr;
  if (!t || !t->is_number()) return std::nullopt;
  double d = std::strtod(t->number_text().c_str(), nullptr);
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

bool write_whole(int fd, const std::string& line) {
  // One write() for the whole line: with O_APPEND the kernel places it at the end in one piece. A
  // short write (a full disk) is reported, not retried, since a retry would no longer be atomic.
  ssize_t n;
  do {
    n = ::write(fd, line.data(), line.size());
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(line.size());
}

}  // namespace

EventLog::EventLog(std::string path, double elapsed_before)
    : path_(std::move(path)), opened_(std::chrono::steady_clock::now()) {
  base_ = std::max(0.0, std::isfinite(elapsed_before) ? elapsed_before : 0.0);
  if (auto last = last_time(path_)) base_ = std::max(base_, *last);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error_ = "cannot open " + path_ + ": " + std::strerror(errno);
    return;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && st.st_size > 0) {
    char last = '\n';
    int rfd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (rfd >= 0) {
      if (::pread(rfd, &last, 1, st.st_size - 1) != 1) last = '\n';
      ::close(rfd);
    }
    if (last != '\n' && !write_whole(fd_, "\n"))
      error_ = "cannot write " + path_ + ": " + std::strerror(errno);
  }
}

EventLog::~EventLog() {
  if (fd_ >= 0) ::close(fd_);
}

double EventLog::elapsed() const {
  return base_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count();
}

bool EventLog::append(std::string_view event, const json::Value& fields) {
  json::Value line = json::Value::object();
  line.add("t", json::Value::number(seconds_text(elapsed())));
  line.add("event", json::Value::string(std::string(event)));
  if (fields.is_object()) {
    for (const auto& m : fields.members()) {
      if (m.key != "t" && m.key != "event") line.add(m.key, m.value);
    }
  }
  std::string text = json::write(line) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  if (fd_ < 0) return false;
  if (write_whole(fd_, text)) return true;
  if (error_.empty())
    error_ = "cannot write " + path_ + ": " + (errno ? std::strerror(errno) : "short write");
  return false;
}

std::string EventLog::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

std::optional<double> EventLog::last_time(const std::string& path) {
  std::string line = last_complete_line(path);
  if (line.empty()) return std::nullopt;
  auto parsed = json::parse(line);
  if (!parsed.ok()) return std::nullopt;
  return time_of(parsed.value());
}

EventFile read_events(const std::string& path) {
  EventFile out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    bool complete = end != std::string::npos;
    if (!complete) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (!complete) {
      out.partial_last_line = true;
      // A cut last line is skipped even if it happens to parse: its writer did not finish it.
      ++out.skipped;
      break;
    }
    if (line.empty()) continue;
    auto parsed = json::parse(line);
    if (!parsed.ok() || !parsed.value().is_object()) {
      ++out.skipped;
      continue;
    }
    auto t = time_of(parsed.value());
    const json::Value* name = parsed.value().find("event");
    if (!t || !name || !name->is_string()) {
      ++out.skipped;
      continue;
    }
    out.events.push_back({*t, name->string_value(), std::move(parsed.value())});
  }
  return out;
}

}  // namespace crosscheck::run
