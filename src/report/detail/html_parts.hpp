// html_parts.hpp: what the HTML report's files share: text made safe for the page (every string from
// the run folder goes through these), the style sheet, and the plot of the run's events. Internal to
// report: html_report.cpp writes the page, html_text.cpp and html_plot.cpp hold these.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "report/run_data.hpp"  // RunData, Bucket and core::ImplResult (through src/run)

namespace crosscheck::report::html {

/// Inline text (one line, escapes marked).
std::string text(std::string_view s, std::size_t max = 0);
/// A block of text for <pre> (line breaks kept).
std::string block(std::string_view s, std::size_t max = 0);
/// A double-quoted attribute value (no markup at all, not even the escape spans).
std::string attr(std::string_view s, std::size_t max = 300);
std::string code(std::string_view s, std::size_t max = 0);
std::string code_list(const std::vector<std::string>& items);
std::string anchor(const Bucket& b);
std::string outcome_cell(const core::ImplResult& r);

/// The page's style sheet.
extern const char* const kStyle;

/// Throughput and findings over the run, as inline SVG panels from events.jsonl.
std::string plot(const RunData& run);

}  // namespace crosscheck::report::html
