// html_text.cpp: text made safe for the HTML report, and its style sheet (html_parts.hpp).
#include "report/detail/html_parts.hpp"
#include "report/escape.hpp"
#include "report/writers.hpp"

namespace crosscheck::report::html {

std::string text(std::string_view s, std::size_t max) {
  DisplayOptions o;
  o.keep_newlines = o.keep_tabs = false;
  o.max_chars = max;
  return html_text(s, o);
}
std::string block(std::string_view s, std::size_t max) {
  DisplayOptions o;
  o.max_chars = max;
  return html_text(s, o);
}
std::string attr(std::string_view s, std::size_t max) { return html_escape(display_line(s, max)); }
std::string code(std::string_view s, std::size_t max) { return "<code>" + text(s, max) + "</code>"; }
std::string code_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + code(items[i]);
  return s;
}
std::string anchor(const Bucket& b) { return "b-" + identifier(b.id); }

std::string outcome_cell(const core::ImplResult& r) {
  return "<span class=\"o-" + std::string(core::outcome_name(r.outcome)) + "\">" + text(outcome_text(r)) +
         "</span>";
}

const char* const kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1400px;padding:0 1.5em 3em;color:#1b1b1b;background:#fff}
h1{font-size:1.6em;margin:.8em 0 .3em}h2{font-size:1.3em;margin:1.8em 0 .5em;border-bottom:1px solid #ddd;padding-bottom:.2em}
h3{font-size:1.05em;margin:0 0 .4em}h4{margin:.6em 0 .3em;font-size:.95em}
code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:.6em;white-space:pre-wrap;word-break:break-all;overflow-wrap:anywhere;margin:.3em 0;max-height:32em;overflow:auto}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num,th.num{text-align:right}
.esc{background:#ffe9a8;color:#7a4b00;border-radius:2px;padding:0 1px}
.status{padding:.6em 1em;border-radius:6px;font-weight:600;margin:.5em 0}
.status.fail{background:#fdecea;color:#8e1c1c;border:1px solid #e6a5a5}.status.pass{background:#e8f5e9;color:#1b5e20;border:1px solid #a5d6a7}
.status.partial{background:#fff8e1;color:#7a5a00;border:1px solid #ffe082}
nav a{margin-right:1em}
.matrix td{text-align:center;min-width:6.5em;font-size:12.5px}.matrix th.root{text-align:left;font-weight:normal}
.cell-fail{background:#f4b4b4;color:#6b0f0f;font-weight:600}.cell-idef{background:#ffe08a;color:#5c4300}
.cell-known{background:#e1d5f0;color:#3f2a66}
.cell-ok{background:#c8e6c9;color:#1b5e20}.cell-na{background:#eee;color:#777}.cell-skew{background:#d6e4f5;color:#1d3c66}
.cell-unfuzzed{background:#fafafa;color:#999}
.matrix td a{color:inherit;text-decoration:none;display:block}
.bucket{border:1px solid #d0d7de;border-left:6px solid #999;border-radius:4px;padding:.7em 1em;margin:1em 0}
.bucket.fail{border-left-color:#c62828}.bucket.idef{border-left-color:#f9a825}.bucket.known{border-left-color:#7e57c2}
.badge{display:inline-block;border-radius:3px;padding:0 .4em;font-size:.85em;font-weight:600;margin-right:.4em}
.badge.fail{background:#c62828;color:#fff}.badge.idef{background:#f9a825;color:#222}.badge.known{background:#7e57c2;color:#fff}
.pair table{width:100%;table-layout:fixed}.pair th:nth-child(1),.pair th:nth-child(2){width:16%}
td code{white-space:pre-wrap;word-break:break-all;overflow-wrap:anywhere}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.2fr);gap:1em;align-items:start}
@media (max-width:900px){.pair{grid-template-columns:1fr}}
.caption{color:#555;font-size:.9em}
.o-accepted{color:#1b5e20;font-weight:600}.o-rejected{color:#0d47a1;font-weight:600}.o-unsupported{color:#777}
.o-error,.o-crash,.o-timeout,.o-protocol{color:#b71c1c;font-weight:700}
tr.deviating td{background:#fff3f3}tr.deviating td:first-child::after{content:" \2260";color:#c62828;font-weight:700}
.legend span{display:inline-block;padding:.1em .6em;margin-right:.5em;border-radius:3px}
tr.skewed td{background:#d6e4f5}
.note{color:#6a5200;background:#fffbea;border:1px solid #f0e1a0;padding:.3em .6em;margin:.3em 0;border-radius:4px}
svg text{font:11px system-ui,sans-serif;fill:#333}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;margin:.5em 0}dl.facts dt{color:#555}dl.facts dd{margin:0}
)css";

}  // namespace crosscheck::report::html
