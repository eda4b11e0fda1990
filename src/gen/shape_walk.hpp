// shape_walk.hpp: walk a JSON value together with its IR shape and list every position.
//
// Each position (node) is one JSON value in the tree with what the schema says about it: the
// object, array, enum, integer, string and literal shapes that constrain it (refs, intersections
// and the selected union arms resolved, exactly as the decoder selects them), the discriminated
// and untagged unions met on the way, and whether it is opaque (inside an `any` or an unknown
// member). The mutator picks its targets from these nodes; the reach statistics of the generator
// tests read the union arms and enum values from them.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "gen/shape_facts.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::gen {

/// Lists of a few elements kept inside the node: a walk lists every position of a message, and one
/// heap allocation per list and position was most of its cost.
template <class T, std::size_t N = 2>
using SmallList = boost::container::small_vector<T, N>;
using Steps = SmallList<std::size_t, 12>;

struct TaggedUnionAt {
  const schema::Shape* node;
  int selected;  ///< arm index; -1 unknown tag, -2 no string tag
};

struct UntaggedUnionAt {
  const schema::Shape* node;
  SmallList<std::size_t> matched;  ///< arms the value satisfies
};

struct WalkNode {
  Steps steps;          ///< member index (objects) or item index (arrays) from the root
  std::string pointer;  ///< RFC 6901
  const json::Value* value = nullptr;
  bool opaque = false;        ///< no schema constraint: inside `any` or an unknown member
  bool via_untagged = false;  ///< reached through an untagged union's arm (changes may switch arms)
  bool any = false;           ///< some conjunct is `any`
  SmallList<const schema::Shape*> declared;  ///< as the parent declares it (unresolved)
  SmallList<const schema::Shape*> objects, arrays, enums, integers, numbers, strings, literals, nulls;
  SmallList<const schema::Shape*> leaves;  ///< every constraint other than `any` (booleans included)
  SmallList<TaggedUnionAt, 1> tagged;
  SmallList<UntaggedUnionAt, 1> untagged;
};

/// True when nothing but `any` constrains the node: any JSON value is accepted there.
inline bool unconstrained(const WalkNode& node) {
  return node.opaque || (node.any && node.leaves.empty() && node.tagged.empty() && node.untagged.empty());
}

/// Pre-order list of every position of `value` (root first), for `shape`; positions nested more
/// than 512 levels deep are not listed (the walk recurses once per level).
std::vector<WalkNode> walk(const ShapeFacts& facts, const schema::Shape& shape, const json::Value& value);

/// The value at `steps` inside `root` (as recorded by walk() on an equal tree).
json::Value& locate(json::Value& root, const Steps& steps);

}  // namespace crosscheck::gen
