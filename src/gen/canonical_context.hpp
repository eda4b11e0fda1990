// canonical_context.hpp: what every canonical (layer-2) mutation family gets (internal to src/gen).
//
// The instance is walked once with the compiled schema nodes that apply at each position (through
// $ref, allOf, the anyOf/oneOf branches that accept the value there, and the if/then/else side its
// condition takes); a family picks its targets among the positions, in an order drawn from the seed,
// and edits a copy of the tree. Its description names the edge and the reference validator's
// verdict on the mutant, computed, never assumed.
#pragma once

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gen/canonical_generator.hpp"
#include "gen/rng.hpp"
#include "json/schema_node.hpp"

namespace crosscheck::gen {

/// True when `node` accepts `v` (the validator's evaluation, first error only).
bool node_accepts(const json::SchemaNode& node, const json::Value& v);
/// Code points of WTF-8 (a lone surrogate is one).
std::size_t code_point_count(const std::string& wtf8);

/// One position of the walked instance. Its pointer and index path are built on demand from its
/// parents: kept in every position, they made the walk of an n-deep input O(n^2) in memory (heaptrack
/// found about 8 MB of them at the peak of a main job whose mutants reach the parser's 1,000 levels).
struct CanonicalPosition {
  const CanonicalPosition* parent = nullptr;   ///< null at the root; positions live in a deque
  std::size_t step = 0;                        ///< member or item index in the parent
  const json::Value* value = nullptr;          ///< into the walked instance
  std::vector<const json::SchemaNode*> nodes;  ///< every node that applies here

  std::string path() const;                ///< JSON Pointer
  std::vector<std::size_t> steps() const;  ///< member or item index at each level
};

/// Every position of `value` under `root`, parents before children (a deque: each position points
/// at its parent, so none may move).
std::deque<CanonicalPosition> canonical_walk(const json::SchemaNode& root, const json::Value& value);

/// The value at `steps` in `root` (a copy being edited).
json::Value& value_at(json::Value& root, const std::vector<std::size_t>& steps);

struct CanonicalContext {
  const CanonicalGenerator& generator;
  std::string document;
  const json::Value& value;
  Mutation mutation;
  Rng rng;
  std::deque<CanonicalPosition> positions;

  /// Indices of the positions satisfying `pred`, rotated to start at a seed-drawn one.
  template <class Pred>
  std::vector<std::size_t> targets(Pred pred) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < positions.size(); ++i)
      if (pred(positions[i])) out.push_back(i);
    if (out.size() > 1)
      std::rotate(out.begin(), out.begin() + static_cast<long>(rng.below(out.size())), out.end());
    return out;
  }
  /// True when some node at `p` has a non-null `member` (e.g. &json::SchemaNode::pattern).
  template <class Field>
  static bool any_node(const CanonicalPosition& p, Field field) {
    return std::any_of(p.nodes.begin(), p.nodes.end(),
                       [&](const json::SchemaNode* n) { return bool(n->*field); });
  }
  /// The mutant: `edited` written out, with `edge` and the reference's verdict in the description.
  Mutant make(const json::Value& edited, const std::string& edge, const std::string& path) const;
};

#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function)
#define CROSSCHECK_CANONICAL_MUTATION_FAMILY(enumerator, name, function) \
  std::optional<Mutant> function(CanonicalContext& ctx);
#include "gen/mutation_families.def"
#undef CROSSCHECK_CANONICAL_MUTATION_FAMILY
#undef CROSSCHECK_MUTATION_FAMILY

}  // namespace crosscheck::gen
