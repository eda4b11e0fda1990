// request_layout.hpp: request lines in the exact layout exec/protocol_codec writes, read in place
// without a tree (a tree of each request, its base64 member copied into it, cost as much as the
// decode itself). Internal to reference_adapter.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace crosscheck::reference_adapter::detail {

// The request lines exec::protocol writes, byte for byte:
//   {"op":"decode","id":N,"root":"R","input":"B"}   {"op":"validate","id":N,"document":"D","input":"B"}
//   {"op":"batch","id":N,"requests":[E,E,...]}       (E: one of the two above)
// with N a JSON integer literal without sign, and R, D, B strings of printable ASCII without
// escapes. Text in this layout means exactly one thing (distinct keys, each string's value is its
// text), so it is answered from views into the line; anything else, however slightly off (a
// space, another key order, an escape, a duplicate key), goes to the lossless parser.
class RequestLayout {
 public:
  enum class Op { kDecode, kValidate };
  struct Entry {
    Op op;
    std::string_view id, name, input;  // name: the root or the document
  };

  explicit RequestLayout(std::string_view line) : s_(line) {}

  /// One decode or validate request, the whole line.
  std::optional<Entry> single();

  /// A batch of 1 to kBatchMax such entries, the whole line (any other count goes to the parser,
  /// which refuses it with the usual message). Entries go into `entries`.
  bool batch(std::string_view& id, std::vector<Entry>& entries);

 private:
  bool entry(Entry& e);
  bool literal(std::string_view text);
  bool integer(std::string_view& out);
  bool plain(std::string_view& out);
  static bool printable_without_escapes(const char* p, const char* end);

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace crosscheck::reference_adapter::detail
