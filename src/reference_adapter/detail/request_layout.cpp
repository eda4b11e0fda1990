// request_layout.cpp: RequestLayout (request_layout.hpp), with an SSE2 check of each string's bytes.
#include "reference_adapter/detail/request_layout.hpp"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>

#include "reference_adapter/detail/answer_text.hpp"

namespace crosscheck::reference_adapter::detail {

std::optional<RequestLayout::Entry> RequestLayout::single() {
  Entry e;
  if (!entry(e) || i_ != s_.size()) return std::nullopt;
  return e;
}

bool RequestLayout::batch(std::string_view& id, std::vector<Entry>& entries) {
  entries.clear();
  if (!literal("{\"op\":\"batch\",\"id\":") || !integer(id) || !literal(",\"requests\":[")) return false;
  do {
    Entry e;
    if (entries.size() == kBatchMax || !entry(e)) return false;
    entries.push_back(e);
  } while (literal(","));
  return literal("]}") && i_ == s_.size();
}

bool RequestLayout::entry(Entry& e) {
  if (!literal("{\"op\":\"")) return false;
  std::string_view member;
  if (literal("decode\",\"id\":")) {
    e.op = Op::kDecode;
    member = ",\"root\":\"";
  } else if (literal("validate\",\"id\":")) {
    e.op = Op::kValidate;
    member = ",\"document\":\"";
  } else {
    return false;
  }
  return integer(e.id) && literal(member) && plain(e.name) && literal(",\"input\":\"") && plain(e.input) &&
         literal("}");
}

bool RequestLayout::literal(std::string_view text) {
  if (s_.compare(i_, text.size(), text) != 0) return false;
  i_ += text.size();
  return true;
}

// 0 or [1-9][0-9]*, as the request spells it.
bool RequestLayout::integer(std::string_view& out) {
  std::size_t start = i_;
  while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
  if (i_ == start || (s_[start] == '0' && i_ - start > 1)) return false;
  out = s_.substr(start, i_ - start);
  return true;
}

// The rest of a string whose opening quote was matched: printable ASCII, no '\\', up to '"'.
// memchr finds the quote, then SSE2 checks the span 16 bytes at a time (a loop with a branch per
// character was a sixth of serve-adapter's own time per decode, on inputs of 1-2 KB base64).
bool RequestLayout::plain(std::string_view& out) {
  const char* begin = s_.data() + i_;
  const auto* quote = static_cast<const char*>(std::memchr(begin, '"', s_.size() - i_));
  if (!quote || !printable_without_escapes(begin, quote)) return false;
  out = std::string_view(begin, static_cast<std::size_t>(quote - begin));
  i_ += out.size() + 1;
  return true;
}

bool RequestLayout::printable_without_escapes(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f), backslash = _mm_set1_epi8('\\');
  for (; end - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed bytes: below 0x20 or at 0x80 and above are both less than 0x20.
    __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space),
                               _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmpeq_epi8(v, backslash)));
    if (_mm_movemask_epi8(bad) != 0) return false;
  }
#endif
  for (; p != end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x7f || c == '\\') return false;
  }
  return true;
}

}  // namespace crosscheck::reference_adapter::detail
