// merge_coverage.hpp: coverage.json of a merged folder, the union of the runs' files (same schema, so
// the same node ids). A node is reached in an accepted (rejected) payload if any run reached it; the
// impossible pairs are those every file that lists them agrees on, less any a run reached; a node is
// unreached (or impossible) only when every run that lists it so agrees. The percentages are
// recomputed from the union.
#pragma once

#include <filesystem>
#include <utility>
#include <vector>

#include "json/value.hpp"

namespace crosscheck::campaign::merging {

/// (folder, its coverage.json) pairs, at least one; Fatal when two track a different number of nodes.
json::Value merge_coverage(const std::vector<std::pair<std::filesystem::path, const json::Value*>>& covs);

}  // namespace crosscheck::campaign::merging
