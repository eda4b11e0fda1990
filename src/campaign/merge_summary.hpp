// merge_summary.hpp: summary.json of a merged folder: the first run's summary with the joined fields
// replaced: counters and tables summed over the runs (each run counted once), buckets and coverage
// from the merged folder, bucketRoots the union over every run and finding file, the longest run's
// elapsed time, the highest exit code, and "merged" naming the runs (and those without a summary).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::campaign::merging {

/// `sources`: merge.json's records (key -> record with its "summary"); `findings` and `buckets`:
/// counts of the merged folder; `bucket_roots`: the roots each bucket's finding files name.
json::Value merge_summary(const std::vector<std::pair<std::string, json::Value>>& sources,
                          std::size_t findings, std::size_t buckets,
                          const std::optional<json::Value>& coverage,
                          std::map<std::string, std::set<std::string>> bucket_roots);

}  // namespace crosscheck::campaign::merging
