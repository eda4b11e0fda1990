// run_story.hpp: how `crosscheck fuzz` ends on the terminal: one screen a person reads at a glance.
//
// The verdict first (passed, or FAILED and why), then one line per comparison layer (its inputs and
// its buckets: new failing, known to the baseline, implementation-defined and not failing), the new
// failing buckets one line each with their replay command, and the paths of the reports and the run
// folder. Implementation-defined and known buckets are counted, not listed, unless `verbose`; the
// report always lists them. The word "new" is said only of what fails (verdict/verdict.hpp decides).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "baseline/baseline.hpp"
#include "baseline/classify.hpp"

namespace crosscheck::baseline {

/// One comparison layer of the run as the story counts it.
struct StoryLayer {
  std::string name;                     ///< "structural", "canonical", "contextual"
  std::optional<std::uint64_t> inputs;  ///< compared at the layer (none: not recorded)
  std::string unit = "inputs";          ///< what an input is at the layer ("rows" for layer 3)
  std::string note;                     ///< a figure of its own ("schema coverage 87.5%"), or ""
};

struct Story {
  std::string run_dir;
  const Baseline* baseline = nullptr;  ///< none: every bucket is new
  bool strict = false;
  bool verbose = false;  ///< list the implementation-defined and known buckets and the stale entries too
  std::vector<StoryLayer> layers;         ///< the layers of the run, in order
  std::vector<std::string> caveats;       ///< said after the layers (roots not compared, left out ...)
  std::vector<std::string> report_files;  ///< the reports written, report.html first
};

/// New failing buckets listed without `verbose`; the rest are counted (the report has them all).
constexpr std::size_t kStoryFailingShown = 20;

/// Prints the story of `c` (the run folder's buckets sorted against story.baseline).
void print_run_story(std::ostream& out, const Classification& c, const Story& story);

}  // namespace crosscheck::baseline
