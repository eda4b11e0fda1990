// generation_step.cpp: one fuzz iteration's input and its in-process decode (see generation_step.hpp).
#include "campaign/generation_step.hpp"

#include <chrono>
#include <functional>
#include <optional>

#include "campaign/splitmix.hpp"
#include "canonical/canonical_validator.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/structural/comparator.hpp"

namespace crosscheck::campaign {
namespace {

/// The decoder's outcome with paths abstracted (indices and unknown member names), so that random
/// member names do not make every input look new.
std::string cpp_signature(const decoder::DecodeResult& r, const std::set<std::string, std::less<>>& known) {
  std::set<std::string> parts;
  for (const auto& d : r.diagnostics)
    parts.insert(d.code + "@" + layers::structural::path_shape(d.path, &known));
  std::string s = r.accepted ? "A" : "R";
  for (const auto& p : parts) s += "|" + p;
  return s;
}

}  // namespace

GenerationStep::GenerationStep(const schema::Ir& ir, const std::set<std::string, std::less<>>& known_names,
                               std::vector<const schema::Root*> roots, std::uint64_t run_seed,
                               bool deterministic, CorpusSample& corpus, SchemaCoverage& coverage,
                               const gen::CanonicalGenerator* canonical)
    : ir_(ir),
      known_names_(known_names),
      roots_(std::move(roots)),
      run_seed_(run_seed),
      deterministic_(deterministic),
      corpus_(corpus),
      coverage_(coverage),
      decoder_(ir),
      generator_(ir),
      mutator_(ir),
      canonical_(canonical) {
  for (const schema::Root* r : roots_)
    documents_[r->snake_name] = canonical::root_document(ir, r->snake_name);
}

GeneratedInput GenerationStep::run(std::uint64_t i) {
  std::uint64_t s = splitmix(run_seed_ ^ splitmix(i));
  const schema::Root& root = *roots_[s % roots_.size()];
  std::string bytes, source;
  std::optional<json::Value> base;
  if (!deterministic_ && (s >> 8) % 4 != 0) bytes = corpus_.pick(root.snake_name, s >> 16);
  if (!bytes.empty()) {
    auto parsed = json::parse(bytes);
    if (parsed.ok()) {
      base = std::move(parsed.value());
      bytes.clear();
    }
  }
  const std::string& document = documents_[root.snake_name];
  const bool layer2 = canonical_ && !document.empty();
  if (!base && bytes.empty() && layer2 && (s >> 40) % 2 == 0) {
    gen::CanonicalReport report;
    std::optional<json::Value> drawn = canonical_->valid(document, s, &report);
    if (drawn && report.valid) base = std::move(drawn);
  }
  if (!base && bytes.empty()) base = generator_.valid(root, s);
  std::optional<gen::Mutant> canonical_mutant;
  if (base && layer2 && (s >> 24) % 8 >= 5) canonical_mutant = canonical_->any_mutant(document, *base, s);
  if (canonical_mutant) {
    bytes = std::move(canonical_mutant->bytes);
    source =
        std::string(gen::mutation_name(canonical_mutant->mutation)) + ": " + canonical_mutant->description;
  } else if (base) {
    if ((s >> 24) % 8 == 0) {
      bytes = json::write(*base);
      source = "generated";
    } else {
      gen::Mutant m = mutator_.any(root, *base, s);
      bytes = std::move(m.bytes);
      source = std::string(gen::mutation_name(m.mutation)) + ": " + m.description;
    }
  } else {
    source = "corpus bytes";
  }
  SchemaCoverage::Probe probe;
  const auto started = std::chrono::steady_clock::now();
  decoder::DecodeResult r = decoder_.decode(root, bytes, &probe);
  const double millis =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  bool fresh_coverage = coverage_.finish(probe, r.accepted);
  bool fresh_signature =
      signatures_.insert(std::hash<std::string>{}(root.snake_name + "#" + cpp_signature(r, known_names_)));
  return {root.snake_name,
          std::move(bytes),
          std::move(source),
          s,
          fresh_coverage || fresh_signature,
          {&ir_, r.accepted, std::move(r.diagnostics), std::move(r.encoded), millis}};
}

}  // namespace crosscheck::campaign
