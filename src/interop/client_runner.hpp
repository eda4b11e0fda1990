// client_runner.hpp: running one SDK interop client on scenario rows, in batches, with crosscheck
// serve-scenarios as its server, and surviving whatever the client does.
//
// One batch: write the rows as a scenario file, the server config (receipts on), the client config
// (stdio, serverCommand = [this crosscheck, "serve-scenarios"], serverConfig, scenarioFile,
// reportFile, auth none); start argv + ["--config", PATH] in its own process group with stdin
// closed; wait for it to exit within the batch deadline; read its report and the receipts.
//
// Robustness: a batch that times out, dies without a usable report, or writes a report that breaks
// the schema is split in halves and run again until the row that causes it stands alone, which
// then gets the result timeout, crash or protocol. Once the runner has seen a batch through, a
// batch's deadline follows the client's pace: kPaceFloor plus 8 times its rows' work at the pace
// shown (never more than batch_deadline), so a hang costs seconds, not the full deadline, at every
// split. With a stall deadline, a client that stops sending requests is found hung within it, and
// the row it stopped on (the server's last receipt) is the one tried alone first. A batch still
// running at `cut_at` (the run's time is up) is cut: its rows get the status
// `cut`, are not split, and the caller does not compare them. A report that lacks some of the batch's rows
// runs those rows again as a batch; results for ids it was not given are notes, never results. A client that
// cannot be started, or that exits without ever contacting the server on its first batch, is Fatal (exit 3)
// naming it.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "interop/client_config.hpp"
#include "json/value.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {

struct RowResult {
  /// The client's own: passed | failed | unsupported | inapplicable; the harness's: crash | timeout |
  /// protocol, or cut (the run's time was up: not compared).
  std::string status;
  json::Value actual;              ///< null when the client derived nothing (or did not report)
  std::string error;               ///< the client's error text, or what went wrong with the batch
  json::Value report_row;          ///< the row of the client's report, null when not reported
  std::vector<std::string> notes;  ///< what the server recorded for this row (differs, repeat)
  std::string batch_dir;           ///< the batch's files (configs, report, receipts, stderr)
  bool reported() const { return !report_row.is_null(); }
};

struct RunnerOptions {
  std::string work_dir;        ///< batches go under <work_dir>/<client>/batch-<n>/
  std::string crosscheck_exe;  ///< the serverCommand's program
  std::chrono::milliseconds batch_deadline{300000};
  std::size_t batch_size = 0;  ///< rows per first batch; 0: all in one
  /// A client that sends the server no request for this long is hung: its batch times out at once,
  /// and the row it was on when it stopped is run alone (the rest as one batch) instead of halving
  /// (file comment). Its first request gets kPaceFloor more, for start-up. 0: only the batch deadline.
  std::chrono::milliseconds stall_deadline{0};
  /// When the run's time is up: a batch still running then is cut (file comment). max: never.
  std::chrono::steady_clock::time_point cut_at = std::chrono::steady_clock::time_point::max();
};

class ClientRunner {
 public:
  ClientRunner(ClientSpec client, RunnerOptions options);

  /// One result per row id. Throws Fatal (exit 3) for a client that cannot start.
  std::map<std::string, RowResult> run(const std::vector<const Row*>& rows);

  /// Things about the client as a whole: ids it reported but was not given, unknown ids it sent,
  /// batches split.
  const std::vector<std::string>& notes() const { return notes_; }
  const ClientSpec& client() const { return client_; }
  /// RunnerOptions::cut_at, from now on.
  void cut_at(std::chrono::steady_clock::time_point when) { options_.cut_at = when; }
  /// A batch's deadline once the pace is known: this plus 8 times its rows' work.
  static constexpr std::chrono::milliseconds kPaceFloor{10000};

 private:
  struct Batch;
  Batch run_batch(const std::vector<const Row*>& rows);
  void settle(const std::vector<const Row*>& rows, std::map<std::string, RowResult>& out);

  ClientSpec client_;
  RunnerOptions options_;
  std::size_t batches_ = 0;
  double seconds_per_row_ = 0;  // a moving average over the batches that reported (0: none yet)
  std::vector<std::string> notes_;
};

}  // namespace crosscheck::scenario
