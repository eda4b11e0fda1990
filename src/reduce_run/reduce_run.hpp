// reduce_run.hpp: `crosscheck reduce` from its request to its exit code (src/reduce, docs/reducer.md):
// a finding file's input minimized within its bucket (<name>.min.json beside it), or one finding per
// bucket of a run folder that has none yet. A finding of a layer with a reduction of its own (layer 3:
// a scenario row, on the clients it names) goes to that layer's hook (layers/layer.hpp); the payloads
// to the adapters.
#pragma once

#include <functional>
#include <memory>

#include "exec/implementation_set.hpp"
#include "layers/layer.hpp"

namespace crosscheck::reduce_run {

struct ReduceJob {
  layers::ReduceRequest request;
  /// Starts the adapters the payload reducer sends candidates to (the CLI's --adapters).
  std::function<std::unique_ptr<exec::ImplementationSet>()> start_adapters;
  /// The payload reducer's defaults: adapter calls, candidates per batch.
  std::size_t budget() const { return request.budget.value_or(2000); }
  std::size_t batch() const { return request.batch.value_or(16); }
};

/// Throws Fatal with the exit code of a bad finding, bucket or folder, or adapters that cannot start.
int run_reduce(const ReduceJob& job);

}  // namespace crosscheck::reduce_run
