// reduce_run.cpp: `crosscheck reduce` (reduce_run.hpp).
#include "reduce_run/reduce_run.hpp"

#include <filesystem>
#include <iostream>
#include <optional>

#include "core/divergence.hpp"
#include "layers/registry/layer_registry.hpp"
#include "reduce/folder_summary.hpp"
#include "reduce/reduce_files.hpp"
#include "run/finding_file.hpp"
#include "run/replay.hpp"
#include "schema/ir.hpp"
#include "util/result.hpp"

namespace crosscheck::reduce_run {
namespace {

int reduce_folder(const ReduceJob& job) {
  const layers::ReduceRequest& o = job.request;
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(o.path) / "findings", ec))
    throw Fatal(o.path +
                ": expected a finding file, or a run folder holding findings/ (crosscheck fuzz --out)");
  // Each layer with a reduction of its own first (a fuzz run with layer 3: its scenario rows on their
  // clients), then the payloads, unless a layer's findings are the whole folder.
  exec::install_stop_handlers();
  for (const layers::Layer* layer : layers::registered_layers()) {
    const layers::FolderReduction done = layer->reduce_folder(o);
    if (done.reduced && done.whole_folder) return done.exit_code;
  }
  if (!o.bucket.empty()) throw Fatal("--bucket goes with one finding file, not with a run folder");
  auto ir = o.load_schema(o.schema_path);
  auto set = job.start_adapters();
  reduce::RunReduceOptions r;
  r.total_budget = job.budget();
  r.base.batch = job.batch();
  r.base.oracle = ir.get();
  r.base.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) r.base.log = &std::cerr;
  auto done = reduce::reduce_run_folder(o.path, *set, r, std::cout);
  reduce::print_folder_summary(done, job.budget(), "calls");
  return kExitClean;
}

}  // namespace

int run_reduce(const ReduceJob& job) {
  const layers::ReduceRequest& o = job.request;
  std::error_code ec;
  if (std::filesystem::is_directory(o.path, ec)) return reduce_folder(job);
  // Bad input is found before any adapter starts: the file must load and have the bucket.
  auto loaded = run::FindingStore::load(o.path);
  if (!loaded.ok()) throw Fatal(loaded.error());
  // A finding of a layer with a reduction of its own (layer 3: a scenario row, on its clients).
  exec::install_stop_handlers();
  for (const layers::Layer* layer : layers::registered_layers())
    if (auto rc = layer->reduce_file(o)) return *rc;
  std::optional<std::string> bucket;
  if (!o.bucket.empty()) bucket = o.bucket;
  if (auto target = reduce::target_bucket(o.path, loaded.value(), bucket); !target.ok())
    throw Fatal(target.error());
  auto ir = o.load_schema(o.schema_path);
  exec::install_stop_handlers();
  auto set = job.start_adapters();
  reduce::ReduceOptions options;
  options.budget = job.budget();
  options.batch = job.batch();
  options.oracle = ir.get();
  options.should_stop = [] { return exec::stop_requested(); };
  if (o.verbose) options.log = &std::cerr;
  auto r = reduce::reduce_finding_file(o.path, bucket, *set, options);
  if (!r.ok()) throw Fatal(r.error());
  const reduce::FileReduction& fr = r.value();
  const reduce::ReduceResult& res = fr.result;
  const core::Divergence* d = nullptr;
  for (const auto& x : res.results.divergences) {
    if (x.bucket == fr.bucket) d = &x;
  }
  std::cout << "bucket " << fr.bucket;
  if (d) std::cout << " (" << core::class_name(d->cls) << "): " << d->detail;
  std::cout << "\n"
            << "bytes:  " << fr.bytes_before << " -> " << res.input.size() << " (" << res.mode
            << " reduction)\n"
            << "calls:  " << res.calls << " of " << job.budget()
            << (res.budget_exhausted ? " (budget reached)" : "") << (res.stopped ? " (stopped early)" : "")
            << (res.oracle_used ? "; " + std::to_string(res.screened) + " candidates ruled out in process"
                                : "")
            << "\n"
            << "input:  " << reduce::printable(res.input) << "\n";
  reduce::print_written(std::cout, fr.written, fr.min_path, fr.note);
  std::cout << "replay: " << run::replay_command(fr.min_path) << "\n";
  if (res.stopped && exec::stop_requested())
    std::cout << "interrupted: the input above is the smallest found so far; run the same command to go on\n";
  return kExitClean;
}

}  // namespace crosscheck::reduce_run
