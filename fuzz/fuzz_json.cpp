// fuzz_json.cpp: the lossless JSON parser and writer alone, no schema.
//
// For every input that parses: it was valid UTF-8; write(parse(x)) parses again to a tree that is
// semantically equal and writes to the same bytes (the tree is lossless, so the writer is stable);
// the ASCII-only, pretty-printed and duplicate-collapsing spellings parse to equal values too, and
// each is a fixpoint of its own write. Inputs that fail to parse must fail without crashing.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/support.hpp"
#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace {

using crosscheck::fuzz::violated;
namespace json = crosscheck::json;

/// write(value, options) parses back to an equal value that writes to the same bytes.
void check_spelling(std::string_view input, const json::Value& value, const json::WriteOptions& options,
                    const char* name) {
  std::string text = json::write(value, options);
  auto again = json::parse(text);
  if (!again) violated("written JSON does not parse", nullptr, input, std::string(name) + ": " + text);
  if (!json::semantically_equal(value, *again)) {
    violated("written JSON is not semantically equal", nullptr, input, std::string(name) + ": " + text);
  }
  if (json::write(*again, options) != text) {
    violated("writing is not stable", nullptr, input, std::string(name) + ": " + text);
  }
  if (options.ascii_only) {
    for (char c : text) {
      if (static_cast<unsigned char>(c) >= 0x80) violated("ascii_only wrote non-ASCII", nullptr, input, text);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto parsed = json::parse(input);
  if (!parsed) return 0;
  if (!json::is_valid_utf8(input)) violated("parsed input that is not UTF-8", nullptr, input, "");
  if (!json::semantically_equal(*parsed, *parsed))
    violated("a value differs from itself", nullptr, input, "");

  json::WriteOptions compact, ascii, pretty, collapsed;
  ascii.ascii_only = true;
  pretty.indent = 2;
  collapsed.collapse_duplicates = true;
  // The compact spelling is the lossless one: parsing it gives back the very same tree.
  std::string text = json::write(*parsed, compact);
  auto again = json::parse(text);
  if (!again) violated("write(parse(x)) does not parse", nullptr, input, text);
  if (json::write(*again, compact) != text)
    violated("write(parse(write(parse(x)))) differs", nullptr, input, text);
  check_spelling(input, *parsed, compact, "compact");
  check_spelling(input, *parsed, ascii, "ascii_only");
  check_spelling(input, *parsed, pretty, "indent 2");
  check_spelling(input, *parsed, collapsed, "collapse_duplicates");
  return 0;
}
