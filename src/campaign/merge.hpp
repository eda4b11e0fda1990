// merge.hpp: `crosscheck merge OUT DIR...`, joining the output folders of several fuzz runs (the
// shards of one run, or runs of other seeds) into one folder of the same layout.
//
// What is joined, and how (docs/ci.md):
//  - findings/: the union by file name (the name is a hash of root and input, so the same payload is
//    one file), listed by run/finding_files.hpp; .min.json files travel with their finding, and one
//    whose original is gone stands for itself. New files obey the per-bucket cap of a run:
//    candidates are taken in iteration order (the "fuzz iteration N" of their source) and a file is
//    kept while one of its buckets has fewer than max_per_bucket earlier candidates. For the shards of
//    one --deterministic run this gives exactly the finding files of the unsharded run. A file already
//    in OUT is never removed or rewritten; new ones get a replay command that points into OUT.
//  - corpus/: the union by file name (a hash of the bytes).
//  - coverage.json: the union: a node is reached in an accepted (rejected) payload if any run reached it;
//    the impossible pairs are those every file that lists them agrees on, less any a run reached.
//  - events.jsonl: the runs' lines concatenated, each with "shard" and "source" members added.
//  - summary.json: counters summed over the runs (each run counted once, see merge.json), buckets and
//    coverage recomputed from the merged folder, bucketRoots the union over every run and finding file;
//    merge.json lists the runs merged so far. No exit code: the merged run's verdict is verdict.json,
//    decided over the merged folder's buckets (command_merge).
// Every folder is read and checked before anything is written: a folder that is not a fuzz output
// folder, or whose configuration (schema, implementations, roots, format; seed and shard aside)
// differs, is a Fatal error (exit 2) naming it, and OUT is left untouched. Files are written atomically.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace crosscheck::campaign {

struct MergeOptions {
  std::string out;                 ///< the folder written (created, or an earlier merge/run extended)
  std::vector<std::string> dirs;   ///< fuzz output folders (or earlier merges) to join
  std::size_t max_per_bucket = 3;  ///< finding files kept per bucket, as in a run
  bool events = true;              ///< join events.jsonl too
};

struct MergeResult {
  std::size_t runs = 0;           ///< runs recorded in OUT/merge.json
  std::size_t findings = 0;       ///< finding files in OUT (without .min.json)
  std::size_t new_findings = 0;   ///< written by this merge
  std::size_t capped = 0;         ///< candidates left out by the per-bucket cap
  std::size_t new_minimized = 0;  ///< .min.json files written by this merge
  std::size_t new_corpus = 0;     ///< corpus entries written by this merge
  std::size_t buckets = 0;        ///< distinct buckets among OUT's findings
  double coverage_percent = 0;    ///< of the (node, outcome) pairs a payload can reach
};

/// Joins the folders; throws Fatal (exit 2) naming the folder or file for bad input, before writing.
MergeResult merge_runs(const MergeOptions& options, std::ostream& log);

}  // namespace crosscheck::campaign
