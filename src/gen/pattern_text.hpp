// pattern_text.hpp: strings that match a JSON Schema `pattern`, for the canonical generator.
//
// Why a generator and not random strings: the AHP patterns are anchored ("^[a-f0-9]{64}$",
// "^https?://", reverse-DNS names), so a random string almost never matches. This handles the regex
// subset those patterns use: literals and escapes, `.`, classes with ranges and negation, groups
// (capturing and `(?:`), alternation, `^` and `$`, and the quantifiers `*` `+` `?` `{n}` `{n,}`
// `{n,m}`. A pattern outside it yields nullopt from parse(), and the caller falls back to random
// strings checked with the validator's own ECMA-262 matcher (json/schema_regex.hpp). A drawn string
// is a candidate only: the caller checks it with that matcher too, since `$` in the middle of an
// alternation, or a suffix appended after an unanchored end, can still miss.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gen/rng.hpp"

namespace crosscheck::gen {

struct PatternNode;  // the parsed alternation (pattern_text.cpp)

class PatternText {
 public:
  /// nullopt when `source` uses a construct outside the subset above.
  static std::optional<PatternText> parse(std::string_view source);

  struct Drawn {
    std::string text;    ///< UTF-8
    bool ended = false;  ///< a `$` was reached: nothing may follow
    bool anchored_start = false;
  };
  /// One string the pattern matches (as far as the subset goes); repetitions of an unbounded
  /// quantifier are at most 4 beyond its minimum.
  Drawn draw(Rng& rng) const;

 private:
  std::shared_ptr<const PatternNode> root_;
};

}  // namespace crosscheck::gen
