// client_runner.cpp: batches, deadlines, splitting.
#include "interop/client_runner.hpp"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <set>

#include "exec/adapter_process.hpp"
#include "interop/client_report.hpp"
#include "interop/receipt.hpp"
#include "interop/server_config.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"

namespace crosscheck::scenario {
namespace fs = std::filesystem;

struct ClientRunner::Batch {
  enum class Kind { kReport, kCrash, kTimeout, kProtocol, kCut };
  Kind kind = Kind::kReport;
  std::string detail;  ///< what went wrong, for crash / timeout / protocol
  std::string dir;
  ClientReport report;
  ReceiptFile receipts;
  bool exited_at_once = false;            ///< exited without a report and without contacting the server
  std::optional<std::string> stalled_on;  ///< timed out by the stall deadline: the row it was on
};

namespace {

const char* kind_status(int kind) {
  switch (kind) {
    case 1:
      return "crash";
    case 2:
      return "timeout";
    default:
      return "protocol";
  }
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  std::size_t nl = t.rfind('\n');
  std::string line = nl == std::string::npos ? t : t.substr(nl + 1);
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

}  // namespace

ClientRunner::ClientRunner(ClientSpec client, RunnerOptions options)
    : client_(std::move(client)), options_(std::move(options)) {}

ClientRunner::Batch ClientRunner::run_batch(const std::vector<const Row*>& rows) {
  Batch b;
  b.dir = (fs::path(options_.work_dir) / client_.name / ("batch-" + std::to_string(++batches_))).string();
  fs::create_directories(b.dir);
  std::string dir = fs::absolute(b.dir).string();
  std::string scenarios = dir + "/scenarios.json", server = dir + "/server.json",
              config = dir + "/client.json";
  std::string report = dir + "/report.json", receipts = dir + "/receipts.jsonl";
  write_scenario_file(scenarios, rows);
  write_server_config(server, ServerConfig{scenarios, dir + "/ready.json", receipts});
  json::Value c = json::Value::object();
  c.add("transport", json::Value::string("stdio"));
  json::Value command = json::Value::array();
  command.push(json::Value::string(options_.crosscheck_exe));
  command.push(json::Value::string("serve-scenarios"));
  c.add("serverCommand", std::move(command));
  c.add("serverConfig", json::Value::string(server));
  c.add("scenarioFile", json::Value::string(scenarios));
  c.add("reportFile", json::Value::string(report));
  json::Value auth = json::Value::object();
  auth.add("mode", json::Value::string("none"));
  c.add("auth", std::move(auth));
  run::write_file_atomically(config, json::write(c, {.indent = 2}) + "\n");

  exec::AdapterSpec spec{client_.name, client_.argv, client_.cwd, client_.env};
  spec.argv.push_back("--config");
  spec.argv.push_back(config);
  auto spawned = exec::AdapterProcess::spawn(spec, 16384);
  if (!spawned.ok())
    throw Fatal("client '" + client_.name + "' cannot be started: " + spawned.error(), kExitAdapter);
  auto& process = *spawned.value();
  process.close_stdin();
  const auto started = std::chrono::steady_clock::now();
  auto allowed = std::chrono::duration_cast<std::chrono::steady_clock::duration>(options_.batch_deadline);
  if (seconds_per_row_ > 0) {
    auto paced = kPaceFloor +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(8 * seconds_per_row_ * static_cast<double>(rows.size())));
    allowed = std::min(allowed, paced);
  }
  const auto own_deadline = started + allowed;
  const auto deadline = std::min(own_deadline, options_.cut_at);
  bool timed_out = false, out_open = true, err_open = true;
  std::vector<std::string> lines;
  bool cut = false, stalled = false;
  // Progress is a request reaching the server: its receipt is written before the reply goes out.
  std::uintmax_t receipt_bytes = 0;
  auto last_request = started + kPaceFloor;  // start-up: the interpreter, the server, discovery
  while (!process.has_exited()) {
    auto now = std::chrono::steady_clock::now();
    if (options_.stall_deadline.count() > 0) {
      std::error_code ec;
      const auto size = fs::file_size(receipts, ec);
      if (!ec && size != receipt_bytes) {
        receipt_bytes = size;
        last_request = now;
      }
      if (now >= last_request + options_.stall_deadline && now < deadline) {
        stalled = true;
        timed_out = true;
        break;
      }
    }
    if (now >= deadline && deadline < own_deadline) {
      cut = true;
      break;
    }
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pollfd fds[2] = {{out_open ? process.stdout_fd() : -1, POLLIN, 0},
                     {err_open ? process.stderr_fd() : -1, POLLIN, 0}};
    ::poll(fds, 2, static_cast<int>(std::min<long long>(wait, 100)));
    if (out_open && process.read_lines(lines, std::size_t{1} << 20) != exec::AdapterProcess::ReadStatus::kOk)
      out_open = false;
    if (lines.size() > 64) lines.erase(lines.begin(), lines.end() - 16);  // stdout is not ours to read
    process.drain_stderr();
    if ((fds[1].revents & POLLHUP) && !(fds[1].revents & POLLIN)) err_open = false;
  }
  process.drain_stderr();
  std::string tail = process.stderr_tail();
  run::write_file_atomically(dir + "/stderr.txt", tail);
  process.kill();
  std::string status = process.status_text();
  b.receipts = read_receipts(receipts);
  std::string why_tail = last_line(tail).empty() ? "" : "; stderr: " + last_line(tail);
  if (cut) {
    b.kind = Batch::Kind::kCut;
    b.detail = "cut: the run's time was up";
    return b;
  }
  if (stalled) {
    b.kind = Batch::Kind::kTimeout;
    b.detail = "no request to the server for " + std::to_string(options_.stall_deadline.count()) +
               " ms: the client is hung" + why_tail;
    if (!b.receipts.receipts.empty() && b.receipts.receipts.back().scenario)
      b.stalled_on = b.receipts.receipts.back().scenario;
    return b;
  }
  if (timed_out) {
    b.kind = Batch::Kind::kTimeout;
    b.detail = "no report within " +
               std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(allowed).count()) +
               " ms" + why_tail;
    return b;
  }
  auto read = read_client_report(report);
  if (!read.ok()) {
    bool no_file = !fs::exists(report);
    b.kind = no_file && status != "exited with status 0" ? Batch::Kind::kCrash : Batch::Kind::kProtocol;
    b.detail = read.error() + " (" + status + ")" + why_tail;
    b.exited_at_once = no_file && b.receipts.receipts.empty();
    return b;
  }
  b.report = std::move(read.value());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double per_row = took / static_cast<double>(std::max<std::size_t>(rows.size(), 1));
  seconds_per_row_ = seconds_per_row_ == 0 ? per_row : 0.8 * seconds_per_row_ + 0.2 * per_row;
  return b;
}

void ClientRunner::settle(const std::vector<const Row*>& rows, std::map<std::string, RowResult>& out) {
  bool first = batches_ == 0;
  auto cut_all = [&](const std::string& dir) {
    for (const Row* row : rows) {
      RowResult r;
      r.status = "cut";
      r.error = "cut: the run's time was up";
      r.batch_dir = dir;
      out[row->id] = std::move(r);
    }
  };
  if (std::chrono::steady_clock::now() >= options_.cut_at) {
    cut_all("");
    return;
  }
  Batch b = run_batch(rows);
  if (b.kind == Batch::Kind::kCut) {
    cut_all(b.dir);
    return;
  }
  for (const auto& note : b.receipts.notes) notes_.push_back(note);
  for (const auto& r : b.receipts.receipts) {
    if (r.has("unknown-id") || r.has("unknown-method") || r.has("unparsable"))
      notes_.push_back(b.dir + ": the client sent a message no row answers (" + json::write(r.id) +
                       ", method " + json::quote(r.method) + ")");
  }
  if (b.kind != Batch::Kind::kReport) {
    if (first && b.exited_at_once)
      throw Fatal("client '" + client_.name + "' exited at once, before contacting the server: " + b.detail,
                  kExitAdapter);
    auto suspect = b.stalled_on ? std::find_if(rows.begin(), rows.end(),
                                               [&](const Row* row) { return row->id == *b.stalled_on; })
                                : rows.end();
    if (rows.size() > 1 && suspect != rows.end()) {
      // The client stopped on this row: it alone, then the others together (two runs, not a halving
      // search of one deadline each).
      notes_.push_back(b.dir + ": hung on " + std::to_string(rows.size()) + " rows (" + b.detail +
                       "); the row it stopped on runs alone");
      std::vector<const Row*> rest;
      for (const Row* row : rows)
        if (row != *suspect) rest.push_back(row);
      settle({*suspect}, out);
      settle(rest, out);
      return;
    }
    if (rows.size() > 1) {
      notes_.push_back(b.dir + ": " + kind_status(static_cast<int>(b.kind)) + " on " +
                       std::to_string(rows.size()) + " rows (" + b.detail + "); split to find the row");
      std::size_t half = rows.size() / 2;
      settle(std::vector<const Row*>(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(half)), out);
      settle(std::vector<const Row*>(rows.begin() + static_cast<std::ptrdiff_t>(half), rows.end()), out);
      return;
    }
    RowResult r;
    r.status = kind_status(static_cast<int>(b.kind));
    r.error = b.detail;
    r.batch_dir = b.dir;
    out[rows.front()->id] = std::move(r);
    return;
  }
  std::set<std::string> given;
  for (const Row* row : rows) given.insert(row->id);
  std::map<std::string, const ReportedResult*> reported;
  for (const auto& r : b.report.results) {
    if (!given.count(r.id)) {
      notes_.push_back(b.dir + ": the report has a result for " + json::quote(r.id) +
                       ", a row it was not given");
    } else if (reported.count(r.id)) {
      notes_.push_back(b.dir + ": the report has two results for " + json::quote(r.id) +
                       "; the first is kept");
    } else {
      reported[r.id] = &r;
    }
  }
  std::vector<const Row*> missing;
  for (const Row* row : rows) {
    auto it = reported.find(row->id);
    if (it == reported.end()) {
      missing.push_back(row);
      continue;
    }
    RowResult r;
    r.status = it->second->status;
    r.actual = it->second->actual;
    r.error = it->second->error;
    r.report_row = it->second->row;
    r.batch_dir = b.dir;
    for (const auto& receipt : b.receipts.receipts) {
      if (receipt.scenario != row->id) continue;
      if (receipt.has("differs")) {
        std::string where;
        for (const auto& d : receipt.differences)
          where += (where.empty() ? "" : ", ") + (d.empty() ? "/" : d);
        r.notes.push_back("the request the server received differs from the row's at " + where);
      }
      if (receipt.has("repeat")) r.notes.push_back("the server received this request more than once");
    }
    out[row->id] = std::move(r);
  }
  if (missing.empty()) return;
  if (missing.size() == rows.size()) {
    if (rows.size() == 1) {
      RowResult r;
      r.status = "protocol";
      r.error = "the client's report has no result for this row";
      r.batch_dir = b.dir;
      out[rows.front()->id] = std::move(r);
      return;
    }
    // Nothing reported: running the same batch again proves nothing, so split it.
    notes_.push_back(b.dir + ": the report has none of its " + std::to_string(rows.size()) + " rows; split");
    std::size_t half = rows.size() / 2;
    settle(std::vector<const Row*>(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(half)), out);
    settle(std::vector<const Row*>(rows.begin() + static_cast<std::ptrdiff_t>(half), rows.end()), out);
    return;
  }
  notes_.push_back(b.dir + ": the report lacks " + std::to_string(missing.size()) + " of " +
                   std::to_string(rows.size()) + " rows; they run again");
  settle(missing, out);
}

std::map<std::string, RowResult> ClientRunner::run(const std::vector<const Row*>& rows) {
  std::map<std::string, RowResult> out;
  std::size_t size = options_.batch_size ? options_.batch_size : rows.size();
  for (std::size_t i = 0; i < rows.size(); i += size) {
    std::size_t end = std::min(rows.size(), i + size);
    settle(std::vector<const Row*>(rows.begin() + static_cast<std::ptrdiff_t>(i),
                                   rows.begin() + static_cast<std::ptrdiff_t>(end)),
           out);
  }
  return out;
}

}  // namespace crosscheck::scenario
