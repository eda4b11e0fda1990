// trait_sites.hpp: which of an input's traits (input_traits.hpp) decide a divergence: the traits
// near where the implementations differ, or the one that can make a parser refuse the text. They
// make a divergence implementation-defined and are the trait part of its signature
// (comparator.cpp). Internal to layer_structural.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/impl_result.hpp"
#include "layers/structural/input_traits.hpp"

namespace crosscheck::layers::structural {

inline constexpr std::string_view kTypedSlot = "big-number-in-typed-slot";

/// Which of an input's traits decide a divergence: the trait part of its signature, and whether the
/// divergence is implementation-defined at all.
struct Decided {
  std::vector<std::string> traits;  ///< free traits that decide it, in InputTraits::names() order
  bool typed_big_number = false;    ///< a big number in a typed slot is where the groups differ
  bool implementation_defined() const { return !traits.empty(); }
  std::string part() const {
    std::string out;
    for (const auto& t : traits) out += (out.empty() ? "" : ",") + t;
    if (typed_big_number) out += (out.empty() ? "" : ",") + std::string(kTypedSlot);
    return out;
  }
};

/// The input's traits with their sites, split into free ones and big numbers in typed slots.
class TraitSites {
 public:
  TraitSites(const InputTraits& traits, const std::vector<core::ImplResult>& results);

  /// Traits at or around `paths`: of the sites at one of them, above or below one, those nearest to
  /// it (fewest levels apart), so that a big number in the variant a union error is about is named,
  /// not every trait further down the same subtree. Every trait when `paths` is null (a divergence
  /// with no place: a crash, an encode failure).
  Decided at(const std::vector<std::string>* paths) const;

  /// The trait that can make a JSON parser itself refuse the text: the reason one implementation
  /// answers invalid_json where another parses it. When the text has several, the first of: not JSON at
  /// all, depth, a lone surrogate, a number's length, its range, then big integers, duplicate keys and
  /// -0 (which few parsers refuse). One, not all: "rust refuses deep text" is one bucket whatever else
  /// the text holds. Slots do not matter to a parser, so big numbers in typed slots count too.
  Decided parse_level() const;

 private:
  const InputTraits& traits_;
  std::set<std::string, std::less<>> typed_;
};

}  // namespace crosscheck::layers::structural
