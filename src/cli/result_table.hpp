// result_table.hpp: the terminal table of per-implementation outcomes is src/report/result_table.hpp;
// the verbs that print one (run, matrix, ...) name it here.
#pragma once

#include "report/result_table.hpp"

namespace crosscheck::cli {
using report::ResultTable;
}  // namespace crosscheck::cli
