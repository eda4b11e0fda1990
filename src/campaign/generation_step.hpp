// generation_step.hpp: one iteration of the fuzz loop, on the generation thread.
//
// Iteration i draws its own seed from (run seed, i), picks a root, and either generates a valid
// instance or mutates an entry of that root's corpus sample (gen::Mutator); an entry that is not
// JSON is sent as it is. The C++ decoder runs the input in process with a coverage probe: an input
// that reaches new schema coverage, or gives the decoder an outcome signature not seen before, is
// interesting (it joins the corpus and always goes to the adapters). That decode is also the C++
// reference's result for the input when it is sent (ImplementationSet::start, `decoded`).
//
// With the canonical layer (a gen::CanonicalGenerator given), half of the fresh instances are drawn
// canonically valid for the root's schema document, and three in eight mutations are a canonical
// family (gen::CanonicalGenerator::any_mutant; a structural one when none applies): the structural
// generator knows no patterns, formats, bounds or conditionals, so without these few inputs would
// pass the reference validator's pattern, format and if/then nodes (layer-2 schema coverage,
// coverage/canonical_coverage.hpp). Without the layer nothing changes for a seed.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "campaign/corpus_sample.hpp"
#include "coverage/schema_coverage.hpp"
#include "decoder/decoder.hpp"
#include "exec/implementation_set.hpp"
#include "gen/canonical_generator.hpp"
#include "gen/generator.hpp"
#include "schema/ir.hpp"

namespace crosscheck::campaign {

/// One generated input.
struct GeneratedInput {
  std::string root, bytes;
  std::string source;      ///< "generated", "<mutation>: <description>" or "corpus bytes"
  std::uint64_t seed = 0;  ///< the iteration's seed
  bool interesting = false;
  /// The in-process decode above, for the sender's reference result (the input is not decoded twice).
  exec::ImplementationSet::ReferenceDecode decoded;
};

/// A fixed-size "seen before" filter over hashes, one bit a slot. Its memory is fixed at the start;
/// a set of every decoder outcome seen grew by about 1 MB a minute, because most inputs of a long run
/// show one not seen before. A collision only makes one input look not new: with a million
/// outcomes, about 6% of them.
class SeenBits {
 public:
  /// True when `hash` was not seen before.
  bool insert(std::size_t hash) {
    const std::size_t i = hash & (kBits - 1);
    std::uint64_t& word = words_[i >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    const bool fresh = (word & bit) == 0;
    word |= bit;
    return fresh;
  }

 private:
  static constexpr std::size_t kBits = std::size_t{1} << 24;  // 2 MiB
  std::vector<std::uint64_t> words_ = std::vector<std::uint64_t>(kBits / 64);
};

class GenerationStep {
 public:
  /// `known_names`: member names of the schema (ImplementationSet::known_names), which outcome
  /// signatures keep; other names are abstracted. `deterministic`: never pick from the corpus.
  GenerationStep(const schema::Ir& ir, const std::set<std::string, std::less<>>& known_names,
                 std::vector<const schema::Root*> roots, std::uint64_t run_seed, bool deterministic,
                 CorpusSample& corpus, SchemaCoverage& coverage,
                 const gen::CanonicalGenerator* canonical = nullptr);

  /// Iteration i's input, decoded once with the coverage probe (which `coverage` then counts).
  GeneratedInput run(std::uint64_t i);

 private:
  const schema::Ir& ir_;
  const std::set<std::string, std::less<>>& known_names_;
  std::vector<const schema::Root*> roots_;
  std::uint64_t run_seed_;
  bool deterministic_;
  CorpusSample& corpus_;
  SchemaCoverage& coverage_;
  decoder::Decoder decoder_;
  gen::ValueGenerator generator_;
  gen::Mutator mutator_;
  const gen::CanonicalGenerator* canonical_;      // layer 2, when the run has it
  std::map<std::string, std::string> documents_;  // root -> its schema document ("" for none)
  SeenBits signatures_;                           // decoder outcomes seen, by hash
};

}  // namespace crosscheck::campaign
