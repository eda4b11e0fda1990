// run_state.cpp: run.json, state.json and coverage.json of a fuzz run (see run_state.hpp).
#include "campaign/run_state.hpp"

#include <filesystem>

#include "json/write.hpp"
#include "run/coverage_file.hpp"
#include "run/layout.hpp"
#include "run/run_file.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

run::RunConfig configuration(const schema::Ir& ir, const CampaignOptions& o) {
  run::RunConfig c;
  c.seed = std::to_string(o.seed);
  c.roots = o.roots;
  c.implementations = o.adapters_fingerprint;
  c.schema = ir.manifest_sha256.empty() ? ir.source_path : ir.manifest_sha256;
  if (o.shard_count > 1) c.shard = std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count);
  c.deterministic = o.deterministic;
  return c;
}

}  // namespace

bool open_run_folder(const schema::Ir& ir, const CampaignOptions& o) {
  std::error_code ec;
  fs::create_directories(fs::path(o.out) / run::kCorpusDir, ec);
  if (ec) throw Fatal("cannot create the output folder " + o.out + ": " + ec.message());
  const run::RunConfig mine = configuration(ir, o);
  const std::optional<run::RunConfig> theirs = run::read_run_config(o.out);
  if (!theirs) {
    run::write_run_config(o.out, mine);
    return false;
  }
  if (*theirs != mine) {
    throw Fatal("the output folder " + o.out + " belongs to a run with a different configuration (" +
                (fs::path(o.out) / run::kRunFile).string() + " says " + json::write(run::to_json(*theirs)) +
                "; this run is " + json::write(run::to_json(mine)) +
                "): use another --out, or the same seed, roots, adapters and --shard to resume");
  }
  return true;
}

RunPosition read_position(const std::string& folder) {
  return run::read_state(folder).value_or(RunPosition{});
}

void read_coverage(const std::string& folder, SchemaCoverage& coverage, CanonicalCoverage* canonical) {
  auto saved = run::read_coverage(folder);
  if (!saved) return;
  coverage.restore(*saved);
  if (canonical && saved->canonical) canonical->restore(*saved->canonical);
}

void save_state(const std::string& folder, const RunPosition& position, const SchemaCoverage& coverage,
                const CanonicalCoverage* canonical) {
  run::write_state(folder, position);
  run::CoverageFile file = coverage.to_file();
  if (canonical) file.canonical = canonical->to_file();
  run::write_coverage(folder, file);
}

}  // namespace crosscheck::campaign
