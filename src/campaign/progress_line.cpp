// progress_line.cpp: the fuzz run's progress line (see progress_line.hpp).
#include "campaign/progress_line.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace crosscheck::campaign {

void print_progress_line(std::ostream& log, const ProgressFigures& p, bool live, bool final_line) {
  std::ostringstream line;
  line << std::fixed << std::setprecision(1) << "[fuzz " << p.elapsed << "s] inputs " << p.generated << " ("
       << std::setprecision(0) << static_cast<double>(p.generated) / std::max(p.elapsed, 1e-3)
       << "/s in process), sent " << p.sent << " (" << static_cast<double>(p.sent) / std::max(p.elapsed, 1e-3)
       << "/s)";
  // Per layer first ("structural 3, canonical 0"): a layer with none is still shown, so a run that
  // has the canonical layer says so.
  if (!p.by_layer.empty()) {
    line << ", divergences by layer:";
    for (const auto& [layer, n] : p.by_layer) line << " " << layer << "=" << n;
  }
  if (!p.by_class.empty()) {
    line << ", divergences:";
    for (const auto& [c, n] : p.by_class) line << " " << c << "=" << n;
  }
  line << ", buckets " << p.buckets;
  line << std::setprecision(1) << ", schema coverage " << p.coverage_percent << "%";
  if (p.canonical_coverage_percent) line << ", canonical " << *p.canonical_coverage_percent << "%";
  if (live && !final_line) {
    log << "\r" << line.str() << "\x1b[K" << std::flush;
  } else {
    log << (live ? "\r" : "") << line.str() << (live ? "\x1b[K\n" : "\n") << std::flush;
  }
}

}  // namespace crosscheck::campaign
