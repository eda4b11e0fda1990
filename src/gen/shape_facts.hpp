// shape_facts.hpp: what the generators need to know about the IR, computed once per IR.
//
// Ref targets and discriminator tags come from the decoder's own lookup, so a generated tag is
// exactly the one the decoder selects by. On top of that: the minimum container depth of a valid
// instance of every shape (a fixed point over the ref graph; "unsatisfiable" for shapes that need a
// `never`, such as a constrained union's excluded variants), which lets the generator pick the
// least deep union arm at the depth limit and skip arms that can never be valid. check() runs the
// decoder's structural check on a subtree against any shape, for local verification.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "decoder/decoder.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::gen {

using CheckStatus = decoder::CheckStatus;

class ShapeFacts {
 public:
  static constexpr std::size_t kUnsatisfiable = std::numeric_limits<std::size_t>::max();

  explicit ShapeFacts(const schema::Ir& ir);

  const schema::Ir& ir() const { return ir_; }
  const decoder::Decoder& decoder() const { return decoder_; }

  /// The shape a ref names; nullptr for an unknown type.
  const schema::Shape* target(const schema::Shape& ref) const;
  /// Per variant of a discriminated union, its tag or nullptr (the decoder's lookup).
  const std::vector<const std::string*>& tags(const schema::Shape& union_node) const;
  /// Containers a minimal clean instance nests (0 for scalars), or kUnsatisfiable. A tagged
  /// union's arm without a literal tag does not count (only an unknown tag, a warning, reaches it).
  std::size_t min_depth(const schema::Shape& shape) const;
  bool satisfiable(const schema::Shape& shape) const { return min_depth(shape) != kUnsatisfiable; }
  /// The decoder's structural check of `value` against `shape` (any node, not only roots).
  CheckStatus check(const schema::Shape& shape, const json::Value& value) const;

  /// The same check, many times over one value tree that does not change meanwhile (a walk): one
  /// memo of (node, value address) for every call, so a subtree below several nested untagged
  /// unions is checked once, not once per level. Only the status is computed (no diagnostics).
  class SubtreeChecker {
   public:
    explicit SubtreeChecker(const ShapeFacts& facts);
    ~SubtreeChecker();
    SubtreeChecker(const SubtreeChecker&) = delete;
    SubtreeChecker& operator=(const SubtreeChecker&) = delete;
    CheckStatus check(const schema::Shape& shape, const json::Value& value);

   private:
    decoder::SubtreeChecker checker_;
  };
  /// Every shape reachable from the roots (refs followed), in a stable order.
  const std::vector<const schema::Shape*>& reachable() const { return reachable_; }

 private:
  void compute_min_depths();
  template <class Get>
  std::size_t intersection_depth(const schema::Shape& s, const Get& get) const;

  const schema::Ir& ir_;
  decoder::Decoder decoder_;
  std::vector<const schema::Shape*> all_;  // every shape of every type
  std::vector<const schema::Shape*> reachable_;
  std::unordered_map<const schema::Shape*, std::size_t> min_depth_;
};

}  // namespace crosscheck::gen
