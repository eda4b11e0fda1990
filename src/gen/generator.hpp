// generator.hpp: schema-driven generation of valid instances and adversarial mutations, over the IR.
//
// Everything is deterministic for a seed (std::mt19937_64, no global state), so a finding's seed
// replays it. The ValueGenerator builds values the contract accepts (every union arm, every enum
// value, optional members present and absent, null where allowed, recursion bounded by max_depth).
// The Mutator turns an instance into adversarial bytes aimed at one edge of the contract each.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::gen {

class ShapeFacts;  // shape_facts.hpp: ref targets, tags, minimum depths, subtree checks
struct WalkNode;   // shape_walk.hpp: one position of a value with what constrains it

struct GenOptions {
  std::size_t max_depth = 8;  ///< recursion depth of generated values (refs included)
  std::size_t max_array_items = 3;
  double optional_probability = 0.5;  ///< how often an optional member is present
};

/// How valid() got its value (for tests and statistics).
struct GenReport {
  std::size_t attempts = 0;  ///< full-root attempts made (1 = the first draw was accepted)
  bool fallback = false;     ///< every random attempt failed: a minimal instance was returned
  bool accepted = false;     ///< the decoder accepted the returned value with no diagnostic (false
                             ///< only if even the minimal instance failed: no value satisfies the root)
};

class ValueGenerator {
 public:
  explicit ValueGenerator(const schema::Ir& ir, GenOptions options = {});
  /// A valid instance of `root`: the C++ decoder accepts it with no diagnostic at all (no error, no
  /// warning). Deterministic for `seed`. Every candidate is checked with the decoder; after a few
  /// rejected draws it falls back to a minimal instance (required members only, least deep arms),
  /// which `report` records. Safe to call from several threads.
  json::Value valid(const schema::Root& root, std::uint64_t seed, GenReport* report = nullptr) const;

 private:
  const schema::Ir& ir_;
  GenOptions options_;
  std::shared_ptr<const ShapeFacts> facts_;
};

/// One family of adversarial change each, aimed at one edge of the contract (the list and what each
/// family does: mutation_families.def).
/// The structural families first, then the layer-2 (canonical) ones (canonical_generator.hpp).
enum class Mutation {
#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function) enumerator,
#define CROSSCHECK_CANONICAL_MUTATION_FAMILY(enumerator, name, function) enumerator,
#include "gen/mutation_families.def"
#undef CROSSCHECK_CANONICAL_MUTATION_FAMILY
#undef CROSSCHECK_MUTATION_FAMILY
};
const char* mutation_name(Mutation m);  ///< "unknown-member", "date-time-edge", ...
/// The structural families, in the order of mutation_families.def (canonical_mutations() has the
/// layer-2 ones).
std::vector<Mutation> all_mutations();

struct Mutant {
  std::string bytes;  ///< the payload to send
  Mutation mutation;
  std::string description;  ///< where and what, e.g. "added member 'x_zz' at /params/event"
  std::string path;         ///< JSON Pointer of the changed value ("" for the root and byte-level changes)
};

/// The walk of one value under its root's shape (every position and what constrains it), kept
/// between Mutator::any() calls on that value; the first family that needs it fills it in. It points
/// into the value, which must stay where it is, unchanged, while the walk is kept.
class MutationWalk {
 public:
  MutationWalk();
  ~MutationWalk();
  MutationWalk(MutationWalk&&) noexcept;
  MutationWalk& operator=(MutationWalk&&) noexcept;

 private:
  friend class Mutator;
  std::optional<std::vector<WalkNode>> nodes_;
};

class Mutator {
 public:
  explicit Mutator(const schema::Ir& ir);
  /// Applies one structural mutation family to `value` (an instance of `root`); nullopt when the
  /// value has no place for it (e.g. no open enum anywhere), or for a canonical family. Deterministic for
  /// `seed`. Families whose claim is a decoder verdict (unknown_enum, missing_required, ...) try targets
  /// until the verdict shows at the mutant's path, else return the first that half-works
  /// (docs/generators.md).
  std::optional<Mutant> apply(const schema::Root& root, const json::Value& value, Mutation mutation,
                              std::uint64_t seed) const;
  /// Some applicable mutation, chosen by `seed`.
  Mutant any(const schema::Root& root, const json::Value& value, std::uint64_t seed) const;
  /// any() on a value mutated many times, with its walk kept in `walk` (the same mutant as any()).
  Mutant any(const schema::Root& root, const json::Value& value, std::uint64_t seed,
             MutationWalk& walk) const;

 private:
  /// apply() with the value's walk shared between calls (filled by the first family that needs it).
  std::optional<Mutant> apply(const schema::Root& root, const json::Value& value, Mutation mutation,
                              std::uint64_t seed, std::optional<std::vector<WalkNode>>& walked) const;

  const schema::Ir& ir_;
  std::shared_ptr<const ShapeFacts> facts_;
};

/// Tokens for a libFuzzer dictionary: member names, enum values, tags, literals (quoted JSON strings).
std::vector<std::string> dictionary_tokens(const schema::Ir& ir);

}  // namespace crosscheck::gen
