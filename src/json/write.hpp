// write.hpp: JSON text from the lossless tree.
#pragma once

#include <string>

#include "json/value.hpp"

namespace crosscheck::json {

struct WriteOptions {
  /// -1: compact (no whitespace). >= 0: pretty, with this many spaces per level.
  int indent = -1;
  /// Escape every non-ASCII code point as \uXXXX (surrogate pairs above U+FFFF).
  bool ascii_only = false;
  /// Collapse duplicate keys to one member (the last value, at the first key's position): the
  /// "object as map" view that an SDK's encoder produces.
  bool collapse_duplicates = false;
  /// Bytes to reserve for the text up front (the decoder passes its input's size): fewer regrowths.
  std::size_t size_hint = 0;
};

/// Numbers are written with their original spelling; lone surrogates as \udXXX escapes.
std::string write(const Value& value, const WriteOptions& options = {});

/// Python's json.dumps(value, indent=2) + "\n" byte for byte (ensure_ascii, ", "/": " separators):
/// the formatter the AHP spec repository uses, so document sha256s can be recomputed from a bundle.
std::string write_python_indent2(const Value& value);

/// A JSON string literal (with quotes) for `wtf8`.
std::string quote(std::string_view wtf8, bool ascii_only = false);

}  // namespace crosscheck::json
