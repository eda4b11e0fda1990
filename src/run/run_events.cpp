// run_events.cpp: a fuzz run's events.jsonl lines (see run_events.hpp).
#include "run/run_events.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <set>

#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "verdict/verdict.hpp"

namespace crosscheck::run {
namespace {

/// "layers": the layers a point was taken in (none given: the member is left out).
void add_layers(json::Value& fields, const std::vector<std::string>& layers) {
  if (layers.empty()) return;
  json::Value list = json::Value::array();
  for (const auto& l : layers) list.push(json::Value::string(l));
  fields.add("layers", std::move(list));
}

/// The run's totals, as progress points and the end event both carry them.
json::Value totals_fields(const ProgressPoint& p) {
  json::Value f = json::Value::object();
  f.add("generated", count_value(p.generated));
  f.add("sent", count_value(p.sent));
  f.add("divergentInputs", count_value(p.divergent_inputs));
  f.add("contractInputs", count_value(p.contract_inputs));
  f.add("buckets", count_value(p.buckets));
  f.add("findings", count_value(p.findings));
  f.add("coverage", seconds_value(p.coverage));
  return f;
}

}  // namespace

ProgressPoint totals_of(const Summary& s) {
  ProgressPoint p;
  p.generated = s.generated;
  p.sent = s.sent;
  p.divergent_inputs = s.divergent_inputs;
  p.contract_inputs = s.contract_inputs;
  p.buckets = s.buckets;
  p.findings = s.findings.value_or(0);
  if (s.coverage)
    p.coverage = s.coverage->percent();
  else if (s.coverage_percent)
    p.coverage = *s.coverage_percent;
  return p;
}

int exit_code_of(std::uint64_t divergent_inputs, std::uint64_t contract_inputs, bool strict) {
  verdict::Verdict v;
  v.strict = strict;
  v.new_contract = contract_inputs;
  v.new_implementation_defined = divergent_inputs - contract_inputs;
  return v.exit_code();
}

RunEvents::RunEvents(const std::string& folder, std::ostream& log)
    : path_((std::filesystem::path(folder) / run::kEventLogFile).string()), log_(log) {}

void RunEvents::open(double elapsed_before) {
  elapsed_before_ = elapsed_before;
  events_ = std::make_unique<EventLog>(path_, elapsed_before);
  session_start_ = events_->elapsed();
}

double RunEvents::elapsed() const { return events_ ? events_->elapsed() : elapsed_before_; }

bool RunEvents::progress_due() const {
  auto every = events_->elapsed() - session_start_ < 120 ? std::chrono::seconds(2) : std::chrono::seconds(10);
  return std::chrono::steady_clock::now() - last_ >= every;
}

void RunEvents::append(std::string_view name, const json::Value& fields) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (events_->append(name, fields) || warned_) return;
  warned_ = true;  // the findings matter more than the log: warn once and go on
  log_ << "WARNING: the event log stops here (" << events_->error() << "); findings are still written\n";
}

void RunEvents::mark(double t, std::uint64_t generated, std::uint64_t sent) {
  last_ = std::chrono::steady_clock::now();
  last_t_ = t;
  last_generated_ = generated;
  last_sent_ = sent;
}

void RunEvents::start(std::uint64_t seed, const std::vector<std::string>& implementations,
                      const std::vector<std::string>& roots, bool resumed, std::uint64_t generated,
                      std::uint64_t sent) {
  json::Value f = json::Value::object();
  f.add("seed", count_value(seed));
  json::Value impls = json::Value::array();
  for (const auto& n : implementations) impls.push(json::Value::string(n));
  f.add("implementations", std::move(impls));
  json::Value list = json::Value::array();
  for (const auto& r : roots) list.push(json::Value::string(r));
  f.add("roots", std::move(list));
  f.add("resumed", json::Value::boolean(resumed));
  f.add("crosscheckVersion", json::Value::string(CROSSCHECK_VERSION));
  std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  f.add("startedAt", json::Value::string(stamp));
  append("start", f);
  mark(events_->elapsed(), generated, sent);
}

void RunEvents::progress(const ProgressPoint& p) {
  double t = events_->elapsed();
  double dt = std::max(t - last_t_, 1e-3);
  json::Value f = totals_fields(p);
  f.add("inputsPerSecond", seconds_value(static_cast<double>(p.generated - last_generated_) / dt));
  f.add("sentPerSecond", seconds_value(static_cast<double>(p.sent - last_sent_) / dt));
  f.add("dropped", count_value(p.dropped));
  add_layers(f, p.layers);
  append("progress", f);
  mark(t, p.generated, p.sent);
}

void RunEvents::continue_from(const ProgressPoint& p) { mark(events_->elapsed(), p.generated, p.sent); }

void RunEvents::finding(const Finding& f, const core::Divergence* first_new) {
  const core::Divergence& d = first_new ? *first_new : f.divergences.front();
  json::Value e = json::Value::object();
  e.add("file", json::Value::string(std::string(kFindingsDir) + "/" + finding_file_name(f)));
  e.add("bucket", json::Value::string(d.bucket));
  e.add("class", json::Value::string(core::class_name(d.cls)));
  e.add("layer", json::Value::string(d.layer));
  e.add("root", json::Value::string(f.root));
  std::set<std::string> involved;
  bool defined = true;
  json::Value buckets = json::Value::array();
  for (const auto& x : f.divergences) {
    involved.insert(x.implementations.begin(), x.implementations.end());
    defined = defined && x.implementation_defined;
    buckets.push(json::Value::string(x.bucket));
  }
  json::Value impls = json::Value::array();
  for (const auto& i : involved) impls.push(json::Value::string(i));
  e.add("implementations", std::move(impls));
  e.add("implementationDefined", json::Value::boolean(defined));
  e.add("newBucket", json::Value::boolean(first_new != nullptr));
  e.add("buckets", std::move(buckets));
  e.add("bytes", count_value(f.input.size()));
  append("finding", e);
}

void RunEvents::end(const ProgressPoint& totals, bool strict, bool interrupted) {
  json::Value f = totals_fields(totals);
  f.add("interrupted", json::Value::boolean(interrupted));
  f.add("exitCode", count_value(static_cast<std::uint64_t>(
                        exit_code_of(totals.divergent_inputs, totals.contract_inputs, strict))));
  add_layers(f, totals.layers);
  append("end", f);
}

}  // namespace crosscheck::run
