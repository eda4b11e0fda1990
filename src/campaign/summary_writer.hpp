// summary_writer.hpp: the end of a fuzz run: summary.json (the run's totals, who ran on which
// schema, how it ended; read by the reports and by crosscheck merge) and the summary printed on the
// log. Also the one reader of a previous session's summary.json, for the roots each bucket was seen
// on (a bucket's files are capped, so only the summary says where else it showed).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "campaign/campaign.hpp"
#include "campaign/finding_recorder.hpp"
#include "coverage/canonical_coverage.hpp"
#include "coverage/schema_coverage.hpp"
#include "exec/implementation_set.hpp"

namespace crosscheck::campaign {

/// This session's throughput and CPU time (summary.json "session"): whether generation left the
/// adapters the cores they need (campaign/generation_pacer.hpp).
struct SessionFigures {
  double seconds = 0;                   ///< this session's wall time, generation start to the end
  std::uint64_t sent = 0, dropped = 0;  ///< inputs sent to the adapters / dropped, this session
  double generation_share = 1;          ///< --generation-share in effect
  double crosscheck_cpu = 0;            ///< getrusage(RUSAGE_SELF): every thread, since the process started
  double generation_cpu = 0;            ///< the generation thread's CPU clock, this session
  double generation_waited = 0;         ///< wall time the generation thread waited for the adapters
  /// Each adapter's processes since they started, summed over restarts (AdapterProcess).
  std::map<std::string, double> adapter_cpu;
  /// Payloads each adapter was left out of while it was stuck (ImplementationSet::skip_stuck).
  std::map<std::string, std::uint64_t> skipped;
};

/// What the summary says, gathered once the sender has stopped.
struct RunSummary {
  const CampaignOptions& options;
  const CampaignSummary& totals;
  const FindingRecorder::Counts& counts;
  std::map<std::string, std::set<std::string>> bucket_roots;
  const SchemaCoverage& coverage;
  const CanonicalCoverage* canonical_coverage;  ///< layer 2, when the run had the canonical layer
  const exec::ImplementationSet& impls;
  std::vector<std::string> roots;  ///< the roots fuzzed
  /// Of those, the roots the canonical layer compares: those that are a schema document
  /// (canonical::root_document); the others are answered unsupported by every implementation.
  std::vector<std::string> canonical_roots;
  std::string findings_dir;
  double elapsed = 0;  ///< run time over every session
  bool interrupted = false;
  SessionFigures session;
};

/// The tables and totals on the log (`fuzz --verbose`; the report has them too).
void print_summary(std::ostream& log, const RunSummary& s);
/// The adapters left out of inputs while they were stuck, one line (nothing when none was).
void print_skipped(std::ostream& log, const SessionFigures& f);
/// Writes <out>/summary.json atomically (run/summary_file.hpp).
void write_summary(const RunSummary& s);
/// "bucketRoots" of <folder>/summary.json; nothing when the file is missing. Fatal (exit 2) naming
/// the file when it is damaged or of another format version.
std::map<std::string, std::set<std::string>> read_bucket_roots(const std::string& folder);

}  // namespace crosscheck::campaign
