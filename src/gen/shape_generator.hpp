// shape_generator.hpp: one attempt at a valid value for a conjunction of IR shapes.
//
// Algorithm: the shapes that constrain one JSON value (a ref's target, an intersection's conjuncts,
// the chosen arm of each union) are flattened into a list of leaf constraints. Unions are resolved
// last, so a discriminator tag already fixed by a literal picks the matching arm, and two
// discriminated unions over the same tag (a constrained union: intersection[ref(Event), subset])
// draw from the tags both can satisfy. Objects merge the properties of every object conjunct (a
// typed additionalProperties of one applies to the members the others declare). Wherever a choice
// could go wrong (an untagged union's arm must match exactly once; several leaves must agree), the
// value is checked with the decoder's own structural check and redrawn, a bounded number of times.
// A step budget bounds the whole attempt, so a schema that is hard to satisfy fails fast instead of
// exploring exponentially many retries; the caller then falls back to a minimal instance.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "gen/generator.hpp"
#include "gen/rng.hpp"
#include "gen/shape_facts.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::gen {

class ShapeGenerator {
 public:
  /// `minimal`: required members only, empty arrays, least deep arms, no unknown members.
  ShapeGenerator(const ShapeFacts& facts, const GenOptions& options, Rng& rng, bool minimal);

  /// A value satisfying every shape of `conj` (all describe the same value), nesting at most
  /// `budget` containers where the shapes allow it; nullopt when this attempt failed.
  std::optional<json::Value> generate(const std::vector<const schema::Shape*>& conj, std::size_t budget);

 private:
  struct Flat;
  std::optional<json::Value> attempt(const std::vector<const schema::Shape*>& conj, std::size_t budget,
                                     bool& risky);
  bool flatten(Flat& flat, const schema::Shape* shape, bool& risky);
  const schema::Shape* choose_arm(const schema::Shape& u, const Flat& flat, std::size_t budget);
  std::optional<json::Value> build(const Flat& flat, std::size_t budget, bool& risky);
  std::optional<json::Value> build_object(const std::vector<const schema::Shape*>& objects,
                                          std::size_t budget);
  std::optional<json::Value> build_array(const std::vector<const schema::Shape*>& arrays, std::size_t budget);
  std::string build_integer(const std::vector<const schema::Shape*>& integers);
  std::size_t min_depth_of(const std::vector<const schema::Shape*>& conj) const;

  const ShapeFacts& facts_;
  const GenOptions& options_;
  Rng& rng_;
  bool minimal_;
  std::size_t steps_ = 0;
};

}  // namespace crosscheck::gen
