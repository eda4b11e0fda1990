// command_reduce.cpp: `crosscheck reduce FINDING`, minimize one finding's input within its bucket and
// write <name>.min.json beside it; `crosscheck reduce DIR` does one finding per bucket of a run folder
// that has none yet (src/reduce, docs/reducer.md).
#include <filesystem>
#include <iostream>

#include "cli/adapter_options.hpp"
#include "cli/command.hpp"
#include "cli/schema_option.hpp"
#include "differential/adapter_pool.hpp"
#include "reduce/reduce_files.hpp"
#include "run/replay.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

struct ReduceCliOptions {
  AdapterOptions adapters;
  std::string finding;  ///< a finding file, or a run folder
  std::string bucket;
  std::size_t budget = 2000;
  std::size_t batch = 16;
  bool verbose = false;
};

int reduce_run(const ReduceCliOptions& o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(o.finding) / "findings", ec))
    throw Fatal(o.finding +
                ": expected a finding file, or a run folder holding findings/ (crosscheck fuzz --out)");
  if (!o.bucket.empty()) throw Fatal("--bucket goes with one finding file, not with a run folder");
  auto ir = load_ir_or_fail(o.adapters.schema);
  differential::install_stop_handlers();
  auto set = o.adapters.start();
  reduce::RunReduceOptions r;
  r.total_budget = o.budget;
  r.base.batch = o.batch;
  r.base.oracle = &ir;
  r.base.should_stop = [] { return differential::stop_requested(); };
  if (o.verbose) r.base.log = &std::cerr;
  auto done = reduce::reduce_run_folder(o.finding, *set, r, std::cout);
  for (const auto& s : done.skipped) std::cout << "not reduced: " << s << "\n";
  std::cout << done.reduced.size() << " finding(s) minimized in " << done.calls << " of " << o.budget
            << " calls";
  if (done.buckets_left)
    std::cout << "; " << done.buckets_left << " bucket(s) left (run again, or a larger --budget)";
  std::cout << "\n";
  return kExitClean;
}

int reduce_command(const ReduceCliOptions& o) {
  std::error_code ec;
  if (std::filesystem::is_directory(o.finding, ec)) return reduce_run(o);
  // Bad input is found before any adapter starts: the file must load and have the bucket.
  auto loaded = run::FindingStore::load(o.finding);
  if (!loaded.ok()) throw Fatal(loaded.error());
  std::optional<std::string> bucket;
  if (!o.bucket.empty()) bucket = o.bucket;
  if (auto target = reduce::target_bucket(o.finding, loaded.value(), bucket); !target.ok())
    throw Fatal(target.error());
  auto ir = load_ir_or_fail(o.adapters.schema);
  differential::install_stop_handlers();
  auto set = o.adapters.start();
  reduce::ReduceOptions options;
  options.budget = o.budget;
  options.batch = o.batch;
  options.oracle = &ir;
  options.should_stop = [] { return differential::stop_requested(); };
  if (o.verbose) options.log = &std::cerr;
  auto r = reduce::reduce_finding_file(o.finding, bucket, *set, options);
  if (!r.ok()) throw Fatal(r.error());
  const reduce::FileReduction& fr = r.value();
  const reduce::ReduceResult& res = fr.result;
  const differential::Divergence* d = nullptr;
  for (const auto& x : res.results.divergences) {
    if (x.bucket == fr.bucket) d = &x;
  }
  std::cout << "bucket " << fr.bucket;
  if (d) std::cout << " (" << differential::class_name(d->cls) << "): " << d->detail;
  std::cout << "\n"
            << "bytes:  " << fr.bytes_before << " -> " << res.input.size() << " (" << res.mode
            << " reduction)\n"
            << "calls:  " << res.calls << " of " << o.budget
            << (res.budget_exhausted ? " (budget reached)" : "") << (res.stopped ? " (stopped early)" : "")
            << (res.oracle_used ? "; " + std::to_string(res.screened) + " candidates ruled out in process"
                                : "")
            << "\n"
            << "input:  " << reduce::printable(res.input) << "\n";
  if (fr.written) {
    std::cout << "wrote:  " << fr.min_path << "\n";
  } else {
    std::cout << "note:   " << fr.note << "\n";
  }
  std::cout << "replay: " << run::replay_command(fr.min_path) << "\n";
  if (res.stopped && differential::stop_requested())
    std::cout << "interrupted: the input above is the smallest found so far; run the same command to go on\n";
  return kExitClean;
}

const Registration kReduce{CommandSpec{
    "reduce",
    "Minimize a finding's input within its bucket; writes <name>.min.json beside it (or a whole run folder)",
    "  crosscheck reduce crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --bucket 3f2a9c0d11e4b7a8 --budget 500 crosscheck-out/findings/diverge-0a1b2c.json\n"
    "  crosscheck reduce --adapters cpp,python nightly/findings/crash-python-77aa.json\n"
    "  crosscheck reduce nightly/ --budget 5000      # a run folder: one finding per bucket",
    [](CLI::App& sub) {
      auto o = std::make_shared<ReduceCliOptions>();
      o->adapters.add_to(sub);
      sub.add_option("finding", o->finding,
                     "A finding file written by run or fuzz; or a run folder: then the smallest finding of "
                     "each bucket without a .min.json, --budget calls in total")
          ->required();
      sub.add_option("--bucket", o->bucket,
                     "The divergence bucket to keep (default: the finding's first contract divergence)");
      sub.add_option("--budget", o->budget, "Payload evaluations sent to the implementations, at most")
          ->capture_default_str()
          ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
      sub.add_option("--batch", o->batch, "Candidates per adapter batch")
          ->capture_default_str()
          ->check(CLI::Range(std::size_t{1}, std::size_t{4096}));
      sub.add_flag("--verbose", o->verbose, "One line per phase on stderr");
      return [o] { return reduce_command(*o); };
    }}};

}  // namespace
}  // namespace crosscheck::cli
