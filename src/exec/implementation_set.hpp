// implementation_set.hpp: every implementation of one run: the in-process C++ decoder (one per
// distinct schema bundle the adapters report, so each SDK is checked against the contract on its
// own schema) and one AdapterPool per selected adapter.
//
// Schema groups: for each root, an implementation's group is the closure hash of that root in the
// schema it was generated from (its bundle, or the default schema when it reports none).
// Implementations are compared only within a group; roots where groups differ are skewed and are
// listed by skew_table(), never silently compared.
#pragma once

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/impl_result.hpp"
#include "core/layers.hpp"
#include "core/payload_results.hpp"
#include "decoder/decoder.hpp"
#include "exec/adapter_config.hpp"
#include "exec/adapter_pool.hpp"
#include "json/schema_validator.hpp"
#include "schema/ir.hpp"

namespace crosscheck::exec {

struct StartFailure {
  std::string adapter;
  std::string message;
};

class ImplementationSet {
 public:
  /// `default_schema`: the IR used for adapters that report no bundle, and the cpp oracle's default.
  ImplementationSet(std::shared_ptr<const schema::Ir> default_schema,
                    const std::vector<AdapterConfig>& adapters, const PoolOptions& options);
  ~ImplementationSet();

  const std::vector<StartFailure>& failures() const { return failures_; }
  /// The default schema's IR (the one the run was started with); a decode on it can be handed to
  /// start() as a ReferenceDecode.
  const schema::Ir& default_ir() const { return *schemas_.front(); }
  /// Names in result order ("cpp", "python", "rust/direct", ...).
  std::vector<std::string> names() const;
  std::vector<core::Identity> identities() const;

  /// Decodes a batch on every implementation (adapters pipelined and in parallel) and compares; with
  /// `layers.canonical`, also validates each payload canonically as its root's schema document on
  /// every implementation and compares that layer and the two layers inside each implementation.
  /// Without `layers.structural` nothing is decoded (results stay empty).
  std::vector<core::PayloadResults> run(const std::vector<DecodeRequest>& batch,
                                        const core::Layers& layers = {});

  /// A batch handed to the implementations by start(), not yet compared.
  struct InFlight {
    std::vector<DecodeRequest> batch;
    core::Layers layers;
    std::vector<ValidateRequest> to_validate;
    std::vector<std::vector<core::ImplResult>> per_member;  // by member, then payload
    std::vector<std::vector<core::ValidateResult>> verdicts;
    std::vector<std::future<void>> pending;  // the pools' work, one a member with a pool
    bool adapters_done = false;
    InFlight() = default;
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
    /// Waits for the pools: they write into it until they have answered.
    ~InFlight() {
      for (auto& p : pending)
        if (p.valid()) p.wait();
    }
  };
  /// run() in steps, so that a caller can give the adapters the next batch while it compares this
  /// one: start() hands the batch to every adapter pool (in the background) and decodes and
  /// validates it in-process on the calling thread; wait_for_adapters() returns when every pool has
  /// answered; finish() waits too and compares. run(b) is finish(start(b)). start() may be called
  /// again before the last batch is answered: each pool takes the next batch's requests while it
  /// still works on the last (so an SDK does not run dry between two batches), and answers the
  /// batches in the order they were started.
  ///
  /// `decoded` (empty, or one entry a payload, each possibly null): payloads the caller has already
  /// decoded in process, as the fuzz loop does for its coverage feedback. The in-process decoder on
  /// the same IR (`ReferenceDecode::ir`) takes that result instead of decoding the payload a second
  /// time; any other member, or a null entry, decodes as usual.
  struct ReferenceDecode {
    const schema::Ir* ir = nullptr;  ///< the IR the decode ran on
    bool accepted = false;
    std::vector<decoder::Diagnostic> diagnostics;
    std::optional<std::string> encoded;
    double millis = 0;  ///< how long that decode took
  };
  std::unique_ptr<InFlight> start(std::vector<DecodeRequest> batch, const core::Layers& layers = {},
                                  const std::vector<const ReferenceDecode*>& decoded = {});
  void wait_for_adapters(InFlight& flight);
  std::vector<core::PayloadResults> finish(std::unique_ptr<InFlight> flight);

  /// One stuck adapter must not stall the others (a hang inside a batch holds its pool for a
  /// deadline or more). A caller that keeps several batches in flight asks this now and then: an
  /// adapter whose oldest unanswered batch has waited longer than `floor` plus kStuckPaceFactor times
  /// its usual batch time is stuck: what it has not started of its backlog is shed (answered
  /// skipped), and batches started from now on skip it, until it has answered what it had in flight
  /// (its hang then ends as a timeout result, its finding). Returns the adapters found stuck now.
  static constexpr double kStuckPaceFactor = 4;
  std::vector<std::string> skip_stuck(std::chrono::milliseconds floor);
  /// Every member has answered `flight` (finish() will not wait).
  bool ready(const InFlight& flight) const;
  /// Waits at most `max_wait` for every member to answer `flight`; whether they all have.
  bool wait_ready(const InFlight& flight, std::chrono::milliseconds max_wait) const;
  /// The adapters' per-request deadline (PoolOptions::deadline).
  std::chrono::milliseconds deadline() const { return deadline_; }
  /// `flight` waits for stuck members only: the caller can go on with later batches meanwhile.
  bool waits_only_on_stuck(const InFlight& flight) const;
  /// Gives up what every adapter has in flight (AdapterPool::cut): the run's time is up.
  void cut_adapters();
  /// Payloads each adapter was left out of because it was stuck (only adapters with any).
  std::map<std::string, std::uint64_t> skipped_payloads() const;

  /// Layer 2: validates a batch canonically on every implementation (adapters pipelined and in
  /// parallel). One vector per payload, one result per implementation in names() order; an
  /// implementation without the canonical layer answers unsupported, saying so. Not compared here.
  std::vector<std::vector<core::ValidateResult>> validate(const std::vector<ValidateRequest>& batch);

  /// root -> implementation -> closure hash prefix ("" when the implementation lacks the root).
  std::map<std::string, std::map<std::string, std::string>> skew_table() const;
  /// Roots whose implementations are not all in one group.
  std::vector<std::string> skewed_roots() const;

  /// Implementations left out of the canonical layer, with why (their hello does not list it).
  std::map<std::string, std::string> without_canonical_layer() const;

  /// Layer-2 schema coverage: from now on the in-process reference on the default schema tells `sink`
  /// the outcome of every schema node its canonical validation evaluates (in run() and validate(), on
  /// their calling thread); nullptr stops it. The nodes are those of a CanonicalValidator of the same
  /// schema source (the same source compiles to the same node ids).
  void observe_canonical_nodes(json::NodeSink* sink) { node_sink_ = sink; }

  /// CPU seconds of each adapter's processes (AdapterPool::Stats::cpu_seconds), by name; the
  /// in-process C++ decoder is not listed (its time is the harness's own).
  std::map<std::string, double> adapter_cpu_seconds() const;

  /// Member names the schema declares (for bucketing paths).
  const std::set<std::string, std::less<>>& known_names() const { return known_names_; }

 private:
  struct Member;
  std::string group_key(const Member& m, const std::string& root) const;
  void skip_batch(InFlight& flight, std::size_t member);
  /// The in-process reference's answers to `flight` for `member` (detail/impl_set_reference.cpp).
  void reference_batch(InFlight& flight, std::size_t member,
                       const std::vector<const ReferenceDecode*>& decoded);
  core::ValidateResult reference_validate(const Member& m, const ValidateRequest& request) const;
  std::vector<std::unique_ptr<Member>> members_;
  std::vector<std::shared_ptr<const schema::Ir>> schemas_;  // distinct IRs (index 0 = default)
  std::vector<StartFailure> failures_;
  std::set<std::string, std::less<>> known_names_;
  json::NodeSink* node_sink_ = nullptr;
  std::chrono::milliseconds deadline_;
};

}  // namespace crosscheck::exec
