// write.cpp: JSON text from the lossless tree (compact, pretty, and Python's indent=2 format).
#include "json/write.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace crosscheck::json {
namespace {

const char kHex[] = "0123456789abcdef";

/// The text being written, grown in steps and filled through a cursor: the writer's appends are a
/// bounds check and a copy, where std::string's push_back and append re-read size and capacity each
/// time (the profile's top writer cost).
class Out {
 public:
  explicit Out(std::string& text) : text_(text), size_(text.size()) {
    text_.resize(std::max(text_.capacity(), size_ + 64));
  }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  ~Out() { text_.resize(size_); }

  /// Room for `n` more bytes; returns where they go (commit with advance()).
  char* room(std::size_t n) {
    if (size_ + n > text_.size()) text_.resize(std::max(text_.size() * 2, size_ + n + 64));
    return text_.data() + size_;
  }
  void advance(std::size_t n) { size_ += n; }
  void put(char c) {
    *room(1) = c;
    ++size_;
  }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
  }

 private:
  std::string& text_;
  std::size_t size_;
};

void append_u_escape(Out& out, std::uint32_t unit) {
  char* p = out.room(6);
  p[0] = '\\';
  p[1] = 'u';
  p[2] = kHex[(unit >> 12) & 0xF];
  p[3] = kHex[(unit >> 8) & 0xF];
  p[4] = kHex[(unit >> 4) & 0xF];
  p[5] = kHex[unit & 0xF];
  out.advance(6);
}

/// Decodes one WTF-8 sequence at s[i]; returns its length (1 for a stray byte, taken as is).
/// Decodes one WTF-8 sequence at i; returns its length, or 0 when the bytes there are not one (a
/// string built from an adapter's raw output can hold anything: the writer must still emit valid JSON).
std::size_t decode_wtf8(std::string_view s, std::size_t i, std::uint32_t& cp) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  auto continuation = [&](std::size_t from, std::size_t n) {
    if (from + n > s.size()) return false;
    for (std::size_t k = from; k < from + n; ++k) {
      if ((b(k) & 0xC0) != 0x80) return false;
    }
    return true;
  };
  unsigned char c = b(i);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0 && c >= 0xC2 && continuation(i + 1, 1)) {
    cp = ((c & 0x1Fu) << 6) | (b(i + 1) & 0x3Fu);
    return 2;
  }
  if ((c & 0xF0) == 0xE0 && continuation(i + 1, 2)) {
    cp = ((c & 0x0Fu) << 12) | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu);
    return cp >= 0x800 ? 3 : 0;
  }
  if ((c & 0xF8) == 0xF0 && continuation(i + 1, 3)) {
    cp = ((c & 0x07u) << 18) | ((b(i + 1) & 0x3Fu) << 12) | ((b(i + 2) & 0x3Fu) << 6) | (b(i + 3) & 0x3Fu);
    return cp >= 0x10000 && cp <= 0x10FFFF ? 4 : 0;
  }
  return 0;
}

/// The bytes a string is written with as they are: printable ASCII but '"' and '\\'.
constexpr auto kVerbatim = [] {
  std::array<bool, 256> table{};
  for (int c = 0x20; c < 0x80; ++c) table[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return table;
}();

/// Length of the run at the start of `s` written as it is (printable ASCII but '"' and '\\'):
/// 16 bytes a step where SSE2 is there.
std::size_t verbatim_run(std::string_view s) {
  std::size_t i = 0;
#ifdef __SSE2__
  const __m128i below = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  while (i + 16 <= s.size()) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    // Signed compare: bytes >= 0x80 are negative, so one test finds controls and non-ASCII.
    __m128i special = _mm_or_si128(_mm_cmplt_epi8(x, below),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    i += 16;
  }
#endif
  while (i < s.size() && kVerbatim[static_cast<unsigned char>(s[i])]) ++i;
  return i;
}

void append_quoted(Out& out, std::string_view s, bool ascii_only) {
  out.put('"');
  std::size_t i = 0;
  while (i < s.size()) {
    if (std::size_t run = verbatim_run(s.substr(i)); run > 0) {  // one copy, not one per byte
      out.put(s.substr(i, run));
      i += run;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out.put("\\\"");
        ++i;
        continue;
      case '\\':
        out.put("\\\\");
        ++i;
        continue;
      case '\b':
        out.put("\\b");
        ++i;
        continue;
      case '\f':
        out.put("\\f");
        ++i;
        continue;
      case '\n':
        out.put("\\n");
        ++i;
        continue;
      case '\r':
        out.put("\\r");
        ++i;
        continue;
      case '\t':
        out.put("\\t");
        ++i;
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      append_u_escape(out, c);
      ++i;
      continue;
    }
    std::uint32_t cp;
    std::size_t len = decode_wtf8(s, i, cp);
    if (len == 0) {
      append_u_escape(out, 0xFFFD);  // a byte that is not text: the replacement character, never raw
      ++i;
      continue;
    }
    bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    if (surrogate || ascii_only) {
      if (cp >= 0x10000) {
        cp -= 0x10000;
        append_u_escape(out, 0xD800 + (cp >> 10));
        append_u_escape(out, 0xDC00 + (cp & 0x3FF));
      } else {
        append_u_escape(out, cp);
      }
    } else {
      out.put(s.substr(i, len));
    }
    i += len;
  }
  out.put('"');
}

struct Writer {
  const WriteOptions& options;
  std::string_view key_sep;  // between a key and its value (members and elements take ',')
  Out& out;

  void newline(int depth) {
    std::size_t n = static_cast<std::size_t>(options.indent * depth);
    char* p = out.room(n + 1);
    p[0] = '\n';
    std::memset(p + 1, ' ', n);
    out.advance(n + 1);
  }

  void write_member(bool& first, const std::string& key, const Value& value, int depth) {
    if (!first) out.put(',');
    first = false;
    if (options.indent >= 0) newline(depth + 1);
    append_quoted(out, key, options.ascii_only);
    out.put(key_sep);
    write(value, depth + 1);
  }

  void write(const Value& v, int depth) {
    switch (v.kind()) {
      case Kind::kNull:
        out.put("null");
        return;
      case Kind::kBool:
        out.put(v.as_bool() ? "true" : "false");
        return;
      case Kind::kNumber:
        out.put(v.number_text());
        return;
      case Kind::kString:
        append_quoted(out, v.string_value(), options.ascii_only);
        return;
      case Kind::kArray: {
        if (v.items().empty()) {
          out.put("[]");
          return;
        }
        out.put('[');
        bool first = true;
        for (const auto& item : v.items()) {
          if (!first) out.put(',');
          first = false;
          if (options.indent >= 0) newline(depth + 1);
          write(item, depth + 1);
        }
        if (options.indent >= 0) newline(depth);
        out.put(']');
        return;
      }
      case Kind::kObject: {
        const auto& members = v.members();
        if (members.empty()) {
          out.put("{}");
          return;
        }
        if (!options.collapse_duplicates || !has_duplicate_keys(members)) {
          out.put('{');
          bool first = true;
          for (const auto& m : members) write_member(first, m.key, m.value, depth);
          if (options.indent >= 0) newline(depth);
          out.put('}');
          return;
        }
        // Duplicates to collapse: the first position of each key, with its last value.
        std::vector<std::pair<const std::string*, const Value*>> chosen;
        chosen.reserve(members.size());
        {
          std::unordered_map<std::string_view, std::size_t> index;
          for (const auto& m : members) {
            auto [it, fresh] = index.emplace(m.key, chosen.size());
            if (fresh)
              chosen.emplace_back(&m.key, &m.value);
            else
              chosen[it->second].second = &m.value;  // last value wins, first position kept
          }
        }
        out.put('{');
        bool first = true;
        for (const auto& [key, value] : chosen) write_member(first, *key, *value, depth);
        if (options.indent >= 0) newline(depth);
        out.put('}');
        return;
      }
    }
  }
};

}  // namespace

std::string quote(std::string_view wtf8, bool ascii_only) {
  std::string text;
  {
    Out out(text);
    append_quoted(out, wtf8, ascii_only);
  }
  return text;
}

std::string write(const Value& value, const WriteOptions& options) {
  std::string text;
  text.reserve(options.size_hint);
  {
    Out out(text);
    Writer w{options, options.indent >= 0 ? ": " : ":", out};
    w.write(value, 0);
  }
  return text;
}

std::string write_python_indent2(const Value& value) {
  WriteOptions options;
  options.indent = 2;
  options.ascii_only = true;
  std::string text = write(value, options);
  text.push_back('\n');
  return text;
}

}  // namespace crosscheck::json
