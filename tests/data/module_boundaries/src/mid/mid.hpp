#pragma once
#include "base/base.hpp"
namespace fixture::mid {
inline int twice() { return 2 * base::value(); }
}  // namespace fixture::mid
