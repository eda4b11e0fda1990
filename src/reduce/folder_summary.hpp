// folder_summary.hpp: lines `crosscheck reduce` prints the same for every layer's reducer: where a
// finding's reduction went, and the last lines of a run folder's.
#pragma once

#include <cstddef>
#include <iostream>
#include <string>

namespace crosscheck::reduce {

/// The .min.json written, or why none was.
inline void print_written(std::ostream& out, bool written, const std::string& min_path,
                          const std::string& note) {
  if (written) {
    out << "wrote:  " << min_path << "\n";
  } else {
    out << "note:   " << note << "\n";
  }
}

/// The last lines of a run folder's reduction, the same for both layers' reducers.
template <typename Done>
void print_folder_summary(const Done& done, std::size_t budget, const char* unit) {
  for (const auto& s : done.skipped) std::cout << "not reduced: " << s << "\n";
  std::cout << done.reduced.size() << " finding(s) minimized in " << done.calls << " of " << budget << " "
            << unit;
  if (done.buckets_left)
    std::cout << "; " << done.buckets_left << " bucket(s) left (run again, or a larger --budget)";
  std::cout << "\n";
}

}  // namespace crosscheck::reduce
