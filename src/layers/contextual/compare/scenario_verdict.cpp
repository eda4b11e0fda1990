// scenario_verdict.cpp: layer-3 verdicts.
#include "layers/contextual/compare/scenario_verdict.hpp"

#include <algorithm>

#include "core/impl_result.hpp"
#include "interop/server_admission.hpp"
#include "json/equal.hpp"
#include "layers/contextual/host/host.hpp"

namespace crosscheck::scenario {
namespace {

bool is_rejection(const json::Value& actual) {
  if (!actual.is_object() || actual.members().size() != 1) return false;
  const json::Value* r = actual.find("rejected");
  return r && r->is_bool() && r->as_bool();
}

bool is_placeholder(const json::Value* v) {
  return !v || v->is_null() || (v->is_object() && v->members().empty());
}

bool same(const json::Value* a, const json::Value* b) {
  if (!a || !b) return !a && !b;
  return json::semantically_equal(*a, *b);
}

std::string join(const std::vector<std::string>& items, const char* sep = ",") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

bool input_tolerated(const Row& row, const json::Value* a, const json::Value* b) {
  if (event_type(row) == "tool.before") return false;
  const json::Value* expected = row.expected();
  if (expected && expected->contains("input")) return false;
  return is_placeholder(a) && is_placeholder(b);
}

const json::Value* member(const RowResult& r, const std::string& key) {
  return r.actual.is_object() ? r.actual.find(key) : nullptr;
}

// The choices behind `keys` when every one of them is a key the contract leaves open for this row
// (host::open_keys), else none: a difference on open keys alone is implementation-defined.
std::vector<std::string> open_choices(const std::vector<host::OpenKey>& open,
                                      const std::vector<std::string>& keys) {
  std::vector<std::string> choices;
  for (const auto& key : keys) {
    auto it = std::find_if(open.begin(), open.end(), [&](const host::OpenKey& o) { return o.key == key; });
    if (it == open.end()) return {};
    choices.push_back(it->choice);
  }
  return choices;
}

// "/prior-state" when the request carries state from earlier in the occurrence (state.flow, even none;
// state.instructions; state.injections): an implementation that drops or refuses that state differs on
// the same keys as one that composes this response wrongly, and the two are different faults, so
// their buckets (and the baseline entries that know them) stay apart.
std::string prior_state_suffix(const Row& row) {
  const json::Value* params = row.request().find("params");
  const json::Value* state = params && params->is_object() ? params->find("state") : nullptr;
  if (!state || !state->is_object()) return "";
  for (const char* member : {"flow", "instructions", "injections"})
    if (state->contains(member)) return "/prior-state";
  return "";
}

void mark_implementation_defined(Difference& d, std::vector<std::string> choices) {
  if (choices.empty()) return;
  d.implementation_defined = std::move(choices);
  d.bucket += "/implementation-defined";
  d.summary += " [implementation-defined: " + join(d.implementation_defined, ", ") + "]";
}

}  // namespace

const std::vector<std::string>& result_keys() {
  static const std::vector<std::string> keys = {"decision",
                                                "executed",
                                                "input",
                                                "messages",
                                                "result",
                                                "flow",
                                                "continuationInstructions",
                                                "continuationRemaining",
                                                "injections"};
  return keys;
}

std::string event_type(const Row& row) {
  const json::Value* params = row.request().find("params");
  const json::Value* event = params && params->is_object() ? params->find("event") : nullptr;
  const json::Value* type = event && event->is_object() ? event->find("type") : nullptr;
  return type && type->is_string() ? type->string_value() : "";
}

Answer answer_of(const RowResult& r) {
  if (r.status != "passed" && r.status != "failed") return Answer::kNone;
  if (r.actual.is_null() || is_rejection(r.actual)) return Answer::kRejected;
  return r.actual.is_object() ? Answer::kDerived : Answer::kRejected;
}

std::string ExpectationVerdict::text() const {
  if (met) return "met";
  if (kind == "rejected") return "rejected the response where a result was expected";
  if (kind == "derived") return "derived a result where a rejection was expected";
  if (kind == "keys") return "differs from expected on " + join(keys, ", ");
  if (kind == "unasserted") return "reports unasserted " + join(keys, ", ");
  return kind;
}

ExpectationVerdict check_expectation(const Row& row, const RowResult& r) {
  ExpectationVerdict v;
  Answer answer = answer_of(r);
  if (answer == Answer::kNone) return v;
  v.applicable = true;
  if (row.expect_error()) {
    if (answer == Answer::kRejected) {
      v.met = true;
      return v;
    }
    // An application-invalid row: the SDK accepts, the host refuses, and says so.
    const json::Value* host = row.host_expected();
    const json::Value* sdk = r.report_row.is_object() ? r.report_row.find("sdkAccepted") : nullptr;
    const json::Value* accepted = r.report_row.is_object() ? r.report_row.find("hostAccepted") : nullptr;
    if (host && host->is_object() && sdk && sdk->is_bool() && sdk->as_bool() && accepted &&
        accepted->is_bool() && !accepted->as_bool()) {
      for (const auto& m : host->members()) {
        if (m.key == "sdkAccepted" || m.key == "hostAccepted" || m.key == "rejectionLayer") continue;
        if (!same(&m.value, member(r, m.key))) v.keys.push_back(m.key);
      }
      v.met = v.keys.empty();
      if (!v.met) v.kind = "keys";
      return v;
    }
    v.kind = "derived";
    return v;
  }
  if (answer == Answer::kRejected) {
    v.kind = "rejected";
    return v;
  }
  const json::Value* expected = row.expected();
  if (expected && expected->is_object()) {
    for (const auto& m : expected->members()) {
      if (!same(&m.value, member(r, m.key))) v.keys.push_back(m.key);
    }
  }
  if (!v.keys.empty()) {
    v.kind = "keys";
    return v;
  }
  for (const char* key :
       {"result", "flow", "injections", "continuationInstructions", "continuationRemaining", "rejected"}) {
    if (member(r, key) && !(expected && expected->contains(key))) v.keys.push_back(key);
  }
  v.met = v.keys.empty();
  if (!v.met) v.kind = "unasserted";
  return v;
}

std::vector<Difference> compare_row(const Row& row, const ClientResults& results) {
  std::vector<Difference> out;
  std::string type = event_type(row);
  const std::vector<host::OpenKey> open = host::open_keys(row.request(), row.response());
  const std::string prior = prior_state_suffix(row);
  // The reference host, when it runs, is first and answered something comparable.
  const RowResult* reference = nullptr;
  if (!results.empty() && results.front().first == core::kReferenceImplementation &&
      answer_of(*results.front().second) != Answer::kNone)
    reference = results.front().second;
  std::vector<std::pair<std::string, const RowResult*>> derived, rejected;
  for (const auto& [name, r] : results) {
    Answer a = answer_of(*r);
    if (a == Answer::kDerived) derived.emplace_back(name, r);
    if (a == Answer::kRejected) rejected.emplace_back(name, r);
  }
  if (!derived.empty() && !rejected.empty()) {
    Difference d;
    d.cls = "contextual-acceptance";
    std::vector<std::string> parts;
    for (const auto& [name, r] : results) {
      Answer a = answer_of(*r);
      if (a == Answer::kNone) continue;
      d.clients.push_back(name);
      parts.push_back(name + "=" + (a == Answer::kDerived ? "derived" : "rejected"));
    }
    d.involved = d.clients;
    d.bucket = d.cls + "/" + type + "/" + join(parts) + prior;
    d.summary = join(parts, ", ");
    if (reference) {
      // Blame follows the contract: the clients whose answer differs from the reference's.
      d.clients.clear();
      for (const auto& [name, r] : results)
        if (r != reference && answer_of(*r) != Answer::kNone && answer_of(*r) != answer_of(*reference))
          d.clients.push_back(name);
      d.summary += " (deviating from the reference: " + join(d.clients, ", ") + ")";
    }
    out.push_back(std::move(d));
  }
  auto differing_keys = [&](const RowResult& a, const RowResult& b) {
    std::vector<std::string> keys;
    for (const auto& key : result_keys()) {
      const json::Value* x = member(a, key);
      const json::Value* y = member(b, key);
      if (same(x, y) || (key == "input" && input_tolerated(row, x, y))) continue;
      keys.push_back(key);
    }
    return keys;
  };
  if (derived.size() >= 2 && reference && answer_of(*reference) == Answer::kDerived) {
    Difference d;
    d.cls = "contextual-result";
    std::vector<std::string> keys;
    for (const auto& [name, r] : derived) {
      if (r == reference) continue;
      auto differ = differing_keys(*reference, *r);
      if (differ.empty()) continue;
      d.clients.push_back(name);
      for (const auto& k : differ)
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    for (const auto& key : result_keys())  // in the contract's order
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) d.keys.push_back(key);
    if (!d.keys.empty()) {
      d.involved = d.clients;
      d.involved.insert(d.involved.begin(), results.front().first);
      d.bucket = d.cls + "/" + type + "/" + join(d.keys) + prior;
      d.summary = join(d.clients, ", ") + (d.clients.size() == 1 ? " differs" : " differ") +
                  " from the reference on " + join(d.keys, ", ");
      mark_implementation_defined(d, open_choices(open, d.keys));
      out.push_back(std::move(d));
    }
  } else if (derived.size() >= 2) {
    Difference d;
    d.cls = "contextual-result";
    for (const auto& key : result_keys()) {
      const json::Value* first = member(*derived.front().second, key);
      for (std::size_t i = 1; i < derived.size(); ++i) {
        const json::Value* other = member(*derived[i].second, key);
        if (same(first, other) || (key == "input" && input_tolerated(row, first, other))) continue;
        d.keys.push_back(key);
        break;
      }
    }
    if (!d.keys.empty()) {
      for (const auto& [name, r] : derived) d.clients.push_back(name);
      d.involved = d.clients;
      d.bucket = d.cls + "/" + type + "/" + join(d.keys) + prior;
      d.summary = join(d.clients, " vs ") + " differ on " + join(d.keys, ", ");
      out.push_back(std::move(d));
    }
  }
  for (const auto& [name, r] : results) {
    ExpectationVerdict v = check_expectation(row, *r);
    if (!v.applicable || v.met) continue;
    Difference d;
    d.cls = "contextual-expectation";
    d.clients = {name};
    d.involved = {name};
    d.keys = v.keys;
    d.bucket =
        d.cls + "/" + name + "/" + type + "/" + v.kind + (v.keys.empty() ? "" : ":" + join(v.keys)) + prior;
    d.summary = name + " " + v.text();
    if (v.kind == "keys" || v.kind == "unasserted")
      mark_implementation_defined(d, open_choices(open, v.keys));
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Difference> compare_admission(const Row& row, const AdmissionResults& results) {
  std::vector<std::string> parts, involved;
  std::size_t admitted = 0, refused = 0;
  for (const auto& [name, a] : results) {
    if (a->status != "admitted" && a->status != "refused") continue;
    ++(a->status == "admitted" ? admitted : refused);
    parts.push_back(name + "=" + a->status);
    involved.push_back(name);
  }
  if (!admitted || !refused) return {};
  Difference d;
  d.cls = "request-admission";
  d.involved = std::move(involved);
  const Admission* reference = results.empty() ? nullptr : results.front().second;
  bool reference_answered = reference && (reference->status == "admitted" || reference->status == "refused");
  for (std::size_t i = reference_answered ? 1 : 0; i < results.size(); ++i) {
    const Admission* a = results[i].second;
    if (a->status != "admitted" && a->status != "refused") continue;
    if (!reference_answered || a->status != reference->status) d.clients.push_back(results[i].first);
  }
  if (reference_answered) d.implementation_defined = reference->traits;
  d.bucket = d.cls + "/" + event_type(row) + "/" + join(parts) +
             (d.implementation_defined.empty() ? "" : "/implementation-defined");
  d.summary = join(parts, ", ");
  if (reference_answered) d.summary += " (deviating from the reference: " + join(d.clients, ", ") + ")";
  if (!d.implementation_defined.empty())
    d.summary += " [implementation-defined: " + join(d.implementation_defined, ", ") + "]";
  return {std::move(d)};
}

}  // namespace crosscheck::scenario
