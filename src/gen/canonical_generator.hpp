// canonical_generator.hpp: generation for layer 2, canonical validation (docs/generators.md).
//
// The structural generator (generator.hpp) builds what the decoder accepts, from the IR; it knows
// nothing of patterns, formats, lengths, bounds, closed objects or conditionals. This one builds
// instances of a schema *document* that the canonical validator (canonical/canonical_validator.hpp)
// calls valid, and mutates them at the canonical edges (the canonical families of
// mutation_families.def). It reads its constraints from the validator's own compiled schema nodes
// (json/schema_node.hpp), so the schema is read in one place and generation cannot disagree with
// the validator about what a keyword says.
//
// Layer-2 generation is additional: it draws from its own streams (mix_seed with its own stream
// numbers) and never changes what ValueGenerator or Mutator produce for a seed.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canonical/canonical_validator.hpp"
#include "gen/generator.hpp"
#include "json/value.hpp"

namespace crosscheck::json {
struct SchemaNode;
}

namespace crosscheck::gen {

struct CanonicalOptions {
  std::size_t max_depth = 7;  ///< nesting of generated values; deeper, only what is required
  std::size_t max_array_items = 3;
  double optional_probability = 0.5;  ///< how often an optional member is present
  std::size_t attempts = 24;          ///< whole-document draws before valid() gives up
};

struct CanonicalReport {
  std::size_t attempts = 0;  ///< whole-document draws made (1 = the first was valid)
  bool valid = false;        ///< the validator called the returned instance valid
};

/// For a branch flip (the if-branch family): the answer each listed `if` node's condition must
/// give in the generated value.
using IfChoices = std::map<const json::SchemaNode*, bool>;

class CanonicalGenerator {
 public:
  /// `validator` must outlive the generator.
  explicit CanonicalGenerator(const canonical::CanonicalValidator& validator, CanonicalOptions options = {});

  const std::vector<std::string>& documents() const { return validator_.documents(); }
  const canonical::CanonicalValidator& validator() const { return validator_; }

  /// A canonically valid instance of `document` (e.g. "intercept-request"), deterministic for
  /// `seed`; nullopt when no document has that name. Each draw is checked with the validator; when
  /// every draw fails, the last value drawn (null when none was) is returned and `report->valid` is false.
  /// Implementation-defined constructs (leap seconds, lower-case date-times, lone surrogates, astral text
  /// under patterns, big numbers) are never drawn: those are the mutation families' edges. Thread-safe.
  std::optional<json::Value> valid(std::string_view document, std::uint64_t seed,
                                   CanonicalReport* report = nullptr) const;

  /// A value for the schema node `node` (a subschema of some document), drawn until `node` accepts
  /// it and each `if` node listed in `choices` gives the listed answer on the value itself (the
  /// conditions of `node`'s own level). nullopt when no draw fits.
  std::optional<json::Value> valid_for(const json::SchemaNode& node, std::uint64_t seed,
                                       const IfChoices& choices = {}) const;

  /// One canonical family (canonical_mutations()) applied to `value`, an instance of `document`;
  /// nullopt when the value has no place for that edge or the family is a structural one.
  /// Deterministic for `seed`.
  std::optional<Mutant> mutate(std::string_view document, const json::Value& value, Mutation family,
                               std::uint64_t seed) const;
  /// Some applicable canonical family, chosen by `seed` (nullopt only when none applies).
  std::optional<Mutant> any_mutant(std::string_view document, const json::Value& value,
                                   std::uint64_t seed) const;

 private:
  const canonical::CanonicalValidator& validator_;
  CanonicalOptions options_;
};

/// The layer-2 families, in the order of mutation_families.def: what a layer-2 run enables.
std::vector<Mutation> canonical_mutations();

}  // namespace crosscheck::gen
