// merge_coverage.hpp: coverage.json of a merged folder, the union of the runs' files (same schema, so
// the same node ids). A node is reached in an accepted (rejected) payload if any run reached it; the
// impossible pairs are those every file that lists them agrees on, less any a run reached; a node is
// unreached (or impossible) only when every run that lists it so agrees. The percentages follow from
// the union's counts (run/coverage_file.hpp). Layer 2 ("canonical") the same way: a node passed
// (failed) if it did in any run that has the layer, unreached only where all of them agree.
#pragma once

#include <filesystem>
#include <utility>
#include <vector>

#include "run/coverage_file.hpp"

namespace crosscheck::campaign::merging {

/// (folder, its coverage.json) pairs, at least one; Fatal when two track a different number of nodes
/// (at either layer).
run::CoverageFile merge_coverage(
    const std::vector<std::pair<std::filesystem::path, const run::CoverageFile*>>& covs);

}  // namespace crosscheck::campaign::merging
