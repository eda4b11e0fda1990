// finding_writer.cpp: layer-3 findings as run-folder findings.
#include "layers/contextual/compare/finding_writer.hpp"

#include <algorithm>
#include <filesystem>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "interop/server_admission.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/replay.hpp"
#include "schema/sha256.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {
namespace {

using core::DivergenceClass;
using core::Outcome;

constexpr const char* kClientsRoot = "intercept_response";
constexpr const char* kServersRoot = "intercept_request";

core::Divergence divergence_of(const Difference& d) {
  auto cls = core::parse_class(d.cls);
  if (!cls) throw Fatal("internal: scenario difference of unknown class '" + d.cls + "'");
  core::Divergence x;
  x.cls = *cls;
  x.layer = run::kContextualLayer;
  x.implementations = d.involved;
  std::sort(x.implementations.begin(), x.implementations.end());
  x.detail = d.summary;
  x.implementation_defined = !d.implementation_defined.empty();
  x.signature = d.bucket;
  x.bucket = schema::sha256_hex(x.signature).substr(0, 16);
  return x;
}

/// A batch or server session that broke on the row: the implementation's own failure.
std::optional<core::Divergence> broken(const Row& row, const std::string& name, const std::string& status,
                                       const std::string& error) {
  DivergenceClass cls;
  if (status == "crash") {
    cls = DivergenceClass::kCrash;
  } else if (status == "timeout") {
    cls = DivergenceClass::kTimeout;
  } else if (status == "protocol") {
    cls = DivergenceClass::kProtocol;
  } else {
    return std::nullopt;
  }
  core::Divergence x;
  x.cls = cls;
  x.layer = run::kContextualLayer;
  x.implementations = {name};
  x.detail = name + ": " + status + (error.empty() ? "" : ": " + error);
  x.signature = status + "/" + event_type(row) + "/" + name;
  x.bucket = schema::sha256_hex(x.signature).substr(0, 16);
  return x;
}

Outcome outcome_of(const std::string& status, const std::string& answer) {
  if (answer == "derived" || answer == "admitted") return Outcome::kAccepted;
  if (answer == "rejected" || answer == "refused") return Outcome::kRejected;
  if (auto o = core::parse_outcome(status)) return *o;  // crash, timeout, protocol
  return Outcome::kUnsupported;                         // unsupported, inapplicable
}

run::Finding envelope(const Row& row, const char* root, const char* mode, const FindingContext& context) {
  run::Finding f;
  f.root = root;
  f.input = row.raw;
  f.source = context.scenario_file;
  f.scenario = run::ScenarioCase{
      mode, context.scenario_file, row.id, context.clients, context.client_config, context.schema, {}};
  return f;
}

const char* answer_name(Answer a) {
  return a == Answer::kDerived ? "derived" : a == Answer::kRejected ? "rejected" : "none";
}

}  // namespace

std::optional<run::Finding> row_finding(const Row& row, const std::vector<Difference>& differences,
                                        const ClientResults& results, const FindingContext& context) {
  run::Finding f = envelope(row, kClientsRoot, run::kScenarioClients, context);
  for (const auto& d : differences) f.divergences.push_back(divergence_of(d));
  for (const auto& [name, r] : results) {
    if (auto b = broken(row, name, r->status, r->error)) f.divergences.push_back(std::move(*b));
    run::ScenarioEntry e;
    e.implementation = name;
    e.status = r->status;
    e.answer = answer_name(answer_of(*r));
    ExpectationVerdict v = check_expectation(row, *r);
    if (v.applicable) e.expectation = v.text();
    if (!r->report_row.is_null()) e.report_row = r->report_row;
    e.notes = r->notes;
    e.batch = r->batch_dir;
    core::ImplResult x;
    x.implementation = name;
    x.outcome = outcome_of(e.status, e.answer);
    if (!r->actual.is_null()) x.encoded = json::write(r->actual);
    if (!r->error.empty()) x.message = r->error;
    f.results.push_back(std::move(x));
    f.scenario->entries.push_back(std::move(e));
  }
  if (f.divergences.empty()) return std::nullopt;
  return f;
}

std::optional<run::Finding> admission_finding(const Row& row, const std::vector<Difference>& differences,
                                              const AdmissionResults& results,
                                              const FindingContext& context) {
  run::Finding f = envelope(row, kServersRoot, run::kScenarioServers, context);
  for (const auto& d : differences) {
    f.divergences.push_back(divergence_of(d));
    for (const auto& t : d.implementation_defined)
      if (std::find(f.traits.begin(), f.traits.end(), t) == f.traits.end()) f.traits.push_back(t);
  }
  for (const auto& [name, a] : results) {
    if (auto b = broken(row, name, a->status, a->error)) f.divergences.push_back(std::move(*b));
    run::ScenarioEntry e;
    e.implementation = name;
    e.status = a->status;
    e.answer = a->status == "admitted" || a->status == "refused" ? a->status : "none";
    if (!a->answer.empty()) e.server_answer = a->answer;
    e.notes = a->notes;
    e.batch = a->session_dir;
    core::ImplResult x;
    x.implementation = name;
    x.outcome = outcome_of(e.status, e.answer);
    if (!a->error.empty()) x.message = a->error;
    f.results.push_back(std::move(x));
    f.scenario->entries.push_back(std::move(e));
  }
  if (f.divergences.empty()) return std::nullopt;
  return f;
}

std::string write_row_finding(run::FindingStore& store, run::Finding finding) {
  finding.replay =
      run::replay_command((std::filesystem::path(store.dir()) / run::finding_file_name(finding)).string());
  return store.write(finding);
}

}  // namespace crosscheck::scenario
