#include "base/detail/hidden.hpp"

namespace fixture::base::detail {
int hidden() { return 1; }
}  // namespace fixture::base::detail
