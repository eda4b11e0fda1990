// summary_writer.cpp: summary.json and the printed summary of a fuzz run (see summary_writer.hpp).
#include "campaign/summary_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>

#include "run/layout.hpp"
#include "run/summary_file.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

run::Counts counts_of(const std::map<std::string, std::size_t>& m) { return {m.begin(), m.end()}; }

std::vector<run::ImplementationRecord> implementation_records(const exec::ImplementationSet& impls) {
  std::vector<run::ImplementationRecord> out;
  for (const auto& id : impls.identities()) {
    run::ImplementationRecord x;
    x.name = id.name;
    x.reported_name = id.reported_name;
    x.language = id.language;
    x.version = id.version;
    x.language_version = id.language_version;
    // The adapter's lock file, as it sent it in hello.
    auto lock_field = [&](const char* k) -> std::optional<std::string> {
      const json::Value* v = id.lock && id.lock->is_object() ? id.lock->find(k) : nullptr;
      if (v && v->is_string()) return v->string_value();
      return std::nullopt;
    };
    x.schema_manifest_sha256 = lock_field("schemaManifestSha256");
    x.source_commit = lock_field("sourceCommit");
    x.schema_bundle = id.schema_bundle;
    x.roots = id.roots.size();
    x.reports_warnings = id.reports_warnings;
    out.push_back(std::move(x));
  }
  return out;
}

/// Layer 2: who was left out of the comparison and why (never silently): the implementations whose
/// hello lacks the layer, and those that answered unsupported on some inputs.
std::map<std::string, std::string> canonical_left_out(const RunSummary& s) {
  std::map<std::string, std::string> out;
  if (!s.options.layers.canonical) return out;
  const auto without = s.impls.without_canonical_layer();
  for (const auto& [impl, n] : s.counts.canonical_unsupported) {
    out[impl] = without.count(impl) ? without.at(impl)
                                    : "unsupported on " + std::to_string(n) + " of " +
                                          std::to_string(s.counts.validated_inputs) +
                                          " inputs: documents it does not validate";
  }
  for (const auto& [impl, why] : without) out[impl] = why;
  return out;
}

double sent_per_second(const SessionFigures& f) {
  return f.seconds > 0 ? static_cast<double>(f.sent) / f.seconds : 0;
}

}  // namespace

void print_skipped(std::ostream& log, const SessionFigures& f) {
  if (f.skipped.empty()) return;
  log << "left out while stuck (a hang held them; the others were compared without them):";
  for (const auto& [name, count] : f.skipped) log << " " << name << " " << count << " inputs";
  log << "\n";
}

void print_summary(std::ostream& log, const RunSummary& s) {
  auto table = [&](const char* title, const std::map<std::string, std::size_t>& m) {
    log << title << ":";
    if (m.empty()) log << " none";
    log << "\n";
    // The column is as wide as the longest name (roots such as intercept_no_effect_response run past
    // a fixed width and would run into their count).
    std::size_t width = 27;
    for (const auto& entry : m) width = std::max(width, entry.first.size());
    for (const auto& [k, n] : m)
      log << "  " << std::left << std::setw(static_cast<int>(width + 1)) << k << n << "\n";
  };
  log << "\nsummary of " << s.options.out << "\n";
  table("divergences per layer", s.counts.by_layer);
  table("divergences per class", s.counts.by_class);
  table("divergences per root", s.counts.by_root);
  table("divergences per implementation", s.counts.by_implementation);
  log << "inputs generated " << s.totals.generated << ", sent to adapters " << s.totals.sent << ", divergent "
      << s.totals.divergent_inputs << " (" << s.totals.contract_inputs
      << " on contract inputs, the rest implementation-defined)\n"
      << "buckets " << s.totals.buckets << ", finding files written this run " << s.counts.findings_written
      << " in " << s.findings_dir << "\n"
      << "schema coverage " << s.coverage.describe()
      << " (unreached nodes: " << (fs::path(s.options.out) / run::kCoverageFile).string() << ")\n";
  if (s.canonical_coverage)
    log << "canonical schema coverage " << s.canonical_coverage->describe()
        << " (unreached: " << (fs::path(s.options.out) / run::kCoverageFile).string()
        << ", canonical.unreached)\n";
  for (const auto& [impl, why] : canonical_left_out(s))
    log << "left out of the canonical layer: " << impl << " (" << why << ")\n";
  auto skewed = s.impls.skewed_roots();
  if (!skewed.empty()) {
    log << "skewed roots (not compared):";
    for (const auto& r : skewed) log << " " << r;
    log << "\n";
  }
  const SessionFigures& f = s.session;
  print_skipped(log, f);
  log << std::fixed << std::setprecision(1) << "this session: " << f.seconds << " s, " << f.sent
      << " inputs sent (" << sent_per_second(f) << "/s), " << f.dropped
      << " dropped (the sender's queue was full); generation share " << std::setprecision(2)
      << f.generation_share << ", waited " << std::setprecision(1) << f.generation_waited << " s\n"
      << "CPU seconds: crosscheck " << f.crosscheck_cpu << " (generation thread " << f.generation_cpu << ")";
  for (const auto& [name, seconds] : f.adapter_cpu) log << ", " << name << " " << seconds;
  log << "\n" << std::defaultfloat << std::setprecision(6);
}

void write_summary(const RunSummary& s) {
  run::Summary sum;
  sum.generated = s.totals.generated;
  sum.sent = s.totals.sent;
  sum.divergent_inputs = s.totals.divergent_inputs;
  sum.contract_inputs = s.totals.contract_inputs;
  sum.buckets = s.totals.buckets;
  sum.by_class = counts_of(s.counts.by_class);
  sum.by_root = counts_of(s.counts.by_root);
  sum.by_implementation = counts_of(s.counts.by_implementation);
  sum.by_layer = counts_of(s.counts.by_layer);
  if (s.options.layers.canonical) sum.canonical_left_out = canonical_left_out(s);
  sum.seed = std::to_string(s.options.seed);
  sum.elapsed = s.elapsed;
  sum.findings = s.counts.findings_total;
  sum.strict = s.options.strict;
  sum.interrupted = s.interrupted;
  sum.coverage = s.coverage.figures();
  sum.implementations = implementation_records(s.impls);
  for (const auto& [root, row] : s.impls.skew_table()) sum.skew_table[root] = {row.begin(), row.end()};
  sum.bucket_roots = s.bucket_roots;
  sum.skewed_roots = s.impls.skewed_roots();
  // With neither layer 1 nor 2 (layer 3 alone) no root was fuzzed here: layer 3 adds its own.
  if (s.options.layers.structural || s.options.layers.canonical) sum.roots = s.roots;
  // Every input sent goes to each layer of the run (exec::ImplementationSet::run).
  if (s.options.layers.structural) sum.layers[core::kStructuralLayer] = {s.totals.sent, s.roots};
  if (s.options.layers.canonical) sum.layers[core::kCanonicalLayer] = {s.totals.sent, s.canonical_roots};
  run::SessionRecord session;
  session.seconds = s.session.seconds;
  session.sent = s.session.sent;
  session.dropped = s.session.dropped;
  session.sent_per_second = sent_per_second(s.session);
  session.generation_share = s.session.generation_share;
  session.waited_seconds = s.session.generation_waited;
  session.crosscheck_cpu = s.session.crosscheck_cpu;
  session.generation_cpu = s.session.generation_cpu;
  session.adapter_cpu = s.session.adapter_cpu;
  for (const auto& [name, inputs] : s.session.skipped) session.skipped_while_stuck[name] = inputs;
  sum.session = std::move(session);
  run::write_summary(s.options.out, sum);
}

std::map<std::string, std::set<std::string>> read_bucket_roots(const std::string& folder) {
  auto previous = run::read_summary(folder);
  return previous ? previous->bucket_roots : std::map<std::string, std::set<std::string>>{};
}

}  // namespace crosscheck::campaign
