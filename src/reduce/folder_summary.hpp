// folder_summary.hpp: the last lines of `crosscheck reduce DIR`, the same for every layer's reducer.
#pragma once

#include <cstddef>
#include <iostream>

namespace crosscheck::reduce {

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
