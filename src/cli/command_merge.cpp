// command_merge.cpp: `crosscheck merge OUT DIR...`, join the output folders of fuzz runs (the shards
// of one run fanned out over several machines) into one folder (src/campaign/merge.hpp).
#include <filesystem>
#include <iostream>

#include "baseline/classify.hpp"
#include "campaign/merge.hpp"
#include "cli/command.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "util/result.hpp"

namespace crosscheck::cli {
namespace {

const Registration kMerge{CommandSpec{
    "merge", "Join the output folders of fuzz runs (e.g. the shards of one run) into one folder",
    "  crosscheck fuzz --shard 0/2 --seed 7 --time 1h --out shard-0    # on one machine\n"
    "  crosscheck fuzz --shard 1/2 --seed 7 --time 1h --out shard-1    # on another\n"
    "  crosscheck merge merged/ shard-0 shard-1\n"
    "  crosscheck merge merged/ tonight-*/     # into an earlier merge: adds what is new, no duplicates",
    [](CLI::App& sub) {
      auto o = std::make_shared<campaign::MergeOptions>();
      sub.add_option("out", o->out, "The merged folder (created; an earlier merge or run folder is extended)")
          ->required();
      sub.add_option("dirs", o->dirs, "Output folders of crosscheck fuzz (or earlier merges)")->required();
      sub.add_option("--max-per-bucket", o->max_per_bucket, "Finding files kept per bucket, as in a run")
          ->capture_default_str()
          ->check(CLI::Range(1, 1000000));
      sub.add_flag("!--no-events", o->events, "Do not join the runs' events.jsonl");
      return [o] {
        campaign::merge_runs(*o, std::cerr);
        // The merged run's verdict over all its buckets, for `crosscheck verdict` and the CI scripts;
        // merge itself succeeded, whatever the verdict.
        json::Value summary = run::read_json_object(std::filesystem::path(o->out) / run::kSummaryFile);
        const json::Value* strict = summary.is_object() ? summary.find("strict") : nullptr;
        auto v = baseline::judge_run_folder_without_baseline(
            o->out, strict && strict->is_bool() && strict->as_bool(), "merge");
        std::cerr << "verdict of " << o->out << ": " << v.describe() << "\n";
        return static_cast<int>(kExitClean);
      };
    }}};

}  // namespace
}  // namespace crosscheck::cli
