// campaign.hpp: `crosscheck fuzz`, a differential fuzz run.
//
// Algorithm: iteration i draws its own seed from (run seed, i), picks a root, and either generates a
// valid instance or mutates a corpus entry of that root (gen::Mutator). The C++ decoder runs every
// input in process with a coverage probe; inputs that reach new schema coverage, or give the decoder
// a new outcome signature, join the corpus and go to the adapters, and so does a sample of the rest.
// Adapter calls happen on a sender thread in batches: the generation loop never blocks on an SDK,
// but while the sender is behind it uses at most --generation-share of a core (generation_pacer),
// and while it is not, every input is sent (with a share below 1). The loop has a thread of its own,
// which a share below 1 also runs at nice +10, so that it gives an adapter's core back at once.
// An input whose tuple of per-implementation outcomes is new also joins the corpus (NEZHA). With the
// canonical layer, every input sent is also validated canonically as its root's schema document on
// every implementation (layer 2), and its canonical verdicts count in that tuple too.
//
// Output folder: run.json (the configuration; a different one is refused), corpus/<root>/<hash>
// (at most --corpus-limit files per root; later entries stay in the in-memory sample only),
// findings/ (one atomic file per finding, at most max_per_bucket per bucket), events.jsonl
// (appended as the run goes), state.json and coverage.json (saved every few seconds and at the end,
// atomically), summary.json (at the end). Running again on the same folder resumes: corpus, coverage,
// buckets and the iteration counter are read back.
//
// The pieces, one file each: run_state (run.json, state.json, coverage.json), corpus_sample,
// generation_step, sender (thread and queue), finding_recorder (counts, bucket caps, finding files),
// progress_line, summary_writer (summary.json); campaign.cpp runs them. events.jsonl is written
// through src/run's run_events, which a later layer of the run (layer 3) writes to as well.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/divergence.hpp"
#include "core/layers.hpp"
#include "exec/implementation_set.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

/// A finding file the campaign has just written (CampaignOptions::on_finding).
struct WrittenFinding {
  std::string file;             ///< its path (<out>/findings/<name>)
  const run::Finding& finding;  ///< what it holds
  /// The divergence that opened a new bucket, or the finding's first: as events.jsonl's "finding".
  const core::Divergence& divergence;
  bool new_bucket = false;              ///< the finding opened a bucket
  bool implementation_defined = false;  ///< every divergence of the finding is implementation-defined
  double seconds = 0;                   ///< run time when it was written (events.jsonl's clock)
};

struct CampaignOptions {
  std::optional<double> seconds;      ///< --time
  std::optional<std::uint64_t> runs;  ///< --runs (inputs generated)
  std::uint64_t seed = 1;
  std::string out = "crosscheck-out";
  std::vector<std::string> roots;       ///< empty: every root
  std::vector<std::string> seed_paths;  ///< extra seed files/folders (bytes; never fatal)
  std::size_t batch = 128;              ///< requests per adapter batch
  /// --layers: the comparison layers run on every input sent (each implementation answers those its
  /// hello lists; the others are left out of that layer, and the summary says so).
  core::Layers layers;
  std::size_t sample_every = 16;  ///< send 1 in N uninteresting inputs too
  /// --generation-share: the fraction of one core the generation thread may use while the sender is
  /// behind (campaign/generation_pacer.hpp), and below 1 every input goes while the sender has room;
  /// 1 never waits and only samples. Not used by --deterministic runs.
  double generation_share = 0.25;
  std::size_t max_per_bucket = 3;  ///< finding files kept per bucket
  /// Files kept in corpus/<root>/: most inputs of a long run show a decoder outcome not seen before
  /// (about 300 a second), and an unbounded folder grew by 200 MB in ten minutes. Later entries go
  /// to the in-memory sample only (a resumed run starts from the folder's).
  std::size_t corpus_files_per_root = 4096;
  /// --sent-sample N: every Nth input sent to the adapters is also written to
  /// sent-sample/<root>/<hash> (the corpus layout), so that an SDK's in-process rate can be measured
  /// on the run's own mix (bench_adapters DIR); 0 writes none.
  std::size_t sent_sample_every = 0;
  bool strict = false;  ///< count implementation-defined divergences as failures
  bool live = false;    ///< a live progress line (terminal) instead of periodic lines
  /// The log gets the details: divergences per class on the progress line, the summary's tables and
  /// totals at the end (`fuzz` only with --verbose: the reports have them).
  bool detailed_log = true;
  std::string adapters_fingerprint;  ///< names of the implementations, for run.json
  /// --shard I/N: only the iterations i with i % N == I of the run (each input's seed derives from
  /// (run seed, i), so the shards of one seed split one run's inputs between them).
  std::uint64_t shard_index = 0, shard_count = 1;
  /// --deterministic: no corpus feedback (every input is generated from (seed, i) and mutated), every
  /// input is sent and none is dropped, so the findings depend on the iterations alone and the shards'
  /// findings merge to exactly one run's (docs/ci.md).
  bool deterministic = false;
  /// Polled by the generation loop and before each adapter batch: true ends the run early, as if its
  /// time were up (the batch in flight completes; `crosscheck selftest` stops at its first finding).
  std::function<bool()> stop_when;
  /// Write the event log's "end" event when the campaign ends. False when a later layer of the same
  /// run follows (fuzz's layer 3): the end is written after the last layer.
  bool end_event = true;
  /// Called on the sender thread after each finding file is written and logged, in the order they
  /// are written; an exception from it ends the run with that error.
  std::function<void(const WrittenFinding&)> on_finding;
};

struct CampaignSummary {
  std::uint64_t generated = 0, sent = 0, divergent_inputs = 0, contract_inputs = 0;
  std::size_t buckets = 0;
  double coverage_percent = 0;
  std::optional<double> canonical_coverage_percent;  ///< layer 2, when the run had the canonical layer
  int exit_code = 0;
};

/// Runs the campaign; throws Fatal (exit 2) for a bad or foreign output folder.
CampaignSummary run_campaign(const schema::Ir& ir, exec::ImplementationSet& impls,
                             const CampaignOptions& options, std::ostream& log);

}  // namespace crosscheck::campaign
