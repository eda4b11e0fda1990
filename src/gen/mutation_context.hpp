// mutation_context.hpp: what every mutation family gets (internal to src/gen).
//
// The input value is walked with its shape (shape_walk.hpp) the first time a family asks for its
// positions, and the walk is shared by every family Mutator::any tries on that value (the bytes-only
// families never walk); a family picks its targets
// among the nodes, in an order drawn from the seed, edits a copy of the tree (or the bytes), and,
// where its claim is about the decoder's verdict (unknown_enum, missing_required, ...), decodes the
// result and moves on to the next target until the claim holds. A target that only half-works
// (rejected, but through an enclosing union's no_union_match) is kept as a fallback, so a family
// returns nullopt only when the value has no place for it at all.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decoder/decoder.hpp"
#include "gen/generator.hpp"
#include "gen/rng.hpp"
#include "gen/shape_facts.hpp"
#include "gen/shape_walk.hpp"

namespace crosscheck::gen {

struct MutationContext {
  const ShapeFacts& facts;
  const schema::Root& root;
  const schema::Shape& shape;
  const json::Value& value;
  Mutation mutation;
  Rng rng;
  /// The walk of `value`, filled on first use; owned by the caller so that several families share it.
  std::optional<std::vector<WalkNode>>& walked;

  /// Every position of `value` with what constrains it (walked once, on first use).
  const std::vector<WalkNode>& nodes() {
    if (!walked) walked = walk(facts, shape, value);
    return *walked;
  }

  /// Indices of the nodes satisfying `pred`, rotated to start at a seed-drawn position.
  template <class Pred>
  std::vector<std::size_t> targets(Pred pred) {
    const std::vector<WalkNode>& all = nodes();
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (pred(all[i])) out.push_back(i);
    }
    rotate(out);
    return out;
  }
  template <class T>
  void rotate(std::vector<T>& items) {
    if (items.size() > 1)
      std::rotate(items.begin(), items.begin() + static_cast<long>(rng.below(items.size())), items.end());
  }
  decoder::DecodeResult decode(std::string_view bytes) const { return facts.decoder().decode(root, bytes); }
  /// The verdict on a candidate tree: the same as decoding its (lossless) serialisation, without
  /// writing and parsing it again.
  decoder::DecodeResult check(const json::Value& candidate) const {
    return facts.decoder().check(root, candidate);
  }
  /// Targets as targets() gives them, but positions outside any untagged union's arm first: there a
  /// family's verdict shows at the position itself, not as the enclosing union's no_union_match.
  template <class Pred>
  std::vector<std::size_t> targets_direct_first(Pred pred) {
    std::vector<std::size_t> out = targets(pred);
    const std::vector<WalkNode>& all = nodes();
    std::stable_partition(out.begin(), out.end(), [&](std::size_t i) { return !all[i].via_untagged; });
    return out;
  }
  Mutant make(std::string bytes, std::string description, std::string path) const {
    return Mutant{std::move(bytes), mutation, std::move(description), std::move(path)};
  }
};

/// Tries candidates in order: the first whose verdict is strong wins; otherwise the first weak one.
/// After kMaxWeak weak candidates the search stops: where a strong verdict is possible it usually
/// comes first (targets_direct_first), and each candidate costs a decoder check.
class Best {
 public:
  static constexpr std::size_t kMaxWeak = 12;
  /// `make` builds the mutant (bytes, description), only when it is kept. Returns true when the
  /// search can stop.
  template <class Make>
  bool offer(bool strong, Make&& make) {
    if (strong) {
      best_ = make();
      done_ = true;
    } else {
      if (!best_) best_ = make();
      done_ = ++weak_ >= kMaxWeak;
    }
    return done_;
  }
  std::optional<Mutant> take() { return std::move(best_); }

 private:
  std::optional<Mutant> best_;
  std::size_t weak_ = 0;
  bool done_ = false;
};

bool has_diagnostic(const decoder::DecodeResult& result, std::string_view path, std::string_view code);
/// A pointer for descriptions ("the root" for "").
inline std::string where(const std::string& pointer) { return pointer.empty() ? "the root" : pointer; }
/// The JSON Pointer of member `key` under `pointer`.
std::string child_pointer(const std::string& pointer, std::string_view key);
/// The same value as another JSON type ("1" for 1, [] for {}, "true" for true, ...).
json::Value confuse(const json::Value& value);

// One function per family (mutation_families.def); the bodies are in structural_mutations.cpp
// (schema-guided families) and lexical_mutations.cpp (spelling and byte families).
#define CROSSCHECK_MUTATION_FAMILY(enumerator, name, function) \
  std::optional<Mutant> function(MutationContext& ctx);
#include "gen/mutation_families.def"
#undef CROSSCHECK_MUTATION_FAMILY

}  // namespace crosscheck::gen
