#include "top/top.hpp"

#include "mid/mid.hpp"

namespace fixture::top {
int run() { return mid::twice(); }
}  // namespace fixture::top
