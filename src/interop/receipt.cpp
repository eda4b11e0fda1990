// receipt.cpp: receipt lines.
#include "interop/receipt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"
#include "util/file.hpp"

namespace crosscheck::scenario {
namespace {

json::Value strings(const std::vector<std::string>& items) {
  json::Value out = json::Value::array();
  for (const auto& s : items) out.push(json::Value::string(s));
  return out;
}

std::vector<std::string> strings_of(const json::Value* v) {
  std::vector<std::string> out;
  if (v && v->is_array()) {
    for (const auto& s : v->items()) out.push_back(s.string_value());
  }
  return out;
}

}  // namespace

bool Receipt::has(const std::string& problem) const {
  return std::find(problems.begin(), problems.end(), problem) != problems.end();
}

ReceiptWriter::ReceiptWriter(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Fatal(path + ": cannot be opened for receipts: " + std::strerror(errno));
}

ReceiptWriter::~ReceiptWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void ReceiptWriter::append(const Receipt& r) {
  json::Value line = json::Value::object();
  line.add("seq", json::Value::number(std::to_string(r.seq)));
  line.add("method", json::Value::string(r.method));
  line.add("id", r.id);
  line.add("scenario", r.scenario ? json::Value::string(*r.scenario) : json::Value::null());
  line.add("reply", json::Value::string(r.reply));
  line.add("problems", strings(r.problems));
  line.add("differences", strings(r.differences));
  line.add("message", r.message ? *r.message : json::Value::null());
  if (!r.bytes.empty()) line.add("bytes", json::Value::string(base64_encode(r.bytes)));
  std::string text = json::write(line) + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk: the reply still goes out; the report says receipts are missing
    done += static_cast<std::size_t>(n);
  }
}

ReceiptFile read_receipts(const std::string& path) {
  ReceiptFile out;
  auto bytes = read_file_bytes(path);
  if (!bytes) return out;
  const json::SchemaValidator& schema = json::shipped_schema("scenario-receipt.schema.json");
  std::istringstream lines(*bytes);
  std::string line;
  std::size_t number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty()) continue;
    auto parsed = json::parse(line);
    std::string where = path + ": line " + std::to_string(number) + ": ";
    if (!parsed.ok()) {
      out.notes.push_back(where + "not JSON (cut short?): " + parsed.error().message());
      continue;
    }
    if (auto v = schema.validate(parsed.value())) {
      out.notes.push_back(where + json::describe_location(parsed.value(), v->pointer) + ": " + v->message);
      continue;
    }
    const json::Value& l = parsed.value();
    Receipt r;
    r.seq = std::stoull(l.find("seq")->number_text());
    r.method = l.find("method")->string_value();
    r.id = *l.find("id");
    if (const json::Value* s = l.find("scenario"); s->is_string()) r.scenario = s->string_value();
    r.reply = l.find("reply")->string_value();
    r.problems = strings_of(l.find("problems"));
    r.differences = strings_of(l.find("differences"));
    if (const json::Value* m = l.find("message"); !m->is_null()) r.message = *m;
    if (const json::Value* b = l.find("bytes")) r.bytes = base64_decode(b->string_value()).value_or("");
    out.receipts.push_back(std::move(r));
  }
  return out;
}

}  // namespace crosscheck::scenario
