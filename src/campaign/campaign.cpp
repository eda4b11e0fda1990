// campaign.cpp: the fuzz run's orchestration: the folder opened or resumed, the generation loop on
// this thread, the sender thread fed from it, the saves, progress and the end (see campaign.hpp for
// the algorithm and the pieces).
#include "campaign/campaign.hpp"

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <set>

#include "campaign/corpus_sample.hpp"
#include "campaign/finding_recorder.hpp"
#include "campaign/generation_pacer.hpp"
#include "campaign/generation_step.hpp"
#include "campaign/progress_line.hpp"
#include "campaign/run_state.hpp"
#include "campaign/sender.hpp"
#include "campaign/summary_writer.hpp"
#include "canonical/canonical_validator.hpp"
#include "core/payload_results.hpp"
#include "coverage/canonical_coverage.hpp"
#include "coverage/schema_coverage.hpp"
#include "exec/adapter_pool.hpp"
#include "layers/canonical/canonical_comparator.hpp"
#include "layers/structural/comparator.hpp"
#include "run/run_events.hpp"
#include "util/result.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// The first iteration >= i that belongs to the shard.
std::uint64_t next_in_shard(std::uint64_t i, std::uint64_t shard_index, std::uint64_t shard_count) {
  if (shard_count <= 1) return i;
  std::uint64_t r = i % shard_count;
  return i - r + shard_index + (r <= shard_index ? 0 : shard_count);
}

/// --root names resolved, or every root of the schema.
std::vector<const schema::Root*> select_roots(const schema::Ir& ir, const std::vector<std::string>& names) {
  std::vector<const schema::Root*> roots;
  for (const auto& r : names) {
    const schema::Root* root = ir.find_root(r);
    if (!root) {
      std::string known;
      for (const auto& k : ir.roots) known += (known.empty() ? "" : ", ") + k.snake_name;
      throw Fatal("unknown root '" + r + "' (known: " + known + ")");
    }
    roots.push_back(root);
  }
  if (roots.empty()) {
    for (const auto& r : ir.roots) roots.push_back(&r);
  }
  return roots;
}

class Campaign {
 public:
  Campaign(const schema::Ir& ir, exec::ImplementationSet& impls, const CampaignOptions& o, std::ostream& log)
      : ir_(ir),
        impls_(impls),
        o_(o),
        log_(log),
        coverage_(ir),
        canonical_coverage_(make_canonical_coverage(ir, o)),
        corpus_((fs::path(o.out) / "corpus").string(), o.corpus_files_per_root),
        sent_sample_(o.sent_sample_every
                         ? std::make_unique<CorpusSample>((fs::path(o.out) / "sent-sample").string(),
                                                          std::size_t{1} << 20, false)
                         : nullptr),
        events_(o.out, log),
        recorder_((fs::path(o.out) / "findings").string(), o.max_per_bucket, o.layers, events_,
                  o.on_finding) {}

  CampaignSummary run() {
    resumed_ = open_run_folder(ir_, o_);
    if (resumed_) resume();
    roots_ = select_roots(ir_, o_.roots);
    for (const auto* r : roots_) root_names_.push_back(r->snake_name);
    corpus_.load_seeds(o_.seed_paths, ir_, roots_, log_);
    GenerationStep generation(ir_, impls_.known_names(), roots_, o_.seed, o_.deterministic, corpus_,
                              coverage_, canonical_coverage_ ? &canonical_coverage_->generator : nullptr);
    // Layer-2 coverage rides on the reference's own canonical validation of every input sent.
    if (canonical_coverage_) impls_.observe_canonical_nodes(&canonical_coverage_->coverage);
    // The set outlives this campaign (the fuzz command reduces findings with it afterwards), so it
    // must stop telling the coverage however run() ends.
    struct StopObserving {
      exec::ImplementationSet& impls;
      ~StopObserving() { impls.observe_canonical_nodes(nullptr); }
    } stop_observing{impls_};
    start_ = Clock::now();
    events_.open(position_.elapsed);
    events_.start(o_.seed, impls_.names(), root_names_, resumed_, position_.generated, position_.sent);
    events_.progress(progress_point());  // the curves start where this session starts
    // A Fatal on either thread (a write to a full disk) ends the run with that error; leaving this
    // scope by one stops the sender (~Sender).
    Sender sender(
        impls_, o_.batch, o_.layers, o_.stop_when, position_.sent,
        [this](const Pending& p, const core::PayloadResults& r) { on_results(p, r); }, o_.deterministic);
    sender_ = &sender;
    // A deterministic run waits for room on every input (Sender::offer): nothing to pace.
    GenerationPacer pacer(o_.deterministic ? 1.0 : o_.generation_share);
    std::uint64_t i = position_.iterations;
    // The loop runs on a thread of its own, at a lower priority when paced (generation_pacer.hpp):
    // this thread keeps its priority for what it starts later (the adapters a reduction restarts,
    // layer 3's clients inherit it).
    run_generation_thread(pacer.paced(), [&] { generate(generation, sender, pacer, i); });
    sender.finish();
    corpus_.flush();  // the corpus folder is complete before the state that a resume reads
    if (sent_sample_) sent_sample_->flush();
    generation_waited_ = pacer.waited_seconds();
    save(i);
    print_progress(true);
    events_.progress(progress_point());
    CampaignSummary s = summarize();
    if (o_.end_event) {
      run::ProgressPoint end = progress_point();
      end.generated = s.generated;
      end.sent = s.sent;
      end.divergent_inputs = s.divergent_inputs;
      end.contract_inputs = s.contract_inputs;
      end.buckets = s.buckets;
      end.coverage = s.coverage_percent;
      events_.end(end, o_.strict, exec::stop_requested());
    }
    sender_ = nullptr;
    return s;
  }

 private:
  /// Reads the folder of an earlier session back: where it stopped, its coverage, corpus and findings.
  void resume() {
    position_ = read_position(o_.out);
    generated_ = position_.generated;
    read_coverage(o_.out, coverage_, canonical_coverage());
    std::size_t corpus_files = corpus_.load_folder();
    std::size_t findings = recorder_.load_folder();
    recorder_.add_bucket_roots(read_bucket_roots(o_.out));
    log_ << "resuming " << o_.out << " at iteration " << position_.iterations << ": " << corpus_files
         << " corpus entries, " << findings << " findings in " << recorder_.counts().buckets << " buckets; "
         << corpus_.in_memory() << " corpus entries in memory\n";
  }

  /// The generation loop, on the generation thread: steps until the time, the runs or a stop say so;
  /// `i` is left at the next iteration.
  void generate(GenerationStep& generation, Sender& sender, GenerationPacer& pacer, std::uint64_t& i) {
    const double cpu_start = thread_cpu_seconds();
    std::uint64_t steps = 0;
    auto last_save = Clock::now(), last_report = Clock::now();
    while (!exec::stop_requested() && !sender.failed()) {
      i = next_in_shard(i, o_.shard_index, o_.shard_count);
      if (o_.runs && i >= *o_.runs) break;  // --runs counts the run's iterations, shared by its shards
      double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
      if (o_.seconds && elapsed >= *o_.seconds) {
        sender.time_is_up();  // what is queued is not sent, what is in flight is not waited for
        break;
      }
      if (o_.stop_when && o_.stop_when()) break;
      step(generation, sender, i++);
      pacer.after_step(sender);
      if ((++steps & 255) == 0) {
        auto now = Clock::now();
        if (now - last_save > std::chrono::seconds(5)) {
          save(i);
          last_save = now;
        }
        if (now - last_report > std::chrono::milliseconds(o_.live ? 250 : 10000)) {
          print_progress(false);
          last_report = now;
        }
        if (events_.progress_due()) events_.progress(progress_point());
      }
    }
    generation_cpu_ = thread_cpu_seconds() - cpu_start;
  }

  void step(GenerationStep& generation, Sender& sender, std::uint64_t i) {
    GeneratedInput in = generation.run(i);
    ++generated_;
    if (in.interesting) corpus_.keep(in.root, in.bytes);
    // With a generation share below 1, an adapter with room is never left idle: while the sender is
    // not behind, every input goes (the sample only thins what a busy sender would drop).
    const bool fill = o_.generation_share < 1 && !o_.deterministic && !sender.behind();
    if (in.interesting || o_.deterministic || fill || (in.seed >> 32) % o_.sample_every == 0) {
      sender.offer(
          {in.root, std::move(in.bytes), "fuzz iteration " + std::to_string(i) + " (" + in.source + ")",
           in.seed, std::move(in.decoded)},
          o_.deterministic);
    }
  }

  /// On the sender thread: an input whose tuple of outcomes is new joins the corpus (NEZHA); its
  /// divergences are counted and may give a finding file.
  void on_results(const Pending& p, const core::PayloadResults& r) {
    if (tuples_
            .insert(p.root + "#" + layers::structural::outcome_tuple(r.results) + "#" +
                    layers::canonical::verdict_tuple(r.validations))
            .second)
      corpus_.keep(p.root, p.bytes);
    if (sent_sample_ && sent_count_++ % o_.sent_sample_every == 0) sent_sample_->keep(p.root, p.bytes);
    recorder_.record(p, r);
  }

  void save(std::uint64_t iterations) {
    // The layer-3 position is the contextual campaign's (src/layers/contextual/campaign): kept as it was
    // read.
    save_state(o_.out,
               {iterations, generated_, sender_->sent(), events_.elapsed(), position_.contextual_batches},
               coverage_, canonical_coverage());
  }

  run::ProgressPoint progress_point() const {
    FindingRecorder::Counts c = recorder_.counts();
    run::ProgressPoint p;
    p.generated = generated_;
    p.sent = sender_ ? sender_->sent() : position_.sent;
    p.dropped = sender_ ? sender_->dropped() : 0;
    p.divergent_inputs = c.divergent_inputs;
    p.contract_inputs = c.contract_inputs;
    p.buckets = c.buckets;
    p.findings = c.findings_total;
    p.coverage = coverage_.percent();
    if (o_.layers.structural) p.layers.push_back(core::kStructuralLayer);
    if (o_.layers.canonical) p.layers.push_back(core::kCanonicalLayer);
    return p;
  }

  void print_progress(bool final_line) {
    FindingRecorder::Counts c = recorder_.counts();
    ProgressFigures f;
    f.elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    f.generated = generated_;
    f.sent = sender_->sent();
    if (o_.detailed_log) f.by_class = std::move(c.by_class);
    f.by_layer = std::move(c.by_layer);
    f.buckets = c.buckets;
    f.coverage_percent = coverage_.percent();
    if (canonical_coverage_) f.canonical_coverage_percent = canonical_coverage_->coverage.percent();
    print_progress_line(log_, f, o_.live, final_line);
  }

  /// After the sender stopped: the totals, the verdict, the printed summary and summary.json.
  CampaignSummary summarize() {
    FindingRecorder::Counts c = recorder_.counts();
    CampaignSummary s;
    s.generated = generated_;
    s.sent = sender_->sent();
    s.divergent_inputs = c.divergent_inputs;
    s.contract_inputs = c.contract_inputs;
    s.buckets = c.buckets;
    s.coverage_percent = coverage_.percent();
    if (canonical_coverage_) s.canonical_coverage_percent = canonical_coverage_->coverage.percent();
    // This session's exit code by the verdict's rule over the divergent inputs it saw; the run's
    // verdict over every bucket of the folder is verdict.json (written by the fuzz command).
    s.exit_code = run::exit_code_of(s.divergent_inputs, s.contract_inputs, o_.strict);
    RunSummary summary{o_,
                       s,
                       c,
                       recorder_.bucket_roots(),
                       coverage_,
                       canonical_coverage(),
                       impls_,
                       root_names_,
                       canonical_roots(),
                       recorder_.dir(),
                       events_.elapsed(),
                       exec::stop_requested(),
                       session_figures()};
    // With neither layer 1 nor 2 chosen (layer 3 alone) nothing ran here to summarize: the folder is
    // still laid out, and layer 3 prints its own summary.
    if (o_.detailed_log && (o_.layers.structural || o_.layers.canonical)) print_summary(log_, summary);
    // An adapter left out of inputs (it was stuck) changes what the verdict covers: said in any mode.
    if (!o_.detailed_log) print_skipped(log_, summary.session);
    write_summary(summary);
    return s;
  }

  std::vector<std::string> canonical_roots() const {
    std::vector<std::string> out;
    for (const auto& r : root_names_)
      if (!canonical::root_document(ir_, r).empty()) out.push_back(r);
    return out;
  }

  /// This session's throughput and the CPU time of every process of the run.
  SessionFigures session_figures() const {
    SessionFigures f;
    f.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    f.sent = sender_->sent() - position_.sent;
    f.dropped = sender_->dropped();
    f.generation_share = o_.deterministic ? 1.0 : o_.generation_share;
    rusage self{};
    ::getrusage(RUSAGE_SELF, &self);  // every thread of this process since it started
    auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
    f.crosscheck_cpu = seconds(self.ru_utime) + seconds(self.ru_stime);
    f.generation_cpu = generation_cpu_;
    f.generation_waited = generation_waited_;
    f.adapter_cpu = impls_.adapter_cpu_seconds();
    f.skipped = impls_.skipped_payloads();
    return f;
  }

  const schema::Ir& ir_;
  exec::ImplementationSet& impls_;
  const CampaignOptions& o_;
  std::ostream& log_;
  /// Layer 2, when the run has the canonical layer: the reference validator's nodes and their outcomes
  /// (written on the sender thread, read here: its flags are atomic), and the canonical generator.
  struct Canonical {
    explicit Canonical(canonical::CanonicalValidator v, const schema::Ir& ir)
        : validator(std::move(v)), coverage(validator, ir), generator(validator) {}
    canonical::CanonicalValidator validator;
    CanonicalCoverage coverage;
    gen::CanonicalGenerator generator;  // the generation step's layer-2 instances and mutants
  };
  static std::unique_ptr<Canonical> make_canonical_coverage(const schema::Ir& ir, const CampaignOptions& o) {
    if (!o.layers.canonical) return nullptr;
    auto v = canonical::CanonicalValidator::from_ir(ir);
    // A schema the validator cannot load: the reference answers error on every input, nothing to cover.
    if (!v.ok()) return nullptr;
    return std::make_unique<Canonical>(std::move(v).value(), ir);
  }
  CanonicalCoverage* canonical_coverage() const {
    return canonical_coverage_ ? &canonical_coverage_->coverage : nullptr;
  }

  SchemaCoverage coverage_;  // generation thread only: the step, saves, progress and summary
  std::unique_ptr<Canonical> canonical_coverage_;
  CorpusSample corpus_;
  std::unique_ptr<CorpusSample> sent_sample_;  // --sent-sample: written like the corpus, never read
  std::uint64_t sent_count_ = 0;               // sender thread only
  run::RunEvents events_;
  FindingRecorder recorder_;
  bool resumed_ = false;
  RunPosition position_;  // where an earlier session stopped (zero for a new run)
  std::vector<const schema::Root*> roots_;
  std::vector<std::string> root_names_;
  Clock::time_point start_;
  std::uint64_t generated_ = 0;                        // generation thread only
  Sender* sender_ = nullptr;                           // while run() has one
  std::set<std::string> tuples_;                       // outcome tuples seen (sender thread only)
  double generation_cpu_ = 0, generation_waited_ = 0;  // the generation thread's
};

}  // namespace

CampaignSummary run_campaign(const schema::Ir& ir, exec::ImplementationSet& impls,
                             const CampaignOptions& options, std::ostream& log) {
  Campaign c(ir, impls, options, log);
  return c.run();
}

}  // namespace crosscheck::campaign
