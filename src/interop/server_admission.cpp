// server_admission.cpp: SDK interop servers on scenario requests, one request in flight.
#include "interop/server_admission.hpp"

#include <poll.h>

#include <filesystem>

#include "exec/adapter_process.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kAnswerKept = 4096;
constexpr std::size_t kMaxLine = std::size_t{1} << 20;

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return "";
  std::size_t start = text.find_last_of('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// The row as the server sees it: its request exactly, and a neutral response (file comment).
std::string neutral_row(const Row& row) {
  const json::Value* params = row.request().find("params");
  const json::Value* version = params ? params->find("protocolVersion") : nullptr;
  std::string v = version && version->is_string() ? json::write(*version) : "\"draft\"";
  return "{\"id\":" + json::quote(row.id) + ",\"request\":" + std::string(row.raw_request()) +
         ",\"response\":{\"jsonrpc\":\"2.0\",\"id\":" + json::quote(row.id) +
         ",\"result\":{\"protocolVersion\":" + v + ",\"effects\":[]}},\"expected\":{}}";
}

// What one answer line says about the row in flight.
Admission read_answer(const std::string& line, const Row& row) {
  Admission a;
  a.answer = line.substr(0, kAnswerKept);
  auto parsed = json::parse(line);
  if (!parsed.ok() || !parsed->is_object()) {
    a.status = "protocol";
    a.error = "the answer is not a JSON object: " +
              (parsed.ok() ? std::string("another value") : parsed.error().message());
    return a;
  }
  const json::Value& v = parsed.value();
  const json::Value* id = v.find("id");
  const json::Value* result = v.find("result");
  const json::Value* error = v.find("error");
  if (result && !error) {
    if (!id || !id->is_string() || id->string_value() != row.id) {
      a.status = "protocol";
      a.error = "a result for id " + (id ? json::write(*id) : std::string("(none)")) + ", the request's is " +
                json::quote(row.id);
      return a;
    }
    a.status = "admitted";
    return a;
  }
  if (error && !result) {
    // A refusal may carry a null id (a server that could not read the request's); it answers the
    // request in flight all the same, as one request is in flight at a time.
    a.status = "refused";
    const json::Value* code = error->is_object() ? error->find("code") : nullptr;
    const json::Value* message = error->is_object() ? error->find("message") : nullptr;
    a.error = (code ? json::write(*code) : std::string("(no code)")) + " " +
              (message && message->is_string() ? message->string_value() : std::string("(no message)"));
    return a;
  }
  a.status = "protocol";
  a.error = "the answer has neither exactly one of result and error";
  return a;
}

}  // namespace

std::string request_line(const Row& row) {
  std::string out;
  for (char c : row.raw_request()) {
    if (c != '\n' && c != '\r') out += c;
  }
  return out;
}

Admission reference_admission(const canonical::CanonicalValidator& validator, const Row& row) {
  Admission a;
  auto verdict = validator.validate("intercept-request", row.raw_request());
  if (!verdict) {
    a.status = "protocol";
    a.error = "the snapshot has no intercept-request document";
    return a;
  }
  a.traits = verdict->implementation_defined;
  if (verdict->valid) {
    a.status = "admitted";
    return a;
  }
  a.status = "refused";
  const json::SchemaError& e = verdict->errors.front();
  a.error = "not canonical: " + (e.path.empty() ? std::string("(document)") : e.path) + " " + e.keyword +
            ": " + e.message;
  return a;
}

AdmissionRunner::AdmissionRunner(ClientSpec sdk, AdmissionOptions options)
    : sdk_(std::move(sdk)), options_(std::move(options)) {}

std::map<std::string, Admission> AdmissionRunner::run(
    const std::vector<const Row*>& rows, const std::function<bool(const Row&)>& confirm_refusal) {
  std::map<std::string, Admission> out;
  if (rows.empty()) return out;
  answer(rows, out);
  // A refusal after other rows may come from the server's state: ask again alone.
  for (std::size_t i = 1; i < rows.size() && rows.size() > 1; ++i) {
    Admission& shared = out[rows[i]->id];
    if (shared.status != "refused" || (confirm_refusal && !confirm_refusal(*rows[i]))) continue;
    std::map<std::string, Admission> alone;
    answer({rows[i]}, alone);
    Admission& a = alone[rows[i]->id];
    if (a.status != "refused") {
      a.notes.push_back("refused in a session after earlier rows (" + shared.error + "), " + a.status +
                        " alone: the alone answer is the row's");
      shared = std::move(a);
    }
  }
  return out;
}

void AdmissionRunner::answer(const std::vector<const Row*>& rows, std::map<std::string, Admission>& out) {
  std::size_t next = 0;
  while (next < rows.size()) {
    fs::path dir = fs::path(options_.work_dir) / sdk_.name / ("session-" + std::to_string(++sessions_));
    fs::create_directories(dir);
    std::string d = fs::absolute(dir).string();
    std::string scenarios = "{\"version\":1,\"scenarios\":[";
    for (std::size_t i = next; i < rows.size(); ++i)
      scenarios += (i > next ? ",\n" : "\n") + neutral_row(*rows[i]);
    scenarios += "\n]}\n";
    run::write_file_atomically(d + "/scenarios.json", scenarios);
    json::Value config = json::Value::object();
    config.add("transport", json::Value::string("stdio"));
    config.add("scenarioFile", json::Value::string(d + "/scenarios.json"));
    config.add("readinessFile", json::Value::string(d + "/ready.json"));
    json::Value auth = json::Value::object();
    auth.add("mode", json::Value::string("none"));
    config.add("auth", std::move(auth));
    run::write_file_atomically(d + "/server.json", json::write(config, {.indent = 2}) + "\n");

    exec::AdapterSpec spec{sdk_.name, sdk_.server_argv, sdk_.cwd, sdk_.env};
    spec.argv.push_back("--config");
    spec.argv.push_back(d + "/server.json");
    auto spawned = exec::AdapterProcess::spawn(spec, 16384);
    if (!spawned.ok())
      throw Fatal("server of '" + sdk_.name + "' cannot be started: " + spawned.error(), kExitAdapter);
    auto& process = *spawned.value();
    std::vector<std::string> lines;
    bool session_over = false;
    while (next < rows.size() && !session_over) {
      const Row& row = *rows[next];
      process.enqueue(request_line(row) + "\n");
      auto deadline = Clock::now() + options_.deadline;
      Admission a;
      bool stdout_open = true;
      while (lines.empty()) {
        if (process.wants_write()) process.flush();  // false: stdin closed; the death shows on stdout
        auto now = Clock::now();
        if (now >= deadline) {
          a.status = "timeout";
          a.error = "no answer within " + std::to_string(options_.deadline.count()) + " ms";
          break;
        }
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        pollfd fds[3] = {{process.stdout_fd(), POLLIN, 0},
                         {process.stderr_fd(), POLLIN, 0},
                         {process.wants_write() ? process.stdin_fd() : -1, POLLOUT, 0}};
        ::poll(fds, 3, static_cast<int>(std::min<long long>(wait, 100)));
        process.drain_stderr();
        auto status = process.read_lines(lines, kMaxLine);
        if (status == exec::AdapterProcess::ReadStatus::kOverlong) {
          a.status = "protocol";
          a.error = "an answer line longer than " + std::to_string(kMaxLine) + " bytes";
          break;
        }
        if (status == exec::AdapterProcess::ReadStatus::kEof && lines.empty()) {
          stdout_open = false;
          break;
        }
      }
      if (!lines.empty()) {
        a = read_answer(lines.front(), row);
        lines.erase(lines.begin());
        answered_once_ = true;
      } else if (!stdout_open) {
        process.drain_stderr();
        process.kill();
        std::string tail = last_line(process.stderr_tail());
        if (!answered_once_)
          throw Fatal("server of '" + sdk_.name + "' exited before answering its first request (" +
                          process.status_text() + (tail.empty() ? "" : "; stderr: " + tail) + ")",
                      kExitAdapter);
        a.status = "crash";
        a.error = process.status_text() + (tail.empty() ? "" : "; stderr: " + tail);
      }
      if (a.status != "admitted" && a.status != "refused") session_over = true;  // start afresh
      a.session_dir = d;
      out[row.id] = std::move(a);
      ++next;
    }
    if (!session_over) {  // every row answered: let the server end on EOF, as its contract says
      process.close_stdin();
      process.wait_exit(options_.exit_grace);
    }
    process.drain_stderr();
    process.kill();
    run::write_file_atomically(d + "/stderr.txt", process.stderr_tail());
  }
}

}  // namespace crosscheck::scenario
