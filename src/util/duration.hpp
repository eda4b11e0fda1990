// duration.hpp: the one spelling of a time budget on the command line (--time, --time-per-fault, ...).
#pragma once

#include <string>

namespace crosscheck {

/// "90", "90s", "5m", "1h", "1h30m", "2m30s" -> seconds; Fatal naming `option` and the accepted forms.
double parse_duration(const std::string& option, const std::string& text);

}  // namespace crosscheck
