// run_events.cpp: the campaign's events.jsonl lines (see run_events.hpp).
#include "campaign/run_events.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <set>

#include "campaign/json_numbers.hpp"

namespace crosscheck::campaign {

RunEvents::RunEvents(const std::string& folder, std::ostream& log)
    : path_((std::filesystem::path(folder) / run::kEventLogFile).string()), log_(log) {}

void RunEvents::open(double elapsed_before) {
  elapsed_before_ = elapsed_before;
  events_ = std::make_unique<run::EventLog>(path_, elapsed_before);
}

double RunEvents::elapsed() const { return events_ ? events_->elapsed() : elapsed_before_; }

bool RunEvents::progress_due() const {
  auto every =
      events_->elapsed() - elapsed_before_ < 120 ? std::chrono::seconds(2) : std::chrono::seconds(10);
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
  f.add("seed", json_count(seed));
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
  json::Value f = json::Value::object();
  f.add("generated", json_count(p.generated));
  f.add("sent", json_count(p.sent));
  f.add("divergentInputs", json_count(p.divergent_inputs));
  f.add("contractInputs", json_count(p.contract_inputs));
  f.add("buckets", json_count(p.buckets));
  f.add("findings", json_count(p.findings));
  f.add("coverage", json_rate(p.coverage));
  f.add("inputsPerSecond", json_rate(static_cast<double>(p.generated - last_generated_) / dt));
  f.add("sentPerSecond", json_rate(static_cast<double>(p.sent - last_sent_) / dt));
  f.add("dropped", json_count(p.dropped));
  append("progress", f);
  mark(t, p.generated, p.sent);
}

void RunEvents::finding(const run::Finding& f, const core::Divergence* first_new) {
  const core::Divergence& d = first_new ? *first_new : f.divergences.front();
  json::Value e = json::Value::object();
  e.add("file", json::Value::string("findings/" + run::finding_file_name(f)));
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
  e.add("bytes", json_count(f.input.size()));
  append("finding", e);
}

void RunEvents::end(const ProgressPoint& totals, int exit_code, bool interrupted) {
  json::Value f = json::Value::object();
  f.add("generated", json_count(totals.generated));
  f.add("sent", json_count(totals.sent));
  f.add("divergentInputs", json_count(totals.divergent_inputs));
  f.add("contractInputs", json_count(totals.contract_inputs));
  f.add("buckets", json_count(totals.buckets));
  f.add("coverage", json_rate(totals.coverage));
  f.add("findings", json_count(totals.findings));
  f.add("interrupted", json::Value::boolean(interrupted));
  f.add("exitCode", json_count(static_cast<std::uint64_t>(exit_code)));
  append("end", f);
}

}  // namespace crosscheck::campaign
