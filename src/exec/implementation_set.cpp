// implementation_set.cpp: the implementations of a run (the adapters' pools started in parallel, an
// in-process reference per distinct schema) and their schema groups. Running batches, the
// reference's answers and stuck adapters are in detail/ (impl_set_member.hpp names the files).
#include "exec/implementation_set.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <future>
#include <optional>

#include "exec/detail/impl_set_member.hpp"
#include "exec/reference_validation.hpp"
#include "schema/loader.hpp"

namespace crosscheck::exec {

using core::Identity;
using core::kCanonicalLayer;
using core::kReferenceImplementation;

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

// One adapter's pool, started on a thread of its own: the pool, or why it did not start.
struct Starting {
  const AdapterConfig* config = nullptr;
  std::optional<StartError> error;
  std::future<std::unique_ptr<AdapterPool>> pool;
};

}  // namespace

ImplementationSet::ImplementationSet(std::shared_ptr<const schema::Ir> default_schema,
                                     const std::vector<AdapterConfig>& adapters, const PoolOptions& options)
    : deadline_(options.deadline) {
  schemas_.push_back(default_schema);
  std::map<std::string, std::shared_ptr<const schema::Ir>> by_bundle;  // bundle path -> IR
  by_bundle[default_schema->source_path] = default_schema;
  bool want_cpp = false;
  // Start the adapter processes in parallel: each SDK loads its descriptor tables at start-up.
  // (The future holds the pool alone: with the whole Result, GCC 12 warned of a free of a non-heap
  // object inside std::future, a false positive, -Wfree-nonheap-object.)
  std::deque<Starting> starting;
  for (const auto& a : adapters) {
    if (a.spec.name == kReferenceImplementation) {
      want_cpp = true;
      continue;
    }
    if (a.unavailable) {
      failures_.push_back({a.spec.name, "unavailable: " + *a.unavailable});
      continue;
    }
    Starting& s = starting.emplace_back();
    s.config = &a;
    s.pool = std::async(std::launch::async, [&s, &options]() -> std::unique_ptr<AdapterPool> {
      auto started = AdapterPool::start(s.config->spec, options);
      if (started.ok()) return std::move(started).value();
      s.error = std::move(started).error();
      return nullptr;
    });
  }
  for (Starting& s : starting) {
    const AdapterConfig* config = s.config;
    auto pool = s.pool.get();
    if (!pool) {
      const StartError& error = *s.error;
      failures_.push_back(
          {config->spec.name, error.message + (error.stderr_tail.empty() ? "" : "\n" + error.stderr_tail)});
      continue;
    }
    auto m = std::make_unique<Member>();
    m->name = config->spec.name;
    m->pool = std::move(pool);
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
