// json_file.cpp: checked reads and atomic writes of run-folder JSON files.
#include "run/json_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace fs = std::filesystem;

json::Value read_json_object(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return json::Value::null();
  auto text = read_file_bytes(file);
  if (!text) throw Fatal(file.string() + ": cannot be read");
  json::ParseLimits limits;
  limits.max_bytes = std::size_t{1} << 30;
  auto parsed = json::parse(*text, limits);
  if (!parsed.ok()) {
    throw Fatal(file.string() + ": not JSON (" + parsed.error().message() +
                "): the file is damaged or was cut while being written");
  }
  if (!parsed.value().is_object()) throw Fatal(file.string() + ": expected a JSON object");
  return std::move(parsed.value());
}

void require_format(const fs::path& file, const json::Value& value, const char* expected) {
  const json::Value* f = value.is_object() ? value.find("format") : nullptr;
  if (!f) {
    throw Fatal(file.string() + ": /format: missing, expected \"" + expected +
                "\" (format version): the folder was written by an older crosscheck; run `crosscheck fuzz` "
                "on it again (it resumes and rewrites the file) or use a crosscheck of that version");
  }
  if (!f->is_string() || f->string_value() != expected) {
    throw Fatal(file.string() + ": /format: expected \"" + expected + "\" (format version), found " +
                json::write(*f) + ": the folder comes from another version of crosscheck");
  }
}

void require_schema(const fs::path& file, const json::Value& value, const char* schema) {
  if (auto v = json::shipped_schema(schema).validate(value)) {
    throw Fatal(file.string() + ": " + (v->pointer.empty() ? std::string("(the document)") : v->pointer) +
                ": " + v->message + " (schemas/" + schema + ")");
  }
}

json::Value count_value(std::uint64_t n) { return json::Value::number(std::to_string(n)); }

json::Value seconds_value(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", seconds);
  return json::Value::number(buf);
}

std::uint64_t count_of(const json::Value& number) {
  if (!number.is_number()) return 0;
  try {
    return std::stoull(number.number_text());
  } catch (const std::exception&) {
    return 0;
  }
}

double number_of(const json::Value& number) {
  return number.is_number() ? std::strtod(number.number_text().c_str(), nullptr) : 0.0;
}

void write_json_file(const fs::path& file, const json::Value& value, int indent) {
  json::WriteOptions options;
  options.indent = indent > 0 ? indent : -1;  // 0: one line
  write_file_atomically(file.string(), json::write(value, options) + "\n");
}

void write_file_atomically(const std::string& path, const std::string& content, Durability durability) {
  fs::path target(path);
  fs::path tmp =
      target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(getpid()));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Fatal("cannot write " + tmp.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw Fatal("cannot write " + path + ": " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if ((durability == Durability::kSynced && ::fsync(fd) != 0) || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw Fatal("cannot write " + path + ": " + std::strerror(err));
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw Fatal("cannot write " + path + ": " + std::strerror(err));
  }
}

}  // namespace crosscheck::run
