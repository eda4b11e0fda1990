// schema_regex.cpp: ECMA-262 pattern translation to std::wregex and matching over code points.
#include "json/schema_regex.hpp"

namespace crosscheck::json {
namespace {

#ifdef __GLIBCXX__
// The breadth-first executor: the default depth-first one recurses once per matched character and
// overflows the stack on long strings.
constexpr auto kFlags = std::regex::ECMAScript | std::regex_constants::__polynomial;
#else
#error "crosscheck's pattern matching needs libstdc++'s breadth-first std::regex executor"
#endif

// ECMA-262 WhiteSpace and LineTerminator code points, the meaning of \s.
constexpr std::wstring_view kSpaceSet =
    L"\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
constexpr std::wstring_view kDigitSet = L"0-9";
constexpr std::wstring_view kWordSet = L"A-Za-z0-9_";

}  // namespace

std::wstring code_points_of(std::string_view s) {
  std::wstring out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = c;
    std::size_t n = 1;
    if (c >= 0xF0) {
      cp = c & 0x07;
      n = 4;
    } else if (c >= 0xE0) {
      cp = c & 0x0F;
      n = 3;
    } else if (c >= 0xC0) {
      cp = c & 0x1F;
      n = 2;
    }
    if (i + n > s.size()) n = 1;  // truncated: cannot come from the parser; keep the byte
    for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(static_cast<wchar_t>(n == 1 ? c : cp));
    i += n;
  }
  return out;
}

Result<EcmaPattern, std::string> EcmaPattern::compile(std::string_view source) {
  EcmaPattern p;
  p.source_ = std::string(source);
  const std::wstring in = code_points_of(source);
  std::wstring out;
  bool in_class = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    wchar_t c = in[i];
    if (c == L'\\' && i + 1 < in.size()) {
      wchar_t e = in[++i];
      std::wstring_view set;
      bool negated = false;
      switch (e) {
        case L'd':
          set = kDigitSet;
          break;
        case L'D':
          set = kDigitSet;
          negated = true;
          break;
        case L'w':
          set = kWordSet;
          break;
        case L'W':
          set = kWordSet;
          negated = true;
          break;
        case L's':
          set = kSpaceSet;
          break;
        case L'S':
          set = kSpaceSet;
          negated = true;
          break;
        default:
          break;
      }
      if (set.empty()) {
        if (!in_class && (e == L'b' || e == L'B')) p.word_boundary_ = true;
        if (e == L'k' || e == L'p' || e == L'P')
          return std::string("\\") + static_cast<char>(e) + " is not supported by the reference validator";
        out += L'\\';
        out += e;
        continue;
      }
      if (negated) p.astral_sensitive_ = true;
      if (in_class) {
        if (negated)
          return std::string(
              "a negated class escape (\\D, \\W, \\S) inside [...] is not supported by the "
              "reference validator");
        out += set;
      } else {
        out += negated ? L"[^" : L"[";
        out += set;
        out += L']';
      }
      continue;
    }
    if (in_class) {
      if (c == L']') in_class = false;
      out += c;
      continue;
    }
    if (c == L'[') {
      in_class = true;
      out += c;
      if (i + 1 < in.size() && in[i + 1] == L'^') {
        p.astral_sensitive_ = true;
        out += in[++i];
      }
      // A ']' right after '[' or '[^' closes an empty class in ECMA-262; std::regex agrees.
      continue;
    }
    if (c == L'.') {
      p.astral_sensitive_ = true;
      out += L"[^\\n\\r\\u2028\\u2029]";
      continue;
    }
    out += c;
  }
  try {
    p.regex_ = std::make_shared<const std::wregex>(out, kFlags);
  } catch (const std::regex_error& e) {
    return std::string("not a regular expression std::regex's ECMAScript grammar accepts (") + e.what() + ")";
  }
  return p;
}

bool EcmaPattern::search(const std::wstring& code_points) const {
  return std::regex_search(code_points, *regex_);
}

}  // namespace crosscheck::json
