// summary_file.cpp: reading and writing RUN/summary.json (see summary_file.hpp).
#include "run/summary_file.hpp"

#include "json/schema_validator.hpp"
#include "run/json_file.hpp"
#include "run/layout.hpp"
#include "run/summary_keys.hpp"
#include "util/result.hpp"

namespace crosscheck::run {
namespace {

namespace key = summary_key;

constexpr const char* kNameKey = "name";
constexpr const char* kReportedNameKey = "reportedName";
constexpr const char* kLanguageKey = "language";
constexpr const char* kVersionKey = "version";
constexpr const char* kLanguageVersionKey = "languageVersion";
constexpr const char* kSchemaManifestKey = "schemaManifestSha256";
constexpr const char* kSourceCommitKey = "sourceCommit";
constexpr const char* kSchemaBundleKey = "schemaBundle";
constexpr const char* kRootsKey = "roots";
constexpr const char* kReportsWarningsKey = "reportsWarnings";
constexpr const char* kRunsKey = "runs";
constexpr const char* kShardsKey = "shards";
constexpr const char* kWithoutSummaryKey = "withoutSummary";
constexpr const char* kSecondsKey = "seconds";
constexpr const char* kSentKey = "sent";
constexpr const char* kSentPerSecondKey = "sentPerSecond";
constexpr const char* kDroppedKey = "dropped";
constexpr const char* kGenerationShareKey = "generationShare";
constexpr const char* kWaitedSecondsKey = "waitedSeconds";
constexpr const char* kCpuSecondsKey = "cpuSeconds";
constexpr const char* kSkippedWhileStuckKey = "skippedWhileStuck";
constexpr const char* kCrosscheckKey = "crosscheck";
constexpr const char* kGenerationKey = "generation";
constexpr const char* kAdaptersKey = "adapters";

json::Value counts_json(const Counts& m) {
  json::Value o = json::Value::object();
  for (const auto& [k, n] : m) o.add(k, count_value(n));
  return o;
}

Counts counts_of(const json::Value* o) {
  Counts out;
  if (o)
    for (const auto& m : o->members()) out[m.key] = count_of(m.value);
  return out;
}

json::Value strings_json(const std::vector<std::string>& list) {
  json::Value a = json::Value::array();
  for (const auto& x : list) a.push(json::Value::string(x));
  return a;
}

std::vector<std::string> strings_of(const json::Value* a) {
  std::vector<std::string> out;
  if (a)
    for (const auto& x : a->items()) out.push_back(x.string_value());
  return out;
}

json::Value optional_string(const std::optional<std::string>& s) {
  return s ? json::Value::string(*s) : json::Value::null();
}

std::string string_or_empty(const json::Value& o, const char* k) {
  const json::Value* v = o.find(k);
  return v && v->is_string() ? v->string_value() : std::string();
}

std::optional<std::string> string_or_null(const json::Value& o, const char* k) {
  const json::Value* v = o.find(k);
  if (v && v->is_string()) return v->string_value();
  return std::nullopt;
}

json::Value implementation_json(const ImplementationRecord& id) {
  json::Value x = json::Value::object();
  x.add(kNameKey, json::Value::string(id.name));
  x.add(kReportedNameKey, json::Value::string(id.reported_name));
  x.add(kLanguageKey, json::Value::string(id.language));
  x.add(kVersionKey, json::Value::string(id.version));
  x.add(kLanguageVersionKey, json::Value::string(id.language_version));
  x.add(kSchemaManifestKey, optional_string(id.schema_manifest_sha256));
  x.add(kSourceCommitKey, optional_string(id.source_commit));
  x.add(kSchemaBundleKey, optional_string(id.schema_bundle));
  x.add(kRootsKey, count_value(id.roots));
  x.add(kReportsWarningsKey, json::Value::boolean(id.reports_warnings));
  return x;
}

ImplementationRecord implementation_of(const json::Value& x) {
  ImplementationRecord id;
  id.name = string_or_empty(x, kNameKey);
  id.reported_name = string_or_empty(x, kReportedNameKey);
  id.language = string_or_empty(x, kLanguageKey);
  id.version = string_or_empty(x, kVersionKey);
  id.language_version = string_or_empty(x, kLanguageVersionKey);
  id.schema_manifest_sha256 = string_or_null(x, kSchemaManifestKey);
  id.source_commit = string_or_null(x, kSourceCommitKey);
  id.schema_bundle = string_or_null(x, kSchemaBundleKey);
  if (const json::Value* n = x.find(kRootsKey)) id.roots = count_of(*n);
  if (const json::Value* b = x.find(kReportsWarningsKey)) id.reports_warnings = b->as_bool();
  return id;
}

json::Value session_json(const SessionRecord& r) {
  json::Value cpu = json::Value::object();
  cpu.add(kCrosscheckKey, seconds_value(r.crosscheck_cpu));
  cpu.add(kGenerationKey, seconds_value(r.generation_cpu));
  json::Value adapters = json::Value::object();
  for (const auto& [name, seconds] : r.adapter_cpu) adapters.add(name, seconds_value(seconds));
  cpu.add(kAdaptersKey, std::move(adapters));
  json::Value x = json::Value::object();
  x.add(kSecondsKey, seconds_value(r.seconds));
  x.add(kSentKey, count_value(r.sent));
  x.add(kSentPerSecondKey, seconds_value(r.sent_per_second));
  x.add(kDroppedKey, count_value(r.dropped));
  x.add(kGenerationShareKey, seconds_value(r.generation_share));
  x.add(kWaitedSecondsKey, seconds_value(r.waited_seconds));
  x.add(kCpuSecondsKey, std::move(cpu));
  json::Value skipped = json::Value::object();
  for (const auto& [name, inputs] : r.skipped_while_stuck) skipped.add(name, count_value(inputs));
  x.add(kSkippedWhileStuckKey, std::move(skipped));
  return x;
}

SessionRecord session_of(const json::Value& x) {
  SessionRecord r;
  r.seconds = number_of(*x.find(kSecondsKey));
  r.sent = count_of(*x.find(kSentKey));
  r.sent_per_second = number_of(*x.find(kSentPerSecondKey));
  r.dropped = count_of(*x.find(kDroppedKey));
  r.generation_share = number_of(*x.find(kGenerationShareKey));
  r.waited_seconds = number_of(*x.find(kWaitedSecondsKey));
  const json::Value& cpu = *x.find(kCpuSecondsKey);
  r.crosscheck_cpu = number_of(*cpu.find(kCrosscheckKey));
  r.generation_cpu = number_of(*cpu.find(kGenerationKey));
  for (const auto& [name, seconds] : cpu.find(kAdaptersKey)->members())
    r.adapter_cpu[name] = number_of(seconds);
  if (const json::Value* skipped = x.find(kSkippedWhileStuckKey))  // absent in older files
    for (const auto& [name, inputs] : skipped->members()) r.skipped_while_stuck[name] = count_of(inputs);
  return r;
}

}  // namespace

void count_finding(Summary& s, const Finding& finding) {
  ++s.divergent_inputs;
  bool contract = false;
  for (const auto& d : finding.divergences) {
    ++s.by_class[core::class_name(d.cls)];
    ++s.by_root[finding.root];
    ++s.by_layer[d.layer];
    for (const auto& i : d.implementations) ++s.by_implementation[i];
    s.bucket_roots[d.bucket].insert(finding.root);
    contract = contract || !d.implementation_defined;
  }
  s.contract_inputs += contract;
}

json::Value to_json(const Summary& s) {
  json::Value sum = json::Value::object();
  sum.add(key::kGenerated, count_value(s.generated));
  sum.add(key::kSent, count_value(s.sent));
  sum.add(key::kDivergentInputs, count_value(s.divergent_inputs));
  sum.add(key::kContractInputs, count_value(s.contract_inputs));
  sum.add(key::kBuckets, count_value(s.buckets));
  sum.add(key::kByClass, counts_json(s.by_class));
  sum.add(key::kByRoot, counts_json(s.by_root));
  sum.add(key::kByImplementation, counts_json(s.by_implementation));
  sum.add(key::kByLayer, counts_json(s.by_layer));
  if (s.canonical_left_out) {
    json::Value left_out = json::Value::object();
    for (const auto& [impl, why] : *s.canonical_left_out) left_out.add(impl, json::Value::string(why));
    sum.add(key::kCanonicalLeftOut, std::move(left_out));
  }
  if (s.coverage)
    sum.add(key::kCoveragePercent, json::Value::number(std::to_string(s.coverage->percent())));
  else if (s.coverage_percent)
    sum.add(key::kCoveragePercent, json::Value::number(std::to_string(*s.coverage_percent)));
  // Who ran, on which schema, and how it ended: the fields the reports show.
  sum.add(key::kFormat, json::Value::string(kSummaryFormat));
  sum.add(key::kCrosscheckVersion, json::Value::string(CROSSCHECK_VERSION));
  if (s.seed) sum.add(key::kSeed, json::Value::number(*s.seed));
  sum.add(key::kElapsed, seconds_value(s.elapsed));
  if (s.findings) sum.add(key::kFindings, count_value(*s.findings));
  sum.add(key::kStrict, json::Value::boolean(s.strict));
  sum.add(key::kInterrupted, json::Value::boolean(s.interrupted));
  if (s.coverage) sum.add(key::kCoverage, figures_to_json(*s.coverage));
  json::Value ids = json::Value::array();
  for (const auto& id : s.implementations) ids.push(implementation_json(id));
  sum.add(key::kImplementations, std::move(ids));
  json::Value skew = json::Value::object();
  for (const auto& [root, row] : s.skew_table) {
    json::Value r = json::Value::object();
    for (const auto& [impl, hash] : row) r.add(impl, json::Value::string(hash));
    skew.add(root, std::move(r));
  }
  sum.add(key::kSkewTable, std::move(skew));
  json::Value bucket_roots = json::Value::object();
  for (const auto& [bucket, roots] : s.bucket_roots)
    bucket_roots.add(bucket, strings_json(std::vector<std::string>(roots.begin(), roots.end())));
  sum.add(key::kBucketRoots, std::move(bucket_roots));
  sum.add(key::kSkewedRoots, strings_json(s.skewed_roots));
  sum.add(key::kRoots, strings_json(s.roots));
  if (!s.layers.empty()) {
    json::Value layers = json::Value::object();
    for (const auto& [name, layer] : s.layers) {
      json::Value x = json::Value::object();
      x.add(key::kInputs, count_value(layer.inputs));
      x.add(key::kRoots, strings_json(layer.roots));
      layers.add(name, std::move(x));
    }
    sum.add(key::kLayers, std::move(layers));
  }
  if (s.merged) {
    json::Value m = json::Value::object();
    m.add(kRunsKey, count_value(s.merged->runs));
    m.add(kShardsKey, strings_json(s.merged->shards));
    m.add(kWithoutSummaryKey, strings_json(s.merged->without_summary));
    sum.add(key::kMerged, std::move(m));
  }
  if (s.session) sum.add(key::kSession, session_json(*s.session));
  return sum;
}

Result<Summary, std::string> summary_from_json(const json::Value& v) {
  if (auto violation = json::shipped_schema(kSummarySchema).validate(v))
    return std::string((violation->pointer.empty() ? std::string("(the document)") : violation->pointer) +
                       ": " + violation->message + " (schemas/" + kSummarySchema + ")");
  Summary s;
  auto get = [&](const char* k) { return v.find(k); };
  if (const json::Value* x = get(key::kCrosscheckVersion)) s.crosscheck_version = x->string_value();
  if (const json::Value* x = get(key::kSeed)) s.seed = x->number_text();
  if (const json::Value* x = get(key::kElapsed)) s.elapsed = number_of(*x);
  s.generated = count_of(*get(key::kGenerated));
  s.sent = count_of(*get(key::kSent));
  s.divergent_inputs = count_of(*get(key::kDivergentInputs));
  s.contract_inputs = count_of(*get(key::kContractInputs));
  s.buckets = count_of(*get(key::kBuckets));
  if (const json::Value* x = get(key::kFindings)) s.findings = count_of(*x);
  s.by_class = counts_of(get(key::kByClass));
  s.by_root = counts_of(get(key::kByRoot));
  s.by_implementation = counts_of(get(key::kByImplementation));
  if (get(key::kByLayer)) s.by_layer = counts_of(get(key::kByLayer));
  if (const json::Value* x = get(key::kCanonicalLeftOut)) {
    std::map<std::string, std::string> left_out;
    for (const auto& [impl, why] : x->members()) left_out[impl] = why.string_value();
    s.canonical_left_out = std::move(left_out);
  }
  if (const json::Value* x = get(key::kCoverage)) s.coverage = figures_from_json(*x);
  if (const json::Value* x = get(key::kCoveragePercent)) s.coverage_percent = number_of(*x);
  if (const json::Value* x = get(key::kStrict)) s.strict = x->as_bool();
  if (const json::Value* x = get(key::kInterrupted)) s.interrupted = x->as_bool();
  if (const json::Value* x = get(key::kImplementations))
    for (const auto& id : x->items()) s.implementations.push_back(implementation_of(id));
  if (const json::Value* x = get(key::kSkewTable))
    for (const auto& [root, row] : x->members())
      for (const auto& [impl, hash] : row.members()) s.skew_table[root][impl] = hash.string_value();
  for (const auto& [bucket, roots] : get(key::kBucketRoots)->members())
    for (const auto& r : roots.items()) s.bucket_roots[bucket].insert(r.string_value());
  s.skewed_roots = strings_of(get(key::kSkewedRoots));
  s.roots = strings_of(get(key::kRoots));
  if (const json::Value* x = get(key::kLayers))
    for (const auto& [name, layer] : x->members())
      s.layers[name] = {count_of(*layer.find(key::kInputs)), strings_of(layer.find(key::kRoots))};
  if (const json::Value* x = get(key::kMerged)) {
    MergedRuns m;
    m.runs = count_of(*x->find(kRunsKey));
    m.shards = strings_of(x->find(kShardsKey));
    m.without_summary = strings_of(x->find(kWithoutSummaryKey));
    s.merged = std::move(m);
  }
  if (const json::Value* x = get(key::kSession)) s.session = session_of(*x);
  return s;
}

void write_summary(const std::filesystem::path& run_dir, const Summary& s) {
  write_json_file(run_dir / kSummaryFile, to_json(s), 2);
}

std::optional<Summary> read_summary(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kSummaryFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_format(file, o, kSummaryFormat);
  auto s = summary_from_json(o);
  if (!s.ok()) throw Fatal(file.string() + ": " + s.error());
  return std::move(s.value());
}

}  // namespace crosscheck::run
