// source_literals.cpp: hostile text (witness previews, member names in expected paths, messages) into
// generated source: comments and string literals in pure ASCII, so that nothing the payload holds
// can end a comment or a literal, or change how the file is read.
#include <cstdint>
#include <cstdio>

#include "repro/repro.hpp"

namespace crosscheck::repro {
namespace {

std::string hex(std::uint32_t v, int width) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*x", width, v);
  return buf;
}

/// Calls `on_code_point(cp)` for each UTF-8 (WTF-8: lone surrogates included) sequence and
/// `on_byte(b)` for each byte that starts none.
template <class CodePoint, class Byte>
void each_code_point(const std::string& s, CodePoint on_code_point, Byte on_byte) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n != 0 && i + n <= s.size();
    std::uint32_t cp = n == 1 ? c : c & (0x7f >> n);
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      ok = (d >> 6) == 2;
      cp = (cp << 6) | (d & 0x3f);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (ok && cp >= kMin[n] && cp <= 0x10ffff) {
      on_code_point(cp);
      i += n;
    } else {
      on_byte(c);
      ++i;
    }
  }
}

bool plain(std::uint32_t cp) { return cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\'; }

}  // namespace

std::string comment_text(const std::string& bytes, std::size_t max_bytes) {
  std::string out;
  const std::size_t n = std::min(bytes.size(), max_bytes);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == '\\')
      out += "\\\\";
    else if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += "\\x" + hex(c, 2);
  }
  if (n < bytes.size()) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

namespace {

enum class Style { kPython, kRust, kGo, kJs };

/// A double-quoted, pure-ASCII string literal of `bytes` in the style of one language.
std::string literal(const std::string& bytes, Style style) {
  std::string out = "\"";
  auto code_point = [&](std::uint32_t cp) {
    if (plain(cp)) {
      out += static_cast<char>(cp);
    } else if (cp == '"' || cp == '\\') {
      out += std::string("\\") + static_cast<char>(cp);
    } else if (style == Style::kRust) {
      // A Rust str cannot hold a lone surrogate.
      out += cp >= 0xd800 && cp <= 0xdfff ? std::string("\\u{fffd}") : "\\u{" + hex(cp, 1) + "}";
    } else if (cp < 0x10000) {
      out += "\\u" + hex(cp, 4);  // Go refuses a surrogate escape: its strings are bytes, see below
    } else if (style == Style::kJs) {
      out += "\\u{" + hex(cp, 1) + "}";
    } else {
      out += "\\U" + hex(cp, 8);
    }
  };
  auto byte = [&](unsigned char b) {
    if (style == Style::kPython)
      out += "\\udc" + hex(b, 2);  // Python's surrogate escape of a byte that is not UTF-8
    else if (style == Style::kGo)
      out += "\\x" + hex(b, 2);  // a Go string holds any bytes
    else
      out += style == Style::kRust ? "\\u{fffd}" : "\\ufffd";
  };
  each_code_point(
      bytes,
      [&](std::uint32_t cp) {
        if (style == Style::kGo && cp >= 0xd800 && cp <= 0xdfff) {
          // WTF-8 of a lone surrogate: Go has no escape for it, so its three bytes as written.
          char utf8[3] = {static_cast<char>(0xe0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3f)),
                          static_cast<char>(0x80 | (cp & 0x3f))};
          for (char c : utf8) byte(static_cast<unsigned char>(c));
        } else {
          code_point(cp);
        }
      },
      byte);
  return out + "\"";
}

}  // namespace

std::string python_string(const std::string& bytes) { return literal(bytes, Style::kPython); }
std::string rust_string(const std::string& bytes) { return literal(bytes, Style::kRust); }
std::string go_string(const std::string& bytes) { return literal(bytes, Style::kGo); }
std::string js_string(const std::string& bytes) { return literal(bytes, Style::kJs); }

}  // namespace crosscheck::repro
