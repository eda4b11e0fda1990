// rows_from_findings.cpp: scenario rows from layer-3 findings, with the reference host's expectation and a
// review list.
#include "layers/contextual/seed/rows_from_findings.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "interop/client_runner.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/host/host.hpp"
#include "layers/contextual/host/rule_coverage.hpp"
#include "run/finding_file.hpp"
#include "schema/sha256.hpp"
#include "util/result.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::scenario_seed {
namespace {

using json::Value;

/// One spelling per value up to member order: members sorted (duplicates kept, a lossless tree may
/// hold them), strings by their content, numbers exactly as written. Not json's canonical number: a
/// row can be about a spelling (an allowance of 1.0, a task of 4E0).
std::string key_text(const Value& v) {
  switch (v.kind()) {
    case json::Kind::kNumber:
      return v.number_text();
    case json::Kind::kString:
      return json::quote(v.string_value(), true);
    case json::Kind::kArray: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.items().size(); ++i) out += (i ? "," : "") + key_text(v.items()[i]);
      return out + "]";
    }
    case json::Kind::kObject: {
      std::vector<std::string> members;
      for (const auto& m : v.members()) members.push_back(json::quote(m.key, true) + ":" + key_text(m.value));
      std::sort(members.begin(), members.end());
      std::string out = "{";
      for (std::size_t i = 0; i < members.size(); ++i) out += (i ? "," : "") + members[i];
      return out + "}";
    }
    default:
      return json::write(v);
  }
}

Value* member(Value& v, std::string_view key) { return v.is_object() ? v.find(key) : nullptr; }
const Value* member(const Value& v, std::string_view key) { return v.is_object() ? v.find(key) : nullptr; }

Value* event_of(Value& request) {
  Value* params = member(request, "params");
  return params ? member(*params, "event") : nullptr;
}

/// Whether the response's id is the request's own (the row id, which the seeded row renames).
bool response_has_row_id(const Value& request, const Value& response) {
  const Value* rid = member(request, "id");
  const Value* sid = member(response, "id");
  return rid && sid && key_text(*rid) == key_text(*sid);
}

/// Puts `id` where the row id goes: request.id, params.event.id, and response.id when it was the
/// request's (a response answering another id keeps it: that is what such a row tests).
void set_row_id(Value& request, Value& response, const Value& id) {
  if (response_has_row_id(request, response)) *member(response, "id") = id;
  if (Value* r = member(request, "id"))
    *r = id;
  else if (request.is_object())
    request.add("id", id);
  if (Value* event = event_of(request)) {
    if (Value* e = member(*event, "id"))
      *e = id;
    else if (event->is_object())
      event->add("id", id);
  }
}

std::string says(const host::Applied& a) {
  if (a.accepted && a.host_accepted) return "accepted, " + json::write(a.result);
  if (a.accepted) return "SDK accepted, host refused (" + a.rule + "), " + json::write(a.result);
  return "rejected (" + a.rule + ")";
}

std::string expects(const scenario::Row& row) {
  if (row.expect_error()) return row.host_expected() ? "expectError with hostExpected" : "expectError";
  return "expected " + json::write(*row.expected());
}

/// The finding's SDK answers as client results (the report row when the finding kept it).
std::vector<std::pair<std::string, scenario::RowResult>> sdk_answers(const run::Finding& f) {
  std::vector<std::pair<std::string, scenario::RowResult>> out;
  for (const auto& x : f.results) {
    if (verdict::is_reference(x.implementation)) continue;
    const run::ScenarioEntry* entry = nullptr;
    if (f.scenario)
      for (const auto& e : f.scenario->entries)
        if (e.implementation == x.implementation) entry = &e;
    scenario::RowResult r;
    using core::Outcome;
    bool answered = x.outcome == Outcome::kAccepted || x.outcome == Outcome::kRejected;
    r.status = entry ? entry->status : answered ? "passed" : core::outcome_name(x.outcome);
    if (x.encoded) {
      auto parsed = json::parse(*x.encoded);
      if (parsed.ok()) r.actual = std::move(parsed.value());
    }
    if (x.outcome == Outcome::kRejected && r.actual.is_null()) {
      r.actual = Value::object();
      r.actual.add("rejected", Value::boolean(true));
    }
    if (entry && entry->report_row) r.report_row = *entry->report_row;
    out.emplace_back(x.implementation, std::move(r));
  }
  return out;
}

std::vector<Disagreement> disagreements(const run::Finding& f, const scenario::Row& row) {
  std::vector<Disagreement> out;
  for (const auto& [name, r] : sdk_answers(f)) {
    // Not comparable, and no claim about the row: the client does not take the boundary.
    if (r.status == "unsupported" || r.status == "inapplicable") continue;
    scenario::ExpectationVerdict v = scenario::check_expectation(row, r);
    if (v.applicable && v.met) continue;
    out.push_back(
        {name, r.status, r.actual, v.applicable ? v.text() : "answered nothing (" + r.status + ")"});
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.implementation < b.implementation; });
  return out;
}

std::vector<std::string> rule_tags(const host::Applied& a, const host::RuleCoverage& coverage) {
  if (!a.accepted || !a.host_accepted) return {"rule:" + a.rule};
  // An accepted row exercises the composition rules whose construct it composed.
  std::vector<std::string> out{"rule:accepted"};
  for (const auto& rule : host::rules()) {
    const host::RuleTally* t = coverage.find(rule.name);
    if (!rule.rejects && t && t->accepted) out.push_back("rule:" + rule.name);
  }
  return out;
}

/// The row's own tags, without those seeding writes itself, then seeded, boundary and rule tags.
Value tags_of(const Value& input, const Value& request, const std::vector<std::string>& rules) {
  std::vector<std::string> tags;
  if (const Value* own = member(input, "tags"); own && own->is_array())
    for (const auto& t : own->items())
      if (t.is_string() && t.string_value() != "seeded" && !t.string_value().starts_with("rule:") &&
          !t.string_value().starts_with("boundary:"))
        tags.push_back(t.string_value());
  tags.push_back("seeded");
  const Value* event = member(request, "params") ? member(*member(request, "params"), "event") : nullptr;
  if (const Value* type = event ? member(*event, "type") : nullptr; type && type->is_string())
    tags.push_back("boundary:" + type->string_value());
  tags.insert(tags.end(), rules.begin(), rules.end());
  Value list = Value::array();
  std::set<std::string> seen;
  for (const auto& t : tags)
    if (seen.insert(t).second) list.push(Value::string(t));
  return list;
}

[[noreturn]] void bad_input(const std::string& file, const std::string& why) {
  throw Fatal(file + ": field 'input': " + why +
              " (a layer-3 finding's input is a scenario row: an object with request and response)");
}

Value review_json(const std::string& out_path, const std::vector<SeededRow>& rows) {
  Value list = Value::array();
  for (const auto& s : rows) {
    Value x = Value::object();
    x.add("id", Value::string(s.id));
    x.add("finding", Value::string(s.finding));
    if (!s.origin.empty()) x.add("origin", Value::string(s.origin));
    Value reference = Value::object();
    reference.add("answer", Value::string(s.answer));
    reference.add("rule", s.rule.empty() ? Value::null() : Value::string(s.rule));
    reference.add("message", s.message.empty() ? Value::null() : Value::string(s.message));
    x.add("reference", std::move(reference));
    Value dis = Value::array();
    for (const auto& d : s.disagreements) {
      Value y = Value::object();
      y.add("implementation", Value::string(d.implementation));
      y.add("status", Value::string(d.status));
      y.add("actual", d.actual);
      y.add("verdict", Value::string(d.verdict));
      dis.push(std::move(y));
    }
    x.add("disagreements", std::move(dis));
    list.push(std::move(x));
  }
  Value o = Value::object();
  o.add("format", Value::string("crosscheck-scenario-review/1"));
  o.add("scenarioFile", Value::string(out_path));
  o.add("rows", std::move(list));
  return o;
}

struct Candidate {
  SeededRow seeded;
  scenario::Row row;
  std::string identity;
};

}  // namespace

std::string identity_text(const Value& request, const Value& response) {
  Value req = request, resp = response;
  bool own = response_has_row_id(req, resp);
  set_row_id(req, resp, Value::null());
  return "crosscheck-scenario-seed/1\nrequest " + key_text(req) + "\nresponse-id " +
         (own ? "row" : "its own") + "\nresponse " + key_text(resp);
}

std::string seeded_id(const Value& request, const Value& response) {
  return "seed-" + schema::sha256_hex(identity_text(request, response)).substr(0, 16);
}

SeedResult seed_scenarios(const canonical::CanonicalValidator& validator,
                          const std::vector<baseline::RunFinding>& findings,
                          const scenario::ScenarioFile* merge, const std::string& out_path) {
  SeedResult result;
  std::map<std::string, const scenario::Row*> existing_by_identity, existing_by_id;
  if (merge) {
    result.merged = merge->rows.size();
    for (const auto& r : merge->rows) {
      existing_by_identity.emplace(identity_text(r.request(), r.response()), &r);
      existing_by_id.emplace(r.id, &r);
    }
  }
  std::map<std::string, Candidate> seeded;    // by identity
  std::map<std::string, SeededRow> repeated;  // rows of the merge file a finding repeats, by id
  std::vector<std::string> conflicts;
  for (const auto& rf : findings) {
    const run::Finding& f = rf.best();
    const std::string& path = rf.best_path();
    bool contextual =
        f.scenario.has_value() || std::any_of(f.divergences.begin(), f.divergences.end(),
                                              [](const auto& d) { return d.layer == run::kContextualLayer; });
    if (!contextual) {
      ++result.skipped["not a layer-3 finding"];
      continue;
    }
    if (f.scenario && f.scenario->mode == run::kScenarioServers) {
      ++result.skipped["request admission (--servers): no response under test"];
      continue;
    }
    auto parsed = json::parse(f.input);
    if (!parsed.ok()) bad_input(path, "not JSON: " + parsed.error().message());
    Value input = std::move(parsed.value());
    if (!input.is_object()) bad_input(path, "not a JSON object");
    const Value* request_in = member(input, "request");
    const Value* response_in = member(input, "response");
    if (!request_in || !request_in->is_object()) bad_input(path, "no request object");
    if (!response_in) bad_input(path, "no response");

    Value request = *request_in, response = *response_in;
    const std::string id = seeded_id(request, response);
    set_row_id(request, response, Value::string(id));
    host::RuleCoverage coverage;
    host::Applied a = host::apply(validator, request, response, &coverage);
    if (a.rule == host::kRequestCanonical) {
      ++result.skipped["request not canonical on the snapshot (the reference host has no answer)"];
      continue;
    }

    Candidate c;
    SeededRow& s = c.seeded;
    s.id = id;
    s.finding = path;
    if (f.scenario)
      s.origin = std::filesystem::path(f.scenario->file).filename().string() + " row " + f.scenario->id;
    s.answer = a.accepted && a.host_accepted ? "accepted" : a.accepted ? "host-refused" : "rejected";
    s.rule = a.rule;
    s.message = s.answer == "accepted" ? "" : a.message;
    Value row = Value::object();
    row.add("id", Value::string(id));
    std::string comment =
        "Seeded by crosscheck scenarios seed from " + std::filesystem::path(path).filename().string() +
        (s.origin.empty() ? "" : " (" + s.origin + ")") + "; the reference host: " +
        (s.answer == "accepted" ? "accepted" : s.answer + ", " + a.rule + " (" + a.message + ")");
    row.add("comment", Value::string(comment));
    row.add("tags", tags_of(input, request, rule_tags(a, coverage)));
    row.add("request", std::move(request));
    row.add("response", std::move(response));
    if (a.accepted && a.host_accepted) {
      row.add("expected", a.result);
    } else {
      row.add("expectError", Value::boolean(true));
      if (a.accepted) row.add("hostExpected", a.result);
    }
    s.text = json::write(row);
    auto one = scenario::parse_scenario_text("{\"version\": 1, \"scenarios\": [" + s.text + "]}", path);
    if (!one.ok())
      throw Fatal("internal: the row seeded from " + path +
                  " breaks the scenario format: " + one.error().text());
    c.row = std::move(one.value().rows.front());
    s.disagreements = disagreements(f, c.row);
    c.identity = identity_text(c.row.request(), c.row.response());

    if (auto old = existing_by_identity.find(c.identity); old != existing_by_identity.end()) {
      // The existing row has the same request and response, so the reference host's answer on it is
      // the seeded row's; it is a duplicate when that answer meets its expectation.
      if (scenario::check_expectation(*old->second, scenario::reference_result(validator, *old->second))
              .met) {
        ++result.duplicates;
        SeededRow again = c.seeded;
        again.id = old->second->id;
        // The same row from several findings: the smallest file name, as for added rows.
        if (!again.disagreements.empty() &&
            (!repeated.count(again.id) || again.finding < repeated[again.id].finding))
          repeated[again.id] = std::move(again);
        continue;
      }
      conflicts.push_back(merge->path + ": row " + old->second->id + " " + expects(*old->second) +
                          ", but the reference host says " + says(a) +
                          " for the same request and response (seeded id " + id + " from " + path + ")");
      continue;
    }
    if (auto old = existing_by_id.find(id); old != existing_by_id.end()) {
      conflicts.push_back(merge->path + ": row " + old->second->id +
                          " has the seeded id but another request or response (seeded id " + id + " from " +
                          path + ")");
      continue;
    }
    if (auto same = seeded.find(c.identity); same != seeded.end()) {
      ++result.duplicates;
      // The smallest file name stands for the row, whatever order the findings were listed in.
      if (path < same->second.seeded.finding) same->second = std::move(c);
      continue;
    }
    std::string key = c.identity;
    seeded.emplace(std::move(key), std::move(c));
  }
  if (!conflicts.empty()) {
    std::sort(conflicts.begin(), conflicts.end());
    std::string message = "scenarios seed: " + std::to_string(conflicts.size()) +
                          " conflicting expectation(s); nothing written:";
    for (std::size_t i = 0; i < conflicts.size() && i < 10; ++i) message += "\n  " + conflicts[i];
    if (conflicts.size() > 10) message += "\n  ... and " + std::to_string(conflicts.size() - 10) + " more";
    throw Fatal(message);
  }

  std::vector<const Candidate*> added;
  for (const auto& [identity, c] : seeded) added.push_back(&c);
  std::sort(added.begin(), added.end(),
            [](const Candidate* a, const Candidate* b) { return a->seeded.id < b->seeded.id; });
  std::vector<const scenario::Row*> rows;
  if (merge)
    for (const auto& r : merge->rows) rows.push_back(&r);
  for (const Candidate* c : added) {
    rows.push_back(&c->row);
    result.added.push_back(c->seeded);
    if (!c->seeded.disagreements.empty()) result.review.push_back(c->seeded);
  }
  for (auto& [id, r] : repeated) result.review.push_back(std::move(r));
  std::sort(result.review.begin(), result.review.end(),
            [](const SeededRow& a, const SeededRow& b) { return a.id < b.id; });
  result.scenario_text = scenario::scenario_file_text(rows);
  // Through the one reader: the format's schema and its row checks (ids unique, request ids the row's).
  if (auto check = scenario::parse_scenario_text(result.scenario_text, out_path); !check.ok())
    throw Fatal("internal: the seeded scenario file breaks the format: " + check.error().text() +
                "; nothing written");
  json::WriteOptions pretty;
  pretty.indent = 2;
  result.review_text = json::write(review_json(out_path, result.review), pretty) + "\n";
  return result;
}

}  // namespace crosscheck::scenario_seed
