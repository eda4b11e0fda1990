// input_traits.hpp: the properties of an input that make some behaviour implementation-defined
// (duplicate keys, lone surrogates, huge exponents, big integers, -0, long numbers, deep nesting,
// text that is not JSON), each with where it sits, so the comparator can tell which of them decide a
// divergence.
//
// analyse_input() is one iterative pass over the bytes with an explicit stack (no recursion, no tree):
// any depth the input has costs heap (about 50 bytes a level), never call stack. It accepts exactly
// what json::parse accepts (strict RFC 8259, UTF-8, no BOM), without json::parse's depth limit; past a
// million levels it stops looking (the input is deep-nesting whatever follows).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace crosscheck::layers::structural {

/// Where one trait occurs: a JSON Pointer (RFC 6901) into the input.
struct TraitSite {
  std::string trait;  ///< a name of InputTraits::names() ("duplicate-keys", ...)
  std::string path;   ///< the member that repeats a key, the string, the number, the first value
                      ///< deeper than kDeepNesting levels
};

struct InputTraits {
  static constexpr std::size_t kDeepNesting = 100;  ///< values deeper than this are "deep-nesting"

  bool not_json = false;  ///< not valid strict JSON (includes invalid UTF-8, BOM)
  bool invalid_utf8 = false;
  bool duplicate_keys = false;
  bool lone_surrogate = false;
  bool huge_exponent = false;  ///< a number outside the double range, or with |exponent| > 308
  bool big_integer = false;    ///< an integer-valued number beyond +-(2^53-1)
  bool negative_zero = false;
  bool long_number = false;   ///< a number token of more than 4300 characters (Python's int limit)
  bool deep_nesting = false;  ///< nesting deeper than kDeepNesting (SDK recursion limits differ)
  std::size_t depth = 0;      ///< the deepest value's depth (the root is at 0)
  /// JSON Pointers of the numbers behind big_integer and huge_exponent. Those traits make behaviour
  /// free only in opaque positions: where an implementation's error names one of these paths, the
  /// number sits in a typed slot and the contract decides (see compare()).
  std::vector<std::string> big_number_paths;
  /// Every occurrence of a trait that has a place (not-json and invalid-utf8 have none), in input order.
  std::vector<TraitSite> sites;

  bool any() const;
  std::vector<std::string> names() const;  ///< e.g. {"duplicate-keys", "lone-surrogate"}, fixed order
};

InputTraits analyse_input(std::string_view bytes);

}  // namespace crosscheck::layers::structural
