// summary_writer.cpp: summary.json and the printed summary of a fuzz run (see summary_writer.hpp).
#include "campaign/summary_writer.hpp"

#include <filesystem>
#include <iomanip>

#include "campaign/json_numbers.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_file.hpp"
#include "run/json_file.hpp"
#include "util/file.hpp"

namespace crosscheck::campaign {
namespace {

namespace fs = std::filesystem;

json::Value count_object(const std::map<std::string, std::size_t>& m) {
  json::Value o = json::Value::object();
  for (const auto& [k, n] : m) o.add(k, json::Value::number(std::to_string(n)));
  return o;
}

json::Value identities_json(const differential::ImplementationSet& impls) {
  json::Value ids = json::Value::array();
  for (const auto& id : impls.identities()) {
    json::Value x = json::Value::object();
    x.add("name", json::Value::string(id.name));
    x.add("reportedName", json::Value::string(id.reported_name));
    x.add("language", json::Value::string(id.language));
    x.add("version", json::Value::string(id.version));
    x.add("languageVersion", json::Value::string(id.language_version));
    auto lock_field = [&](const char* k) {
      const json::Value* v = id.lock && id.lock->is_object() ? id.lock->find(k) : nullptr;
      return v && v->is_string() ? json::Value::string(v->string_value()) : json::Value::null();
    };
    x.add("schemaManifestSha256", lock_field("schemaManifestSha256"));
    x.add("sourceCommit", lock_field("sourceCommit"));
    x.add("schemaBundle", id.schema_bundle ? json::Value::string(*id.schema_bundle) : json::Value::null());
    x.add("roots", json_count(id.roots.size()));
    x.add("reportsWarnings", json::Value::boolean(id.reports_warnings));
    ids.push(std::move(x));
  }
  return ids;
}

json::Value string_array(const std::vector<std::string>& list) {
  json::Value a = json::Value::array();
  for (const auto& x : list) a.push(json::Value::string(x));
  return a;
}

/// Layer 2: who was left out of the comparison and why (never silently): the implementations whose
/// hello lacks the layer, and those that answered unsupported on some inputs.
std::map<std::string, std::string> canonical_left_out(const RunSummary& s) {
  std::map<std::string, std::string> out;
  if (!s.options.layers.canonical) return out;
  const auto without = s.impls.without_canonical_layer();
  for (const auto& [impl, n] : s.counts.canonical_unsupported) {
    out[impl] = without.count(impl) ? without.at(impl)
                                    : "unsupported on " + std::to_string(n) + " of " +
                                          std::to_string(s.counts.validated_inputs) +
                                          " inputs: documents it does not validate";
  }
  for (const auto& [impl, why] : without) out[impl] = why;
  return out;
}

}  // namespace

void print_summary(std::ostream& log, const RunSummary& s) {
  auto table = [&](const char* title, const std::map<std::string, std::size_t>& m) {
    log << title << ":";
    if (m.empty()) log << " none";
    log << "\n";
    for (const auto& [k, n] : m) log << "  " << std::left << std::setw(28) << k << n << "\n";
  };
  log << "\nsummary of " << s.options.out << "\n";
  table("divergences per layer", s.counts.by_layer);
  table("divergences per class", s.counts.by_class);
  table("divergences per root", s.counts.by_root);
  table("divergences per implementation", s.counts.by_implementation);
  log << "inputs generated " << s.totals.generated << ", sent to adapters " << s.totals.sent << ", divergent "
      << s.totals.divergent_inputs << " (" << s.totals.contract_inputs
      << " on contract inputs, the rest implementation-defined)\n"
      << "buckets " << s.totals.buckets << ", finding files written this run " << s.counts.findings_written
      << " in " << s.findings_dir << "\n"
      << "schema coverage " << s.coverage.describe()
      << " (unreached nodes: " << (fs::path(s.options.out) / "coverage.json").string() << ")\n";
  for (const auto& [impl, why] : canonical_left_out(s))
    log << "left out of the canonical layer: " << impl << " (" << why << ")\n";
  auto skewed = s.impls.skewed_roots();
  if (!skewed.empty()) {
    log << "skewed roots (not compared):";
    for (const auto& r : skewed) log << " " << r;
    log << "\n";
  }
}

void write_summary(const RunSummary& s) {
  json::Value sum = json::Value::object();
  sum.add("generated", json_count(s.totals.generated));
  sum.add("sent", json_count(s.totals.sent));
  sum.add("divergentInputs", json_count(s.totals.divergent_inputs));
  sum.add("contractInputs", json_count(s.totals.contract_inputs));
  sum.add("buckets", json_count(s.totals.buckets));
  sum.add("byClass", count_object(s.counts.by_class));
  sum.add("byRoot", count_object(s.counts.by_root));
  sum.add("byImplementation", count_object(s.counts.by_implementation));
  sum.add("byLayer", count_object(s.counts.by_layer));
  if (s.options.layers.canonical) {
    json::Value left_out = json::Value::object();
    for (const auto& [impl, why] : canonical_left_out(s)) left_out.add(impl, json::Value::string(why));
    sum.add("canonicalLeftOut", std::move(left_out));
  }
  sum.add("coveragePercent", json::Value::number(std::to_string(s.totals.coverage_percent)));
  // Who ran, on which schema, and how it ended: the fields the reports show.
  sum.add("format", json::Value::string("crosscheck-summary/1"));
  sum.add("crosscheckVersion", json::Value::string(CROSSCHECK_VERSION));
  sum.add("seed", json_count(s.options.seed));
  sum.add("elapsed", json_rate(s.elapsed));
  sum.add("findings", json_count(s.counts.findings_total));
  sum.add("strict", json::Value::boolean(s.options.strict));
  sum.add("interrupted", json::Value::boolean(s.interrupted));
  sum.add("exitCode", json_count(static_cast<std::uint64_t>(s.totals.exit_code)));
  // tracked, reached and possible pairs per outcome, percent (of the possible pairs) and percentAll.
  sum.add("coverage", s.coverage.summary_json());
  sum.add("implementations", identities_json(s.impls));
  json::Value skew = json::Value::object();
  for (const auto& [root, row] : s.impls.skew_table()) {
    json::Value r = json::Value::object();
    for (const auto& [impl, hash] : row) r.add(impl, json::Value::string(hash));
    skew.add(root, std::move(r));
  }
  sum.add("skewTable", std::move(skew));
  json::Value bucket_roots = json::Value::object();
  for (const auto& [bucket, roots] : s.bucket_roots)
    bucket_roots.add(bucket, string_array(std::vector<std::string>(roots.begin(), roots.end())));
  sum.add("bucketRoots", std::move(bucket_roots));
  sum.add("skewedRoots", string_array(s.impls.skewed_roots()));
  sum.add("roots", string_array(s.roots));
  json::WriteOptions pretty;
  pretty.indent = 2;
  run::write_file_atomically((fs::path(s.options.out) / "summary.json").string(),
                             json::write(sum, pretty) + "\n");
}

std::map<std::string, std::set<std::string>> read_bucket_roots(const std::string& folder) {
  std::map<std::string, std::set<std::string>> out;
  auto previous = json::parse(read_file_bytes(fs::path(folder) / "summary.json").value_or(""));
  const json::Value* roots =
      previous.ok() && previous.value().is_object() ? previous.value().find("bucketRoots") : nullptr;
  if (!roots || !roots->is_object()) return out;
  for (const auto& m : roots->members()) {
    if (!m.value.is_array()) continue;
    for (const auto& r : m.value.items()) {
      if (r.is_string()) out[m.key].insert(r.string_value());
    }
  }
  return out;
}

}  // namespace crosscheck::campaign
