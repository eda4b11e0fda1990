#include "mid/mid.hpp"
// A mention of base::detail in a comment is no violation.
#include <string>
