// contextual_campaign.cpp: layer 3 in `crosscheck fuzz` (see contextual_campaign.hpp).
#include "layers/contextual/campaign/contextual_campaign.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <set>

#include "core/impl_result.hpp"
#include "gen/rng.hpp"
#include "interop/client_runner.hpp"
#include "layers/contextual/compare/finding_writer.hpp"
#include "layers/contextual/compare/reference_result.hpp"
#include "layers/contextual/compare/scenario_verdict.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "layers/contextual/host/rule_coverage.hpp"
#include "layers/contextual/rows/scenario_file.hpp"
#include "run/finding_file.hpp"
#include "run/layout.hpp"
#include "run/state_file.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario_campaign {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A family's energy grows by one for each novel row, up to this many times the base: enough to
// favour what uncovers behaviour, never enough to starve the other families.
constexpr double kMaxEnergy = 8;
// What a layer whose time is up gives the client batches still running before it cuts them (as the
// adapters' sender does).
constexpr std::chrono::milliseconds kEndGrace{2000};

/// The answer an implementation gave, for the novelty tuple: derived / rejected / the status.
std::string answer_text(const scenario::RowResult& r) {
  switch (scenario::answer_of(r)) {
    case scenario::Answer::kDerived:
      return "derived";
    case scenario::Answer::kRejected:
      return "rejected";
    case scenario::Answer::kNone:
      break;
  }
  return r.status;
}

/// How many rule ways (accepted, rejected) `row` reached that `total` had not.
std::size_t new_ways(const host::RuleCoverage& total, const host::RuleCoverage& row) {
  std::size_t n = 0;
  for (const auto& [rule, tally] : row.tallies()) {
    const host::RuleTally* before = total.find(rule);
    n += tally.accepted && (!before || !before->accepted);
    n += tally.rejected && (!before || !before->rejected);
  }
  return n;
}

class Campaign {
 public:
  Campaign(const canonical::CanonicalValidator& validator, const ContextualOptions& o, std::ostream& log)
      : validator_(validator), o_(o), log_(log), generator_(validator) {
    for (const auto& f : scenario_gen::families()) families_.push_back(&f);
    energy_.assign(families_.size(), 1.0);
    names_.push_back(core::kReferenceImplementation);
    scenario::RunnerOptions ro;
    ro.work_dir = (fs::path(o.out) / "clients").string();
    ro.crosscheck_exe = o.crosscheck_exe;
    ro.batch_deadline = o.batch_deadline;
    ro.stall_deadline = o.stall_deadline;
    for (const auto& c : o.clients) {
      names_.push_back(c.name);
      client_names_.push_back(c.name);
      runners_.push_back(std::make_unique<scenario::ClientRunner>(c, ro));
    }
  }

  ContextualSummary run() {
    const auto started = Clock::now();
    // A client batch still running when the layer's time is up is cut, not waited for: a hung client
    // cannot hold the run past its time (ClientRunner).
    if (o_.seconds) {
      const auto cut_at = started + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(*o_.seconds) + kEndGrace);
      for (auto& runner : runners_) runner->cut_at(cut_at);
    }
    const fs::path out(o_.out);
    const fs::path coverage_path = out / run::kRuleCoverageFile;
    std::optional<scenario_gen::RuleCoverageSummary> earlier;
    if (fs::exists(coverage_path)) earlier = scenario_gen::read_rule_coverage(coverage_path.string());
    run::FindingStore store((out / run::kFindingsDir).string());
    if (o_.events) {
      // The earlier layers' totals (summary.json as they left it): layer 3's points go on from them.
      const run::Summary before = run::read_summary(out).value_or(run::Summary{});
      events_base_ = run::totals_of(before);
      for (const auto& [bucket, roots] : before.bucket_roots) buckets_seen_.insert(bucket);
      o_.events->continue_from(events_base_);
    }
    std::uint64_t b = run::read_state(out).value_or(run::RunPosition{}).contextual_batches;
    if (b) log_ << "layer 3: resuming at batch " << b << "\n";
    for (;; ++b) {
      if (o_.should_stop && o_.should_stop()) break;
      if (o_.batches && summary_.batches >= *o_.batches) break;
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      if (o_.seconds && elapsed >= *o_.seconds) break;
      if (b % o_.shard_count != o_.shard_index) continue;
      run_batch(b, store);
      save_position(b + 1, Clock::now() - started);
    }
    if (live_line_) log_ << "\n";  // the updated line stays, the next output starts below it
    summary_.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    summary_.coverage = scenario_gen::summarize(coverage_, summary_.rows);
    if (earlier) summary_.coverage = scenario_gen::join_rule_coverage(*earlier, summary_.coverage);
    scenario_gen::write_rule_coverage(coverage_path.string(), summary_.coverage);
    return summary_;
  }

 private:
  std::size_t pick_family(gen::Rng& rng, std::uint64_t index) {
    if (o_.deterministic) return index % families_.size();
    double total = 0;
    for (double e : energy_) total += e;
    // Draws in millionths of the total: the generator's own Rng, so a seed draws the same on every
    // platform (gen/rng.hpp).
    double at = total * static_cast<double>(rng.below(1000000)) / 1e6;
    for (std::size_t f = 0; f < energy_.size(); ++f) {
      if (at < energy_[f]) return f;
      at -= energy_[f];
    }
    return energy_.size() - 1;
  }

  void run_batch(std::uint64_t b, run::FindingStore& store) {
    gen::Rng rng(gen::mix_seed(o_.seed, b));
    std::vector<scenario_gen::GeneratedRow> generated;
    std::vector<std::size_t> family_of;
    std::vector<std::size_t> novel_ways;
    for (std::size_t i = 0; i < o_.batch; ++i) {
      const std::size_t f = pick_family(rng, b * o_.batch + i);
      host::RuleCoverage row_coverage;
      const std::uint64_t row_seed = rng.next();
      generated.push_back(generator_.generate(
          *families_[f], row_seed, families_[f]->name + "-" + std::to_string(b) + "-" + std::to_string(i),
          &row_coverage));
      family_of.push_back(f);
      novel_ways.push_back(new_ways(coverage_, row_coverage));
      coverage_.merge(row_coverage);
    }
    const std::string name = "generated batch " + std::to_string(b);
    auto parsed = scenario::parse_scenario_text(scenario_gen::scenario_file_text(generated), name);
    if (!parsed.ok())
      throw Fatal("internal: a generated row breaks the scenario format: " + parsed.error().text());
    const scenario::ScenarioFile& file = parsed.value();
    std::vector<const scenario::Row*> rows;
    for (const auto& r : file.rows) rows.push_back(&r);

    // The clients of one batch run at once: each is its own process tree, and the batch waits for
    // the slowest anyway. One runner per client for the whole session: only its first batch may end
    // the run (a client that cannot start); later, a client that dies is a crash result.
    std::map<std::string, std::map<std::string, scenario::RowResult>> results;
    using Answers = std::pair<std::map<std::string, scenario::RowResult>, std::vector<std::string>>;
    std::vector<std::future<Answers>> running;
    for (auto& runner : runners_) {
      running.push_back(std::async(std::launch::async, [&runner, &rows] {
        const std::size_t known = runner->notes().size();
        auto answers = runner->run(rows);
        return Answers{std::move(answers),
                       std::vector<std::string>(runner->notes().begin() + static_cast<long>(known),
                                                runner->notes().end())};
      }));
    }
    for (std::size_t k = 0; k < running.size(); ++k) {
      auto [answers, notes] = running[k].get();
      results[o_.clients[k].name] = std::move(answers);
      for (const auto& note : notes) {
        if (live_line_) log_ << "\n";  // below the line updated in place
        live_line_ = false;
        log_ << "WARNING: client '" << o_.clients[k].name << "': " << note << "\n";
      }
    }
    for (const scenario::Row* row : rows)
      results[core::kReferenceImplementation][row->id] = scenario::reference_result(validator_, *row);

    const scenario::FindingContext context{name, client_names_, o_.client_config, o_.schema};
    std::uint64_t found = 0, cut = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const scenario::Row& row = *rows[i];
      // A row some client was cut on (the time was up) is not compared: its cut is no finding.
      if (std::any_of(client_names_.begin(), client_names_.end(),
                      [&](const std::string& n) { return results[n][row.id].status == "cut"; })) {
        ++cut;
        continue;
      }
      scenario::ClientResults row_results;
      std::string tuple = families_[family_of[i]]->name;
      for (const auto& n : names_) {
        const scenario::RowResult& r = results[n][row.id];
        row_results.emplace_back(n, &r);
        tuple += "|" + n + "=" + answer_text(r);
        if (r.status == "crash" || r.status == "timeout" || r.status == "protocol") {
          ++summary_.broken;
          if (!r.batch_dir.empty()) evidence_.insert(fs::path(r.batch_dir).lexically_normal().string());
        }
      }
      // The rule the reference names tells apart rows whose answers agree for different reasons.
      const auto& ref = results[core::kReferenceImplementation][row.id];
      if (!ref.notes.empty()) tuple += "|" + ref.notes.front();
      if (tuples_.insert(tuple).second || novel_ways[i]) {
        energy_[family_of[i]] = std::min(kMaxEnergy, energy_[family_of[i]] + 1);
        ++summary_.novel_rows;
      }
      auto differences = scenario::compare_row(row, row_results);
      auto finding = scenario::row_finding(row, differences, row_results, context);
      if (!finding) continue;
      run::count_finding(summary_.counts, *finding);
      write_finding(store, *finding);
      ++found;
    }
    ++summary_.batches;
    summary_.rows += rows.size() - cut;
    // A settled batch's files are kept only when a client broke on it (its stderr and report are the
    // evidence); a finding carries its row and replays without them.
    std::error_code ec;
    for (const auto& c : o_.clients) {
      const fs::path dir = fs::path(o_.out) / "clients" / c.name;
      if (!fs::is_directory(dir, ec)) continue;
      for (const auto& e : fs::directory_iterator(dir, ec))
        if (!evidence_.count(e.path().lexically_normal().string())) fs::remove_all(e.path(), ec);
    }
    if (o_.events) o_.events->progress(progress_point());
    print_progress(b, rows.size(), found);
  }

  void print_progress(std::uint64_t b, std::size_t rows, std::uint64_t found) {
    using Progress = ContextualOptions::Progress;
    const auto now = Clock::now();
    if (o_.progress == Progress::kPeriodic && now - last_line_ < std::chrono::seconds(10)) return;
    last_line_ = now;
    const bool live = o_.progress == Progress::kLive;
    log_ << (live ? "\r" : "") << "layer 3: batch " << b << ": " << rows << " rows, " << found
         << " with findings; " << summary_.rows << " rows, " << summary_.counts.bucket_roots.size()
         << " buckets, rule coverage "
         << static_cast<int>(scenario_gen::summarize(coverage_, summary_.rows).percent()) << "% this session"
         << (live ? "\x1b[K" : "\n") << std::flush;
    live_line_ = live;
  }

  /// Writes the finding file, then its event (the divergence that opened a bucket named, as at the
  /// other layers).
  void write_finding(run::FindingStore& store, const run::Finding& finding) {
    const bool existed = fs::exists(fs::path(store.dir()) / run::finding_file_name(finding));
    scenario::write_row_finding(store, finding);
    if (!existed) ++files_written_;
    if (!o_.events) return;
    const core::Divergence* first_new = nullptr;
    for (const auto& d : finding.divergences)
      if (buckets_seen_.insert(d.bucket).second && !first_new) first_new = &d;
    o_.events->finding(finding, first_new);
  }

  /// The run's totals now: the earlier layers' and this session's of layer 3.
  run::ProgressPoint progress_point() const {
    run::ProgressPoint p = events_base_;
    p.generated += summary_.rows;
    p.sent += summary_.rows;
    p.divergent_inputs += summary_.counts.divergent_inputs;
    p.contract_inputs += summary_.counts.contract_inputs;
    p.findings += files_written_;
    p.buckets = buckets_seen_.size();
    p.layers = {run::kContextualLayer};
    return p;
  }

  void save_position(std::uint64_t next_batch, Clock::duration session) {
    // The structural/canonical part of state.json is the other campaign's: kept as read.
    run::RunPosition p = run::read_state(o_.out).value_or(run::RunPosition{});
    if (!session_base_) session_base_ = p.elapsed;
    p.elapsed = *session_base_ + std::chrono::duration<double>(session).count();
    p.contextual_batches = next_batch;
    run::write_state(o_.out, p);
  }

  const canonical::CanonicalValidator& validator_;
  const ContextualOptions& o_;
  std::ostream& log_;
  scenario_gen::ScenarioGenerator generator_;
  std::vector<const scenario_gen::Family*> families_;
  std::vector<double> energy_;
  std::vector<std::string> names_, client_names_;
  std::set<std::string> tuples_;
  host::RuleCoverage coverage_;
  ContextualSummary summary_;
  std::optional<double> session_base_;
  std::vector<std::unique_ptr<scenario::ClientRunner>> runners_;  // one per client, in o_.clients order
  std::set<std::string> evidence_;                                // batch folders a client broke on: kept
  run::ProgressPoint events_base_;      // the run's totals when layer 3 started (with an event log)
  std::set<std::string> buckets_seen_;  // the run's buckets so far (with an event log)
  std::uint64_t files_written_ = 0;     // finding files this session added to the folder
  Clock::time_point last_line_{};       // the last progress line (Progress::kPeriodic)
  bool live_line_ = false;              // a line updated in place is on the log
};

}  // namespace

ContextualSummary run_contextual(const canonical::CanonicalValidator& validator, const ContextualOptions& o,
                                 std::ostream& log) {
  for (const char* document : {"intercept-request", "intercept-response"})
    if (!validator.knows(document))
      throw Fatal(std::string("layer 3: the schema has no ") + document + " document");
  if (o.batch == 0) throw Fatal("layer 3: expected a positive batch size");
  Campaign c(validator, o, log);
  return c.run();
}

void add_to_summary(run::Summary& summary, const ContextualSummary& s,
                    const std::vector<scenario::ClientSpec>& clients) {
  const run::Summary& c = s.counts;
  summary.divergent_inputs += c.divergent_inputs;
  summary.contract_inputs += c.contract_inputs;
  auto add = [](run::Counts& to, const run::Counts& from) {
    for (const auto& [k, n] : from) to[k] += n;
  };
  add(summary.by_class, c.by_class);
  add(summary.by_root, c.by_root);
  add(summary.by_implementation, c.by_implementation);
  add(summary.by_layer, c.by_layer);
  summary.by_layer.emplace(run::kContextualLayer, 0);  // the run had the layer, also when it found nothing
  for (const auto& [bucket, roots] : c.bucket_roots)
    summary.bucket_roots[bucket].insert(roots.begin(), roots.end());
  summary.buckets = summary.bucket_roots.size();
  summary.generated += s.rows;
  summary.sent += s.rows;
  const std::string root = "intercept_response";  // the clients judge the scripted response
  if (std::find(summary.roots.begin(), summary.roots.end(), root) == summary.roots.end())
    summary.roots.push_back(root);
  // The rows of every session (rule-coverage.json's count): the layer's inputs over the whole run.
  summary.layers[run::kContextualLayer] = {s.coverage.rows, {root}};
  for (const auto& client : clients) {
    auto same = [&](const run::ImplementationRecord& r) { return r.name == client.name; };
    if (std::any_of(summary.implementations.begin(), summary.implementations.end(), same)) continue;
    run::ImplementationRecord r;
    r.name = r.reported_name = client.name;
    summary.implementations.push_back(std::move(r));
  }
}

}  // namespace crosscheck::scenario_campaign
