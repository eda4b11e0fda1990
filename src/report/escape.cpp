// escape.cpp: display text and the HTML, XML, Markdown and shell escapes of the reports.
#include "report/escape.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace crosscheck::report {
namespace {

/// Decodes one UTF-8 sequence at `s[i]` (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
/// Returns its length, or 0 when the byte at i does not start a valid sequence.
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t& cp) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xBF) {
    return k < s.size() && b(k) >= lo && b(k) <= hi;
  };
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF && cont(i + 1)) {
    cp = (c & 0x1Fu) << 6 | (b(i + 1) & 0x3Fu);
    return 2;
  }
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    if (cont(i + 1, lo, hi) && cont(i + 2)) {
      cp = (c & 0x0Fu) << 12 | (b(i + 1) & 0x3Fu) << 6 | (b(i + 2) & 0x3Fu);
      return 3;
    }
    return 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    if (cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3)) {
      cp = (c & 0x07u) << 18 | (b(i + 1) & 0x3Fu) << 12 | (b(i + 2) & 0x3Fu) << 6 | (b(i + 3) & 0x3Fu);
      return 4;
    }
  }
  return 0;
}

/// Characters shown as escapes: controls, and those that are invisible or reorder text (bidi
/// overrides, "Trojan Source"), and noncharacters (U+FFFE and U+FFFF are not XML 1.0 characters).
bool escaped(std::uint32_t cp, const DisplayOptions& o) {
  if (cp == '\n') return !o.keep_newlines;
  if (cp == '\t') return !o.keep_tabs;
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  if (cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 ||
      cp == 0x17B5 || cp == 0x180E || cp == 0x3164 || cp == 0xFEFF || cp == 0xFFA0)
    return true;
  if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F))
    return true;
  if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE || (cp >= 0xFFF9 && cp <= 0xFFFB))
    return true;
  if ((cp >= 0x1BCA0 && cp <= 0x1BCA3) || (cp >= 0x1D173 && cp <= 0x1D17A) ||
      (cp >= 0xE0000 && cp <= 0xE007F))
    return true;
  return false;
}

std::string escape_for(std::uint32_t cp) {
  char buf[16];
  switch (cp) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      break;
  }
  if (cp <= 0xFFFF)
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else
    std::snprintf(buf, sizeof buf, "\\u{%x}", static_cast<unsigned>(cp));
  return buf;
}

std::size_t longest_backtick_run(std::string_view s) {
  std::size_t best = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

void for_each_display_segment(std::string_view bytes, const DisplayOptions& o,
                              const std::function<void(std::string_view, bool)>& out) {
  std::size_t i = 0, plain_start = 0, produced = 0;
  auto flush = [&](std::size_t end) {
    if (end > plain_start) out(bytes.substr(plain_start, end - plain_start), false);
  };
  while (i < bytes.size()) {
    if (o.max_chars && produced >= o.max_chars) {
      flush(i);
      std::string more = " \u2026 (" + std::to_string(bytes.size() - i) + " more bytes)";
      out(more, false);
      return;
    }
    std::uint32_t cp = 0;
    std::size_t n = decode(bytes, i, cp);
    if (n == 0) {
      flush(i);
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(bytes[i])));
      out(buf, true);
      produced += 4;
      plain_start = ++i;
      continue;
    }
    if (escaped(cp, o)) {
      flush(i);
      std::string e = escape_for(cp);
      out(e, true);
      produced += e.size();
      i += n;
      plain_start = i;
      continue;
    }
    i += n;
    produced += n;
  }
  flush(i);
}

std::string display_text(std::string_view bytes, const DisplayOptions& options) {
  std::string s;
  for_each_display_segment(bytes, options, [&](std::string_view part, bool) { s += part; });
  return s;
}

std::string display_line(std::string_view bytes, std::size_t max_chars) {
  DisplayOptions o;
  o.keep_newlines = o.keep_tabs = false;
  o.max_chars = max_chars;
  return display_text(bytes, o);
}

std::string html_escape(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&#39;";
        break;
      default:
        s += c;
    }
  }
  return s;
}

std::string html_text(std::string_view bytes, const DisplayOptions& options) {
  std::string s;
  for_each_display_segment(bytes, options, [&](std::string_view part, bool is_escape) {
    if (is_escape) s += "<span class=\"esc\">";
    s += html_escape(part);
    if (is_escape) s += "</span>";
  });
  return s;
}

std::string xml_text(std::string_view bytes, const DisplayOptions& options) {
  std::string s;
  for (char c : display_text(bytes, options)) {
    switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";  // "]]>" must not appear in content
        break;
      case '"':
        s += "&quot;";
        break;
      case '\'':
        s += "&apos;";
        break;
      default:
        s += c;
    }
  }
  return s;
}

std::string xml_attribute(std::string_view bytes) {
  DisplayOptions o;
  o.keep_newlines = o.keep_tabs = false;  // attribute values normalise whitespace: keep them visible
  return xml_text(bytes, o);
}

std::string markdown_code(std::string_view bytes, bool in_table, std::size_t max_chars) {
  std::string text = display_line(bytes, max_chars);
  if (text.empty()) return "(empty)";
  if (in_table) {
    std::string piped;
    for (char c : text) {
      if (c == '|') piped += '\\';
      piped += c;
    }
    text = std::move(piped);
  }
  std::string fence(longest_backtick_run(text) + 1, '`');
  // A space on both sides is stripped again by CommonMark; it keeps a leading or trailing backtick
  // from merging into the fence.
  bool pad = text.front() == '`' || text.back() == '`' || text.front() == ' ' || text.back() == ' ';
  std::string sp = pad ? " " : "";
  return fence + sp + text + sp + fence;
}

std::string markdown_fence(std::string_view bytes, std::string_view info, std::size_t max_chars) {
  DisplayOptions o;
  o.max_chars = max_chars;
  std::string text = display_text(bytes, o);
  std::string fence(std::max<std::size_t>(3, longest_backtick_run(text) + 1), '`');
  std::string clean_info;
  for (char c : info) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      clean_info += c;  // an info string never carries a backtick
  }
  std::string s = fence + clean_info + "\n" + text;
  if (s.back() != '\n') s += '\n';
  return s + fence + "\n";
}

std::string identifier(std::string_view text) {
  std::string s;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') {
      s += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "_%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      s += buf;
    }
  }
  return s;
}

}  // namespace crosscheck::report
