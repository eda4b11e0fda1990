// implementation_set.cpp: starting implementations, running batches, grouping by schema.
#include "exec/implementation_set.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>

#include "canonical/canonical_validator.hpp"
#include "exec/reference_validation.hpp"
#include "exec/stop_signal.hpp"
#include "layers/canonical/canonical_comparator.hpp"
#include "layers/structural/comparator.hpp"
#include "schema/loader.hpp"

namespace crosscheck::exec {

using core::Identity;
using core::ImplResult;
using core::kCanonicalLayer;
using core::kReferenceImplementation;
using core::Layers;
using core::Outcome;
using core::PayloadResults;
using core::ValidateResult;
using core::Verdict;
using layers::canonical::compare_canonical;
using layers::structural::compare;
using layers::structural::CompareOptions;

struct ImplementationSet::Member {
  std::string name;
  Identity identity;
  std::unique_ptr<AdapterPool> pool;          // null for an in-process C++ decoder
  std::shared_ptr<const schema::Ir> ir;       // the schema this implementation was generated from
  std::unique_ptr<decoder::Decoder> decoder;  // in-process only
};

namespace {

void collect_names(const schema::Shape& s, std::set<std::string, std::less<>>& names) {
  for (const auto& p : s.properties) {
    names.insert(p.wire_name);
    if (p.shape) collect_names(*p.shape, names);
  }
  if (s.items) collect_names(*s.items, names);
  for (const auto& v : s.variants) {
    if (v) collect_names(*v, names);
  }
  if (s.additional_shape) collect_names(*s.additional_shape, names);
}

}  // namespace

ImplementationSet::ImplementationSet(std::shared_ptr<const schema::Ir> default_schema,
                                     const std::vector<AdapterConfig>& adapters, const PoolOptions& options) {
  schemas_.push_back(default_schema);
  std::map<std::string, std::shared_ptr<const schema::Ir>> by_bundle;  // bundle path -> IR
  by_bundle[default_schema->source_path] = default_schema;
  bool want_cpp = false;
  // Start the adapter processes in parallel: each SDK loads its descriptor tables at start-up.
  std::vector<std::pair<const AdapterConfig*, std::future<Result<std::unique_ptr<AdapterPool>, StartError>>>>
      starting;
  for (const auto& a : adapters) {
    if (a.spec.name == kReferenceImplementation) {
      want_cpp = true;
      continue;
    }
    if (a.unavailable) {
      failures_.push_back({a.spec.name, "unavailable: " + *a.unavailable});
      continue;
    }
    starting.emplace_back(
        &a, std::async(std::launch::async, [&a, &options] { return AdapterPool::start(a.spec, options); }));
  }
  for (auto& [config, future] : starting) {
    auto pool = future.get();
    if (!pool.ok()) {
      failures_.push_back(
          {config->spec.name,
           pool.error().message + (pool.error().stderr_tail.empty() ? "" : "\n" + pool.error().stderr_tail)});
      continue;
    }
    auto m = std::make_unique<Member>();
    m->name = config->spec.name;
    m->pool = std::move(pool).value();
    m->identity = m->pool->identity();
    m->ir = default_schema;
    if (m->identity.schema_bundle && std::filesystem::exists(*m->identity.schema_bundle)) {
      const std::string& bundle = *m->identity.schema_bundle;
      auto it = by_bundle.find(bundle);
      if (it == by_bundle.end()) {
        auto ir = schema::load_schema(bundle);
        if (ir.ok()) {
          auto shared = std::make_shared<const schema::Ir>(std::move(ir).value());
          // The same documents under another path are the same schema: reuse the first IR.
          for (const auto& s : schemas_) {
            if (!shared->manifest_sha256.empty() && s->manifest_sha256 == shared->manifest_sha256) shared = s;
          }
          if (std::find(schemas_.begin(), schemas_.end(), shared) == schemas_.end())
            schemas_.push_back(shared);
          it = by_bundle.emplace(bundle, shared).first;
        } else {
          failures_.push_back({m->name, "its schema bundle " + bundle + " does not load (" +
                                            ir.error().message() + "); compared on the default schema"});
          it = by_bundle.emplace(bundle, default_schema).first;
        }
      }
      m->ir = it->second;
    }
    members_.push_back(std::move(m));
  }
  // One in-process oracle per distinct schema; the default one is "cpp".
  if (want_cpp || !members_.empty()) {
    for (std::size_t i = 0; i < schemas_.size(); ++i) {
      auto m = std::make_unique<Member>();
      m->ir = schemas_[i];
      m->name = kReferenceImplementation;
      if (i > 0) {
        for (const auto& other : members_) {
          if (other->ir == schemas_[i] && other->pool) {
            m->name = "cpp@" + other->name;
            break;
          }
        }
      }
      m->identity.name = m->name;
      m->identity.reported_name = kReferenceImplementation;
      m->identity.language = "c++";
      m->identity.version = CROSSCHECK_VERSION;
      m->identity.lock = m->ir->lock;
      m->identity.schema_bundle = m->ir->source_path;
      m->identity.layers = reference_layers();
      for (const auto& r : m->ir->roots) m->identity.roots.push_back(r.snake_name);
      m->decoder = std::make_unique<decoder::Decoder>(*m->ir);
      members_.insert(members_.begin() + static_cast<long>(i), std::move(m));
    }
  }
  for (const auto& s : schemas_) {
    for (const auto& [name, type] : s->types) {
      if (type.shape) collect_names(*type.shape, known_names_);
    }
  }
}

ImplementationSet::~ImplementationSet() {
  for (auto& m : members_) {
    if (m->pool) m->pool->shutdown();
  }
}

std::vector<std::string> ImplementationSet::names() const {
  std::vector<std::string> out;
  for (const auto& m : members_) out.push_back(m->name);
  return out;
}

std::map<std::string, double> ImplementationSet::adapter_cpu_seconds() const {
  std::map<std::string, double> out;
  for (const auto& m : members_)
    if (m->pool) out[m->name] = m->pool->stats().cpu_seconds;
  return out;
}

std::vector<Identity> ImplementationSet::identities() const {
  std::vector<Identity> out;
  for (const auto& m : members_) {
    Identity id = m->identity;
    id.name = m->name;
    out.push_back(std::move(id));
  }
  return out;
}

std::string ImplementationSet::group_key(const Member& m, const std::string& root) const {
  const schema::Root* r = m.ir->find_root(root);
  if (!r) return "";
  bool supported = m.identity.roots.empty() || std::find(m.identity.roots.begin(), m.identity.roots.end(),
                                                         root) != m.identity.roots.end();
  return supported ? r->closure_hash : "";
}

std::vector<std::vector<ValidateResult>> ImplementationSet::validate(
    const std::vector<ValidateRequest>& batch) {
  std::vector<std::vector<ValidateResult>> per_member(members_.size());
  std::vector<std::future<std::vector<ValidateResult>>> pending(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) {
      AdapterPool* pool = members_[i]->pool.get();
      pending[i] = std::async(std::launch::async, [pool, &batch] { return pool->validate(batch); });
    }
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) continue;
    for (const auto& req : batch) {
      auto start = std::chrono::steady_clock::now();
      ValidateResult r = validate_reference(*members_[i]->ir, req.document, req.input,
                                            members_[i]->ir == schemas_.front() ? node_sink_ : nullptr);
      r.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      per_member[i].push_back(std::move(r));
    }
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) per_member[i] = pending[i].get();
    for (auto& r : per_member[i]) r.implementation = members_[i]->name;
  }
  std::vector<std::vector<ValidateResult>> out(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    for (auto& results : per_member) out[k].push_back(std::move(results[k]));
  }
  return out;
}

std::vector<PayloadResults> ImplementationSet::run(const std::vector<DecodeRequest>& batch,
                                                   const Layers& layers) {
  return finish(start(batch, layers));
}

std::unique_ptr<ImplementationSet::InFlight> ImplementationSet::start(
    std::vector<DecodeRequest> requests, const Layers& with,
    const std::vector<const ReferenceDecode*>& decoded) {
  auto flight = std::make_unique<InFlight>();
  flight->batch = std::move(requests);
  flight->layers = with;
  const auto& batch = flight->batch;
  const Layers& layers = flight->layers;
  // The schema document of each payload's root, as the validators name it (one place: canonical's
  // root_document); a root without a document is validated as "" and answered unsupported.
  auto& to_validate = flight->to_validate;
  if (layers.canonical) {
    for (const auto& req : batch)
      to_validate.push_back({canonical::root_document(*schemas_.front(), req.root), req.input});
  }
  auto& per_member = flight->per_member;
  auto& verdicts = flight->verdicts;
  per_member.resize(members_.size());
  verdicts.resize(members_.size());
  // Each pool gets its decode and then its validate call, queued behind what it still has (an
  // earlier batch): its own thread answers them, the pools in parallel. The answers are
  // written into the InFlight, which stays where it is (and waits for them) until finish().
  auto& pending = flight->pending;
  pending.resize(members_.size());
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!members_[i]->pool) continue;
    AdapterPool* pool = members_[i]->pool.get();
    InFlight* f = flight.get();
    // Each of the member's calls keeps its own error; the last one answered settles the future: on
    // the pool's thread, or on this one for a validate the adapter's hello rules out.
    struct Calls {
      std::promise<void> answered;
      std::atomic<int> left;
      std::exception_ptr decode_error, validate_error;
    };
    auto calls = std::make_shared<Calls>();
    calls->left = int{layers.structural} + int{layers.canonical};
    pending[i] = calls->answered.get_future();
    auto settle = [calls] {
      if (calls->left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
      if (auto error = calls->decode_error ? calls->decode_error : calls->validate_error) {
        calls->answered.set_exception(error);
      } else {
        calls->answered.set_value();
      }
    };
    if (calls->left == 0) calls->answered.set_value();
    if (layers.structural) {
      pool->submit_decode(f->batch,
                          [f, i, calls, settle](std::vector<ImplResult> results, std::exception_ptr error) {
                            f->per_member[i] = std::move(results);
                            calls->decode_error = error;
                            settle();
                          });
    }
    if (layers.canonical) {
      pool->submit_validate(f->to_validate, [f, i, calls, settle](std::vector<ValidateResult> results,
                                                                  std::exception_ptr error) {
        f->verdicts[i] = std::move(results);
        calls->validate_error = error;
        settle();
      });
    }
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = *members_[i];
    if (m.pool) continue;
    for (std::size_t k = 0; layers.structural && k < batch.size(); ++k) {
      const auto& req = batch[k];
      ImplResult r;
      r.implementation = m.name;
      const schema::Root* root = m.ir->find_root(req.root);
      if (!root) {
        r.outcome = Outcome::kUnsupported;
        per_member[i].push_back(std::move(r));
        continue;
      }
      const ReferenceDecode* done = k < decoded.size() ? decoded[k] : nullptr;
      ReferenceDecode fresh;
      if (!done || done->ir != m.ir.get()) {
        auto start = std::chrono::steady_clock::now();
        decoder::DecodeResult d = m.decoder->decode(*root, req.input);
        fresh = {m.ir.get(), d.accepted, std::move(d.diagnostics), std::move(d.encoded),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()};
        done = &fresh;
      }
      r.millis = done->millis;
      r.outcome = done->accepted ? Outcome::kAccepted : Outcome::kRejected;
      for (const auto& diag : done->diagnostics)
        r.diagnostics.push_back({diag.path, diag.code, decoder::severity_name(diag.severity)});
      r.encoded = done == &fresh ? std::move(fresh.encoded) : done->encoded;
      per_member[i].push_back(std::move(r));
    }
    for (const auto& req : to_validate) {
      auto start = std::chrono::steady_clock::now();
      ValidateResult r =
          validate_reference(*m.ir, req.document, req.input, m.ir == schemas_.front() ? node_sink_ : nullptr);
      r.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      verdicts[i].push_back(std::move(r));
    }
  }
  return flight;
}

void ImplementationSet::wait_for_adapters(InFlight& flight) {
  if (flight.adapters_done) return;
  flight.adapters_done = true;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i]->pool) flight.pending[i].get();
    for (auto& r : flight.per_member[i]) r.implementation = members_[i]->name;
    for (auto& r : flight.verdicts[i]) r.implementation = members_[i]->name;
  }
}

std::vector<PayloadResults> ImplementationSet::finish(std::unique_ptr<InFlight> flight) {
  wait_for_adapters(*flight);
  const auto& batch = flight->batch;
  const Layers& layers = flight->layers;
  const auto& to_validate = flight->to_validate;
  const auto& per_member = flight->per_member;
  const auto& verdicts = flight->verdicts;
  CompareOptions options;
  options.known_names = &known_names_;
  for (const auto& m : members_) {
    if (!m->identity.reports_warnings) options.without_warnings.insert(m->name);
  }
  std::vector<PayloadResults> out(batch.size());
  for (std::size_t k = 0; k < batch.size(); ++k) {
    PayloadResults& p = out[k];
    p.root = batch[k].root;
    p.input = batch[k].input;
    std::map<std::string, std::vector<ImplResult>> groups;
    std::map<std::string, std::vector<ValidateResult>> canonical_groups;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      const std::string key = group_key(*members_[i], p.root);
      if (layers.structural) {
        ImplResult r = per_member[i].size() > k ? per_member[i][k] : ImplResult{};
        if (r.implementation.empty()) r.implementation = members_[i]->name;
        p.results.push_back(r);
        if (!key.empty() && r.outcome != Outcome::kUnsupported) groups[key].push_back(std::move(r));
      }
      if (layers.canonical) {
        ValidateResult v = verdicts[i].size() > k ? verdicts[i][k] : ValidateResult{};
        if (v.implementation.empty()) v.implementation = members_[i]->name;
        p.validations.push_back(v);
        if (!key.empty() && v.verdict != Verdict::kUnsupported) canonical_groups[key].push_back(std::move(v));
      }
    }
    if (layers.canonical) p.document = to_validate[k].document;
    // A request the pool abandoned (the run is stopping: Ctrl-C, kill; or the pool is shut down) was never
    // answered: comparing it would turn the interruption into an sdk-error finding.
    bool abandoned =
        std::any_of(p.results.begin(), p.results.end(), [](const ImplResult& r) { return r.abandoned; }) ||
        std::any_of(p.validations.begin(), p.validations.end(),
                    [](const ValidateResult& r) { return r.abandoned; });
    p.interrupted = abandoned;
    if (abandoned) continue;
    for (auto& [key, results] : groups) {
      // A group of one still reports its own crash, timeout or error (and round-trip-self).
      auto ds = compare(p.root, p.input, results, options);
      p.divergences.insert(p.divergences.end(), ds.begin(), ds.end());
      p.groups.push_back(std::move(results));
    }
    for (auto& [key, validations] : canonical_groups) {
      auto ds = compare_canonical(p.input, validations, p.results);
      p.divergences.insert(p.divergences.end(), ds.begin(), ds.end());
    }
  }
  return out;
}

std::map<std::string, std::string> ImplementationSet::without_canonical_layer() const {
  std::map<std::string, std::string> out;
  for (const auto& m : members_) {
    if (!m->identity.has_layer(kCanonicalLayer)) out[m->name] = "its hello does not list the canonical layer";
  }
  return out;
}

std::map<std::string, std::map<std::string, std::string>> ImplementationSet::skew_table() const {
  std::map<std::string, std::map<std::string, std::string>> table;
  for (const auto& m : members_) {
    for (const auto& r : m->ir->roots) table[r.snake_name];
    for (const auto& root : m->identity.roots) table[root];
  }
  for (auto& [root, row] : table) {
    for (const auto& m : members_) row[m->name] = group_key(*m, root).substr(0, 12);
  }
  return table;
}

std::vector<std::string> ImplementationSet::skewed_roots() const {
  std::vector<std::string> out;
  for (const auto& [root, row] : skew_table()) {
    std::set<std::string> keys;
    for (const auto& [impl, key] : row) keys.insert(key);
    if (keys.size() > 1) out.push_back(root);
  }
  return out;
}

}  // namespace crosscheck::exec
