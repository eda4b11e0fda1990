// result_table.cpp: fixed-width columns, label first.
#include "report/result_table.hpp"

#include <algorithm>
#include <iomanip>

namespace crosscheck::report {

std::string outcome_cell(const core::ImplResult& r) {
  using core::Outcome;
  switch (r.outcome) {
    case Outcome::kAccepted: {
      bool warn = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                              [](const auto& d) { return d.severity == "warning"; });
      return warn ? "ok+w" : "ok";
    }
    case Outcome::kRejected:
      return "rej";
    case Outcome::kUnsupported:
      return "unsup";
    case Outcome::kError:
      return "ERR";
    case Outcome::kCrash:
      return "CRASH";
    case Outcome::kTimeout:
      return "TIMEOUT";
    case Outcome::kProtocol:
      return "PROTO";
  }
  return "?";
}

void ResultTable::add_row(std::string label, const core::PayloadResults& results, std::string verdict) {
  std::vector<std::string> cells;
  for (const auto& r : results.results) cells.push_back(outcome_cell(r));
  if (verdict.empty()) {
    verdict = results.divergences.empty() ? "agree" : "DIVERGE";
    if (!results.divergences.empty() && std::all_of(results.divergences.begin(), results.divergences.end(),
                                                    [](const auto& d) { return d.implementation_defined; })) {
      verdict = "impl-defined";
    }
  }
  add_row(std::move(label), std::move(cells), std::move(verdict));
}

void ResultTable::add_row(std::string label, std::vector<std::string> cells, std::string verdict) {
  rows_.push_back({std::move(label), std::move(cells), std::move(verdict)});
}

void ResultTable::print(std::ostream& out) const {
  std::size_t label_width = 7;
  for (const auto& r : rows_) label_width = std::max(label_width, std::min<std::size_t>(r.label.size(), 70));
  std::vector<std::size_t> widths;
  for (const auto& name : implementations_) widths.push_back(std::max<std::size_t>(name.size(), 7));
  out << std::left << std::setw(static_cast<int>(label_width)) << "payload";
  for (std::size_t i = 0; i < implementations_.size(); ++i)
    out << "  " << std::setw(static_cast<int>(widths[i])) << implementations_[i];
  out << "  verdict\n";
  for (const auto& r : rows_) {
    std::string label = r.label.size() > 70 ? "..." + r.label.substr(r.label.size() - 67) : r.label;
    out << std::setw(static_cast<int>(label_width)) << label;
    for (std::size_t i = 0; i < implementations_.size(); ++i) {
      out << "  " << std::setw(static_cast<int>(widths[i])) << (i < r.cells.size() ? r.cells[i] : "");
    }
    out << "  " << r.verdict << "\n";
  }
}

}  // namespace crosscheck::report
