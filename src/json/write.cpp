// write.cpp: JSON text from the lossless tree (compact, pretty, and Python's indent=2 format).
#include "json/write.hpp"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace crosscheck::json {
namespace {

const char kHex[] = "0123456789abcdef";

void append_u_escape(std::string& out, std::uint32_t unit) {
  out += "\\u";
  out.push_back(kHex[(unit >> 12) & 0xF]);
  out.push_back(kHex[(unit >> 8) & 0xF]);
  out.push_back(kHex[(unit >> 4) & 0xF]);
  out.push_back(kHex[unit & 0xF]);
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

void append_quoted(std::string& out, std::string_view s, bool ascii_only) {
  out.push_back('"');
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      std::size_t run = i + 1;  // a run of bytes written as they are: one append, not one per byte
      while (run < s.size() && kVerbatim[static_cast<unsigned char>(s[run])]) ++run;
      out.append(s.data() + i, run - i);
      i = run;
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        ++i;
        continue;
      case '\\':
        out += "\\\\";
        ++i;
        continue;
      case '\b':
        out += "\\b";
        ++i;
        continue;
      case '\f':
        out += "\\f";
        ++i;
        continue;
      case '\n':
        out += "\\n";
        ++i;
        continue;
      case '\r':
        out += "\\r";
        ++i;
        continue;
      case '\t':
        out += "\\t";
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
      out.append(s.substr(i, len));
    }
    i += len;
  }
  out.push_back('"');
}

/// Whether two members share a key: pairwise for the small objects messages are made of (no
/// allocation), by a hash set beyond.
bool has_duplicate_keys(const std::vector<Member>& members) {
  constexpr std::size_t kPairwise = 16;
  if (members.size() <= kPairwise) {
    for (std::size_t i = 1; i < members.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (members[i].key == members[j].key) return true;
      }
    }
    return false;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(members.size());
  for (const auto& m : members) {
    if (!seen.insert(m.key).second) return true;
  }
  return false;
}

struct Writer {
  const WriteOptions& options;
  const char* item_sep;  // between members/elements when not pretty
  const char* key_sep;   // between a key and its value
  std::string out;

  void newline(int depth) {
    out.push_back('\n');
    out.append(static_cast<std::size_t>(options.indent * depth), ' ');
  }

  void write_member(bool& first, const std::string& key, const Value& value, int depth) {
    if (!first) out += item_sep;
    first = false;
    if (options.indent >= 0) newline(depth + 1);
    append_quoted(out, key, options.ascii_only);
    out += key_sep;
    write(value, depth + 1);
  }

  void write(const Value& v, int depth) {
    switch (v.kind()) {
      case Kind::kNull:
        out += "null";
        return;
      case Kind::kBool:
        out += v.as_bool() ? "true" : "false";
        return;
      case Kind::kNumber:
        out += v.number_text();
        return;
      case Kind::kString:
        append_quoted(out, v.string_value(), options.ascii_only);
        return;
      case Kind::kArray: {
        if (v.items().empty()) {
          out += "[]";
          return;
        }
        out.push_back('[');
        bool first = true;
        for (const auto& item : v.items()) {
          if (!first) out += item_sep;
          first = false;
          if (options.indent >= 0) newline(depth + 1);
          write(item, depth + 1);
        }
        if (options.indent >= 0) newline(depth);
        out.push_back(']');
        return;
      }
      case Kind::kObject: {
        const auto& members = v.members();
        if (members.empty()) {
          out += "{}";
          return;
        }
        if (!options.collapse_duplicates || !has_duplicate_keys(members)) {
          out.push_back('{');
          bool first = true;
          for (const auto& m : members) write_member(first, m.key, m.value, depth);
          if (options.indent >= 0) newline(depth);
          out.push_back('}');
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
        out.push_back('{');
        bool first = true;
        for (const auto& [key, value] : chosen) write_member(first, *key, *value, depth);
        if (options.indent >= 0) newline(depth);
        out.push_back('}');
        return;
      }
    }
  }
};

}  // namespace

std::string quote(std::string_view wtf8, bool ascii_only) {
  std::string out;
  append_quoted(out, wtf8, ascii_only);
  return out;
}

std::string write(const Value& value, const WriteOptions& options) {
  Writer w{options, ",", options.indent >= 0 ? ": " : ":", {}};
  w.write(value, 0);
  return std::move(w.out);
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
