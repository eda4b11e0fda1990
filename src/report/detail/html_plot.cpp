// html_plot.cpp: the plot of a run in the HTML report (html_parts.hpp): inputs per second in
// process and sent to the adapters, findings and divergent inputs over time, with a tick per finding
// file and a dashed line where the run was resumed or moved on to layer 3.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "report/detail/html_parts.hpp"
#include "report/escape.hpp"
#include "report/writers.hpp"
#include "run/finding_file.hpp"

namespace crosscheck::report::html {
namespace {

struct Series {
  std::string name, colour;
  std::vector<std::pair<double, double>> points;  // (t, value)
};
struct Tick {
  double t;
  std::string colour, label;
};
/// A dashed line across a panel: the run was resumed, or moved on to another layer.
struct Mark {
  double t;
  std::string colour, label;
};

double nice_step(double range) {
  if (!(range > 0) || !std::isfinite(range)) return 1;
  double raw = range / 4;
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

std::string num(double x) { return format_fixed(x, 1); }

std::string svg_panel(const std::string& title, const std::vector<Series>& series, double t_max,
                      const std::vector<Mark>& marks, const std::vector<Tick>& ticks) {
  const double w = 900, h = 190, left = 64, right = 16, top = 26, bottom = 30;
  double y_max = 0;
  for (const auto& s : series) {
    for (const auto& [t, v] : s.points) y_max = std::max(y_max, v);
  }
  double y_step = nice_step(std::max(y_max, 1.0));
  y_max = std::ceil(std::max(y_max, 1.0) / y_step) * y_step;
  double x_step = nice_step(t_max);
  auto X = [&](double t) { return left + (w - left - right) * (t / t_max); };
  auto Y = [&](double v) { return h - bottom - (h - top - bottom) * (v / y_max); };
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) +
                  "\" viewBox=\"0 0 " + num(w) + " " + num(h) + "\" role=\"img\" aria-label=\"" +
                  attr(title) + "\">\n";
  s += "<text x=\"" + num(left) + "\" y=\"16\" font-weight=\"600\">" + text(title) + "</text>\n";
  for (double y = 0; y <= y_max + y_step / 2; y += y_step) {
    s += "<line x1=\"" + num(left) + "\" x2=\"" + num(w - right) + "\" y1=\"" + num(Y(y)) + "\" y2=\"" +
         num(Y(y)) + "\" stroke=\"#e5e5e5\"/><text x=\"" + num(left - 6) + "\" y=\"" + num(Y(y) + 4) +
         "\" text-anchor=\"end\">" + text(format_count(y)) + "</text>\n";
  }
  for (double t = 0; t <= t_max + x_step / 2; t += x_step) {
    s += "<line x1=\"" + num(X(t)) + "\" x2=\"" + num(X(t)) + "\" y1=\"" + num(top) + "\" y2=\"" +
         num(h - bottom) + "\" stroke=\"#f0f0f0\"/><text x=\"" + num(X(t)) + "\" y=\"" +
         num(h - bottom + 14) + "\" text-anchor=\"middle\">" + text(format_count(t)) + " s</text>\n";
  }
  for (const auto& m : marks) {
    s += "<line x1=\"" + num(X(m.t)) + "\" x2=\"" + num(X(m.t)) + "\" y1=\"" + num(top) + "\" y2=\"" +
         num(h - bottom) + "\" stroke=\"" + m.colour + "\" stroke-dasharray=\"4 3\"/><text x=\"" +
         num(X(m.t) + 3) + "\" y=\"" + num(top + 10) + "\" fill=\"" + m.colour + "\">" + text(m.label) +
         "</text>\n";
  }
  std::size_t drawn = 0;
  for (const auto& tick : ticks) {
    if (++drawn > 2000) break;
    s += "<line x1=\"" + num(X(tick.t)) + "\" x2=\"" + num(X(tick.t)) + "\" y1=\"" + num(h - bottom) +
         "\" y2=\"" + num(h - bottom - 8) + "\" stroke=\"" + tick.colour + "\" stroke-width=\"2\"><title>" +
         text(tick.label, 200) + "</title></line>\n";
  }
  double legend_x = w - right - 8;
  for (auto it = series.rbegin(); it != series.rend(); ++it) {
    std::string label = text(it->name);
    double width = 8.0 + 6.5 * static_cast<double>(it->name.size());
    legend_x -= width + 14;
    s += "<rect x=\"" + num(legend_x) + "\" y=\"8\" width=\"10\" height=\"10\" fill=\"" + it->colour +
         "\"/><text x=\"" + num(legend_x + 14) + "\" y=\"17\">" + label + "</text>\n";
  }
  for (const auto& ser : series) {
    if (ser.points.empty()) continue;
    if (ser.points.size() == 1) {
      s += "<circle cx=\"" + num(X(ser.points[0].first)) + "\" cy=\"" + num(Y(ser.points[0].second)) +
           "\" r=\"3\" fill=\"" + ser.colour + "\"/>\n";
      continue;
    }
    s += "<polyline fill=\"none\" stroke=\"" + ser.colour + "\" stroke-width=\"1.8\" points=\"";
    for (const auto& [t, v] : ser.points) s += num(X(t)) + "," + num(Y(v)) + " ";
    s += "\"/>\n";
  }
  s += "<line x1=\"" + num(left) + "\" x2=\"" + num(w - right) + "\" y1=\"" + num(h - bottom) + "\" y2=\"" +
       num(h - bottom) + "\" stroke=\"#888\"/>\n</svg>\n";
  return s;
}

double field(const json::Value& o, const char* key, bool& ok) {
  const json::Value* v = o.find(key);
  if (!v || !v->is_number()) {
    ok = false;
    return 0;
  }
  double d = std::strtod(v->number_text().c_str(), nullptr);
  if (!std::isfinite(d) || d < 0) ok = false;
  return d;
}

}  // namespace

std::string plot(const RunData& run) {
  Series in{"inputs/s (in process)", "#1565c0", {}}, sent{"inputs/s sent to adapters", "#2e7d32", {}};
  Series buckets{"buckets", "#c62828", {}}, files{"finding files", "#6d4c41", {}},
      divergent{"divergent inputs", "#f9a825", {}};
  std::vector<Mark> marks;
  std::vector<Tick> ticks;
  double t_max = 0;
  // Layer 3 runs after the adapters' layers: its first progress point (layers ["contextual"]) marks
  // the move, drawn where the previous point ended the earlier layers.
  bool in_layer3 = false;
  double last_progress = 0;
  for (const auto& e : run.events.events) {
    if (!std::isfinite(e.t) || e.t < 0 || e.t > 1e9) continue;
    t_max = std::max(t_max, e.t);
    bool ok = true;
    if (e.name == "progress") {
      bool layer3 = false;
      if (const json::Value* layers = e.fields.find("layers"); layers && layers->is_array())
        for (const auto& l : layers->items())
          layer3 = layer3 || (l.is_string() && l.string_value() == run::kContextualLayer);
      if (layer3 && !in_layer3)
        marks.push_back({in.points.empty() ? e.t : last_progress, "#00897b", "layer 3"});
      in_layer3 = layer3;
      last_progress = e.t;
      double a = field(e.fields, "inputsPerSecond", ok), b = field(e.fields, "sentPerSecond", ok);
      double bk = field(e.fields, "buckets", ok), dv = field(e.fields, "divergentInputs", ok);
      bool has_files = true;
      double fl = field(e.fields, "findings", has_files);
      if (!ok) continue;
      in.points.emplace_back(e.t, a);
      sent.points.emplace_back(e.t, b);
      buckets.points.emplace_back(e.t, bk);
      divergent.points.emplace_back(e.t, dv);
      if (has_files) files.points.emplace_back(e.t, fl);
    } else if (e.name == "start") {
      const json::Value* r = e.fields.find("resumed");
      if (r && r->is_bool() && r->as_bool()) marks.push_back({e.t, "#7e57c2", "resumed"});
      in_layer3 = false;  // a session starts with the adapters' layers
    } else if (e.name == "finding") {
      const json::Value* idef = e.fields.find("implementationDefined");
      const json::Value* fresh = e.fields.find("newBucket");
      const json::Value* file = e.fields.find("file");
      bool defined = idef && idef->is_bool() && idef->as_bool();
      bool is_new = fresh && fresh->is_bool() && fresh->as_bool();
      std::string colour = !is_new ? "#9e9e9e" : defined ? "#f9a825" : "#c62828";
      ticks.push_back(
          {e.t, colour, (file && file->is_string() ? file->string_value() : std::string("finding"))});
    }
  }
  if (in.points.empty()) {
    return "<p>No progress events in events.jsonl: nothing to plot.</p>\n";
  }
  t_max = std::max(t_max, 1.0);
  std::string s;
  s += svg_panel("Inputs per second in process (generation and C++ decoder)", {in}, t_max, marks, {});
  s += svg_panel("Inputs per second sent to the adapters", {sent}, t_max, marks, {});
  s += svg_panel("Findings (cumulative)", {buckets, files}, t_max, marks, ticks);
  s += "<p class=\"caption\">Ticks on the axis: finding files as they were written (red: a new bucket of "
       "contract divergences, amber: a new implementation-defined bucket, grey: another file of a known "
       "bucket; hover for the file), at every layer. Dashed lines: the run was resumed (violet), or moved on "
       "to layer 3 (green), whose rates are generated scenario rows per second, each run on every SDK "
       "client and the reference host. Rates are averages over the interval since the previous point (every "
       "2 s in the first two minutes, then every 10 s; at layer 3, one point per batch of rows).</p>\n";
  s += svg_panel("Divergent inputs (cumulative)", {divergent}, t_max, marks, {});
  return s;
}

}  // namespace crosscheck::report::html
