// contextual_campaign.hpp: layer 3 in `crosscheck fuzz`: generated scenario rows, batch after batch,
// to every SDK interop client and to the reference host, into the run folder (docs/fuzzing.md,
// "Layer 3").
//
// A batch is `batch` rows of src/layers/contextual/generate, each of a family drawn by its energy, with a
// seed from (run seed, batch number). Every client runs the batch as one scenario file against crosscheck
// serve-scenarios (src/interop/client_runner: one client process per batch, the clients of a batch
// in parallel, a broken batch split down to its row); the reference host answers in process. Each
// row's differences (src/layers/contextual/compare/scenario_verdict) are one finding, written through src/run
// the moment the batch is settled. Novelty (NEZHA-style): a row whose tuple of per-implementation answers
// (with the rule the reference names) was never seen, or that reaches a rule way no row reached before, adds
// energy to its family, so the families that uncover new behaviour are drawn more. A
// --deterministic run takes the families in turn instead, so its findings depend on the seed alone.
// The next batch is kept in state.json (contextualBatches) after every batch: a resumed run goes on
// from there. Rule coverage goes to RUN/rule-coverage.json, added to the earlier sessions'. With an
// event log (ContextualOptions::events), each settled batch is a progress point and each finding file
// a finding event in RUN/events.jsonl, their totals going on from the run's summary.json as the
// earlier layers left it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "coverage/rule_coverage_file.hpp"
#include "interop/client_config.hpp"
#include "run/run_events.hpp"
#include "run/summary_file.hpp"

namespace crosscheck::scenario_campaign {

struct ContextualOptions {
  std::uint64_t seed = 1;
  std::string out;  ///< the run folder
  std::vector<scenario::ClientSpec> clients;
  std::string client_config;                       ///< for the findings' replay ("" for the default)
  std::string schema;                              ///< for the findings' replay ("" for the default)
  std::string crosscheck_exe;                      ///< the scripted server's program
  std::size_t batch = 48;                          ///< rows per batch (one client process each)
  std::optional<double> seconds;                   ///< this session's time budget
  std::optional<std::uint64_t> batches;            ///< or this many batches in the session
  std::uint64_t shard_index = 0, shard_count = 1;  ///< batch b is this shard's when b % count == index
  bool deterministic = false;
  std::chrono::milliseconds batch_deadline{120000};
  /// A client that sends no request for this long is hung (scenario::RunnerOptions::stall_deadline);
  /// fuzz passes its adapters' --deadline.
  std::chrono::milliseconds stall_deadline{10000};
  std::function<bool()> should_stop;  ///< Ctrl-C
  /// The run's event log (opened), or none: `fuzz` passes the one its run writes to.
  run::RunEvents* events = nullptr;
  /// The progress on the log: a line per batch, a line at most every 10 s, or one line updated in
  /// place (a terminal).
  enum class Progress { kEveryBatch, kPeriodic, kLive };
  Progress progress = Progress::kEveryBatch;
};

struct ContextualSummary {
  std::uint64_t batches = 0, rows = 0;  ///< this session's
  std::uint64_t novel_rows = 0;         ///< rows that added energy
  std::uint64_t broken = 0;             ///< crash / timeout / protocol results
  double seconds = 0;
  /// The counts of this session's findings, as summary.json keeps them.
  run::Summary counts;
  scenario_gen::RuleCoverageSummary coverage;  ///< over every session
};

/// Runs batches until the time, the batch count or should_stop ends it. `validator` is the layer-2
/// reference on the run's schema (intercept-request and intercept-response). Throws Fatal (exit 3)
/// for a client that cannot start.
ContextualSummary run_contextual(const canonical::CanonicalValidator& validator, const ContextualOptions& o,
                                 std::ostream& log);

/// Adds a layer-3 session to the summary.json the structural/canonical campaign wrote: its counts, its
/// buckets, the contextual layer (also when it found nothing), its clients among the implementations.
void add_to_summary(run::Summary& summary, const ContextualSummary& s,
                    const std::vector<scenario::ClientSpec>& clients);

}  // namespace crosscheck::scenario_campaign
