// row_reduction.hpp: `crosscheck reduce` on layer-3 findings (scenario rows): each reduced on the clients
// (or servers) it names and the reference host, through the runners of `scenarios run`, batched, id kept
// (scenario_reducer.hpp); the contextual layer's reduction hooks (layers/layer.hpp) call these.
#pragma once

#include <string>

#include "layers/layer.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::reduce {

/// One layer-3 finding file `request.path` (`f`, its loaded content): writes <name>.min.json beside it
/// and prints what it did; its exit code. Throws Fatal for a bad bucket or row, or clients that cannot run.
int reduce_row_finding(const layers::ReduceRequest& request, const run::Finding& f);

/// The layer-3 findings of the run folder `request.path`, one per bucket without a .min.json.
layers::FolderReduction reduce_row_findings(const layers::ReduceRequest& request);

}  // namespace crosscheck::reduce
