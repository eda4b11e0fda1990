// merge_summary.hpp: summary.json of a merged folder: the first run's summary with the joined fields
// replaced: counters and tables summed over the runs (each run counted once), buckets and coverage
// from the merged folder, bucketRoots the union over every run and finding file, the longest run's
// elapsed time, and "merged" naming the runs (and those without a summary). The merged run's verdict
// is not in it: merge writes verdict.json over the merged folder's buckets.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/coverage_file.hpp"
#include "run/merge_file.hpp"
#include "run/summary_file.hpp"

namespace crosscheck::campaign::merging {

/// `sources`: the runs merged, each once; `findings` and `buckets`: counts of the merged folder;
/// `bucket_roots`: the roots each bucket's finding files name.
run::Summary merge_summary(const std::vector<run::MergeSource>& sources, std::size_t findings,
                           std::size_t buckets, const std::optional<run::CoverageFile>& coverage,
                           std::map<std::string, std::set<std::string>> bucket_roots);

}  // namespace crosscheck::campaign::merging
