// result_table.hpp: the terminal table of per-implementation outcomes (one row per payload or case).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/impl_result.hpp"
#include "core/payload_results.hpp"

namespace crosscheck::report {

/// Short cell text: "ok", "ok+w" (accepted with a warning), "rej", "unsup", "ERR", "CRASH", "TIMEOUT",
/// "PROTO".
std::string outcome_cell(const core::ImplResult& r);

class ResultTable {
 public:
  explicit ResultTable(std::vector<std::string> implementations)
      : implementations_(std::move(implementations)) {}
  void add_row(std::string label, const core::PayloadResults& results, std::string verdict = "");
  void add_row(std::string label, std::vector<std::string> cells, std::string verdict);
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> implementations_;
  struct Row {
    std::string label;
    std::vector<std::string> cells;
    std::string verdict;
  };
  std::vector<Row> rows_;
};

}  // namespace crosscheck::report
