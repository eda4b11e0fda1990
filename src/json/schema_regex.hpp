// schema_regex.hpp: the `pattern` keyword with ECMA-262 semantics, on std::wregex.
//
// Why std::wregex: wchar_t is 32 bits on every platform crosscheck builds on, so a pattern runs over
// code points (the semantics of an ECMA-262 RegExp with the `u` flag, which is what Ajv uses), and a
// lone surrogate is one code point like any other. std::regex's ECMAScript grammar is close to
// ECMA-262 but not equal; the pattern is translated first where the two differ (docs/canonical.md):
//   `.`            -> [^\n\r\u2028\u2029] (std::regex's dot only excludes \n and \r)
//   \d \D \w \W    -> their ASCII sets (std::regex asks the locale)
//   \s \S          -> ECMA-262's WhiteSpace and LineTerminator set (std::regex asks the locale)
// Matching runs libstdc++'s breadth-first executor (regex_constants::__polynomial): time linear in
// the input times the pattern, stack bounded by the pattern, so no payload can exhaust the stack.
// Constructs std::regex does not implement (lookbehind, named groups, \p{..}, \u{..}, back
// references in the breadth-first executor, `{,n}` as a literal) are refused when the schema loads.
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace crosscheck::json {

class EcmaPattern {
 public:
  /// `source` is the pattern as the schema spells it (WTF-8). Error: why it is refused.
  static Result<EcmaPattern, std::string> compile(std::string_view source);

  /// ECMA-262 RegExp.prototype.test semantics: a match anywhere in `code_points`.
  bool search(const std::wstring& code_points) const;

  /// True when the answer on a string with an astral code point can depend on code units versus
  /// code points (the pattern has `.`, a negated class or \D \W \S).
  bool astral_sensitive() const { return astral_sensitive_; }
  /// True when the pattern has \b or \B, whose notion of a word character std::regex takes from the
  /// locale: the answer on non-ASCII text is implementation-defined.
  bool word_boundary() const { return word_boundary_; }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::shared_ptr<const std::wregex> regex_;
  bool astral_sensitive_ = false;
  bool word_boundary_ = false;
};

/// WTF-8 (UTF-8 that may hold lone surrogates) to one wchar_t per code point.
std::wstring code_points_of(std::string_view wtf8);

}  // namespace crosscheck::json
