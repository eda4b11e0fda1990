// rule_coverage_file.cpp: the rule coverage table and rule-coverage.json (rule_coverage_file.hpp).
#include "coverage/rule_coverage_file.hpp"

#include <algorithm>
#include <cstdio>

#include "layers/contextual/host/host.hpp"
#include "run/json_file.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario_gen {

const std::vector<ImpossibleWay>& impossible_ways() {
  static const std::vector<ImpossibleWay> list = {
      {host::kRequestCanonical, false,
       "generated requests are canonical by construction: a non-canonical request is layer 2's edge, and "
       "scenarios run answers it inapplicable rather than running it"},
      {host::kModifyValue, false,
       "the canonical intercept-response schema ties the input, response and workspace targets to their "
       "value contracts, so a wrong value is response-canonical; only content (CanonicalMessages at "
       "user.message.outbound, FormAnswers at user.elicitation.result) depends on the boundary, and "
       "neither is one the interop clients' synthetic hosts apply"},
      {host::kReturnValue, false,
       "the return boundaries whose contract a value can break (model.request.before, "
       "context.compact.before, user.elicitation.request) are not among those the interop clients' "
       "synthetic hosts apply; tool.before takes any value"},
  };
  return list;
}

std::vector<std::string> RuleCoverageSummary::missing() const {
  std::vector<std::string> out;
  for (const RuleLine& r : rules) {
    if (r.accepted_possible && !r.accepted) out.push_back(r.rule + " accepted");
    if (r.rejected_possible && !r.rejected) out.push_back(r.rule + " rejected");
  }
  return out;
}

RuleCoverageSummary summarize(const host::RuleCoverage& coverage, std::uint64_t rows) {
  RuleCoverageSummary s;
  s.rows = rows;
  for (const host::Rule& rule : host::rules()) {
    RuleLine line;
    line.rule = rule.name;
    line.rejects = rule.rejects;
    if (const host::RuleTally* t = coverage.find(rule.name)) {
      line.accepted = t->accepted;
      line.rejected = t->rejected;
    }
    for (const ImpossibleWay& w : impossible_ways())
      if (w.rule == rule.name) (w.accepted ? line.accepted_possible : line.rejected_possible) = false;
    s.possible += line.accepted_possible + line.rejected_possible;
    s.reached += (line.accepted_possible && line.accepted) + (line.rejected_possible && line.rejected);
    s.rules.push_back(std::move(line));
  }
  return s;
}

RuleCoverageSummary join_rule_coverage(const RuleCoverageSummary& a, const RuleCoverageSummary& b,
                                       bool take_max) {
  auto join = [take_max](std::uint64_t x, std::uint64_t y) { return take_max ? std::max(x, y) : x + y; };
  host::RuleCoverage none;
  RuleCoverageSummary out = summarize(none, join(a.rows, b.rows));
  out.reached = 0;
  for (RuleLine& line : out.rules) {
    for (const RuleCoverageSummary* side : {&a, &b}) {
      for (const RuleLine& l : side->rules) {
        if (l.rule != line.rule) continue;
        line.accepted = join(line.accepted, l.accepted);
        line.rejected = join(line.rejected, l.rejected);
      }
    }
    out.reached += (line.accepted_possible && line.accepted) + (line.rejected_possible && line.rejected);
  }
  return out;
}

void print_rule_coverage(std::ostream& out, const RuleCoverageSummary& s) {
  out << "rule coverage of the reference host (" << s.rows << " rows):\n";
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "  %-28s %10s %10s\n", "rule", "accepted", "rejected");
  out << buffer;
  for (const RuleLine& r : s.rules) {
    auto cell = [](bool possible, std::uint64_t n) {
      return possible ? std::to_string(n) + (n ? "" : " !") : std::string("-");
    };
    std::snprintf(buffer, sizeof buffer, "  %-28s %10s %10s\n", r.rule.c_str(),
                  cell(r.accepted_possible, r.accepted).c_str(),
                  cell(r.rejected_possible, r.rejected).c_str());
    out << buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.1f", s.percent());
  out << s.reached << " of " << s.possible << " possible ways reached (" << buffer << "%)";
  std::vector<std::string> missing = s.missing();
  if (!missing.empty()) {
    out << "; missing:";
    for (const auto& m : missing) out << " " << m << ";";
  }
  out << "\n";
  for (const ImpossibleWay& w : impossible_ways())
    out << "  impossible: " << w.rule << (w.accepted ? " accepted" : " rejected") << ": " << w.why << "\n";
}

json::Value rule_coverage_json(const RuleCoverageSummary& s) {
  using json::Value;
  Value rules = Value::array();
  for (const RuleLine& r : s.rules) {
    Value line = Value::object();
    line.add("rule", Value::string(r.rule));
    line.add("rejects", Value::boolean(r.rejects));
    line.add("accepted", r.accepted_possible ? run::count_value(r.accepted) : Value::null());
    line.add("rejected", r.rejected_possible ? run::count_value(r.rejected) : Value::null());
    rules.push(std::move(line));
  }
  Value impossible = Value::array();
  for (const ImpossibleWay& w : impossible_ways()) {
    Value way = Value::object();
    way.add("rule", Value::string(w.rule));
    way.add("way", Value::string(w.accepted ? "accepted" : "rejected"));
    way.add("why", Value::string(w.why));
    impossible.push(std::move(way));
  }
  Value missing = Value::array();
  for (const auto& m : s.missing()) missing.push(Value::string(m));
  Value out = Value::object();
  out.add("format", Value::string("crosscheck-rule-coverage/1"));
  out.add("rows", run::count_value(s.rows));
  out.add("possible", run::count_value(s.possible));
  out.add("reached", run::count_value(s.reached));
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f", s.percent());
  out.add("percent", Value::number(percent));
  out.add("rules", std::move(rules));
  out.add("missing", std::move(missing));
  out.add("impossible", std::move(impossible));
  return out;
}

void write_rule_coverage(const std::string& path, const RuleCoverageSummary& summary) {
  run::write_json_file(path, rule_coverage_json(summary), 2);
}

RuleCoverageSummary read_rule_coverage(const std::string& path) {
  json::Value doc = run::read_json_object(path);
  if (doc.is_null()) throw Fatal(path + ": no such file");
  run::require_schema(path, doc, "rule-coverage.schema.json");
  RuleCoverageSummary s;
  s.rows = run::count_of(*doc.find("rows"));
  s.possible = run::count_of(*doc.find("possible"));
  s.reached = run::count_of(*doc.find("reached"));
  for (const json::Value& r : doc.find("rules")->items()) {
    RuleLine line;
    line.rule = r.find("rule")->string_value();
    line.rejects = r.find("rejects")->as_bool();
    const json::Value* a = r.find("accepted");
    const json::Value* j = r.find("rejected");
    line.accepted_possible = !a->is_null();
    line.rejected_possible = !j->is_null();
    line.accepted = a->is_null() ? 0 : run::count_of(*a);
    line.rejected = j->is_null() ? 0 : run::count_of(*j);
    s.rules.push_back(std::move(line));
  }
  return s;
}

}  // namespace crosscheck::scenario_gen
