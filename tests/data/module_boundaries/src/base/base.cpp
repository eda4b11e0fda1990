#include "base/base.hpp"

#include "base/detail/hidden.hpp"

namespace fixture::base {
int value() { return detail::hidden(); }
}  // namespace fixture::base
