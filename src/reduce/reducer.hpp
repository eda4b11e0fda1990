// reducer.hpp: minimizes a finding's input while it stays in the same divergence bucket.
//
// Hierarchical delta debugging over the lossless JSON tree (json::Value keeps duplicate keys and
// number spellings), level by level: drop object members and array elements (ddmin over the
// children of one level, big chunks first), replace subtrees with simpler values (null, 0, "", {},
// [], true, a same-type simplest value, or one of their own descendants), simplify numbers, then
// shorten strings and member names; repeated to a fixed point, followed by a byte-level pass on the
// text. Inputs that are not JSON, or whose divergence depends on their exact bytes (whitespace, an
// escape's spelling), get byte-level ddmin. docs/reducer.md has the details and the figures.
//
// A candidate counts only if ImplementationSet::run + compare put it in the SAME bucket. Candidates
// go out in batches (adapters are pipelined) and the first one, in order, that keeps the bucket is
// taken; results are cached by candidate bytes. The budget counts payload evaluations (one request
// of a batch = one call, whatever the number of implementations). With an oracle schema, candidates
// whose in-process C++ outcome cannot give the bucket are ruled out before any adapter sees them.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "core/payload_results.hpp"
#include "exec/implementation_set.hpp"
#include "run/finding_file.hpp"
#include "schema/ir.hpp"

namespace crosscheck::reduce {

struct ReduceOptions {
  std::size_t budget = 2000;  ///< payload evaluations sent to the implementations (the original's included)
  std::size_t batch = 16;     ///< candidates per ImplementationSet::run batch
  /// The schema of the set's "cpp" oracle. When the bucket's signature names cpp's outcome, a
  /// candidate the in-process decoder answers differently cannot be in the bucket and is never sent.
  /// Checked against the set's own cpp answers as the reduction goes; any mismatch turns it off.
  const schema::Ir* oracle = nullptr;
  double max_seconds = 0;             ///< wall-clock limit (0: none); stops with the best so far
  std::function<bool()> should_stop;  ///< e.g. Ctrl-C: stop with the best so far
  std::ostream* log = nullptr;        ///< one line per phase when set
};

struct ReduceResult {
  bool reproduced = false;     ///< the original input landed in the bucket (nothing else is valid otherwise)
  std::string input;           ///< the smallest input found in the bucket (the original when nothing went)
  std::string mode;            ///< "json" (tree), "bytes" (byte-level only)
  std::size_t calls = 0;       ///< payload evaluations sent to the implementations
  std::size_t screened = 0;    ///< candidates ruled out by the in-process oracle (never sent)
  std::size_t cache_hits = 0;  ///< candidates seen before
  bool budget_exhausted = false;
  bool stopped = false;  ///< the time limit or should_stop ended it early
  bool oracle_used = false;
  core::PayloadResults results;  ///< of `input` (of the original when !reproduced)
};

/// Reduces `finding.input` for `bucket`. Never throws for adapter trouble: a crashing or hanging
/// candidate is just one more answer to compare.
ReduceResult reduce(const run::Finding& finding, const std::string& bucket, exec::ImplementationSet& set,
                    const ReduceOptions& options = {});

/// The bucket `reduce` targets when none is given: the first contract divergence's, else the first's.
std::optional<std::string> default_bucket(const run::Finding& finding);

}  // namespace crosscheck::reduce
