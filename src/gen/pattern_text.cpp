// pattern_text.cpp: a recursive-descent parser for the pattern subset and a drawer over its tree.
#include "gen/pattern_text.hpp"

#include <utility>
#include <vector>

#include "json/schema_regex.hpp"

namespace crosscheck::gen {

struct PatternNode {
  enum class Kind { kAlternation, kSequence, kSet, kStart, kEnd };
  Kind kind = Kind::kSequence;
  std::vector<std::shared_ptr<PatternNode>> children;  ///< kAlternation: branches; kSequence: atoms
  std::vector<std::pair<char32_t, char32_t>> ranges;   ///< kSet: inclusive ranges
  bool negated = false;                                ///< kSet
  std::size_t min = 1, max = 1;                        ///< repetitions of this atom
};

namespace {

using Node = std::shared_ptr<PatternNode>;
constexpr std::size_t kUnbounded = static_cast<std::size_t>(-1);

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

struct Unsupported {};

class Parser {
 public:
  explicit Parser(std::u32string text) : s_(std::move(text)) {}

  Node parse() {
    Node n = alternation();
    if (i_ != s_.size()) throw Unsupported{};
    return n;
  }

 private:
  Node alternation() {
    auto alt = std::make_shared<PatternNode>();
    alt->kind = PatternNode::Kind::kAlternation;
    alt->children.push_back(sequence());
    while (i_ < s_.size() && s_[i_] == '|') {
      ++i_;
      alt->children.push_back(sequence());
    }
    return alt;
  }

  Node sequence() {
    auto seq = std::make_shared<PatternNode>();
    while (i_ < s_.size() && s_[i_] != '|' && s_[i_] != ')') {
      Node atom = this->atom();
      quantifier(*atom);
      seq->children.push_back(atom);
    }
    return seq;
  }

  static Node set(std::vector<std::pair<char32_t, char32_t>> ranges, bool negated = false) {
    auto n = std::make_shared<PatternNode>();
    n->kind = PatternNode::Kind::kSet;
    n->ranges = std::move(ranges);
    n->negated = negated;
    return n;
  }

  /// The ranges of an escape (after the backslash), as ECMA-262 defines the class escapes.
  std::pair<std::vector<std::pair<char32_t, char32_t>>, bool> escape() {
    if (i_ >= s_.size()) throw Unsupported{};
    char32_t c = s_[i_++];
    switch (c) {
      case 'd':
        return {{{'0', '9'}}, false};
      case 'D':
        return {{{'0', '9'}}, true};
      case 'w':
        return {{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}}, false};
      case 'W':
        return {{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}}, true};
      case 's':
        return {{{' ', ' '}, {'\t', '\r'}}, false};
      case 'S':
        return {{{' ', ' '}, {'\t', '\r'}}, true};
      case 'n':
        return {{{'\n', '\n'}}, false};
      case 't':
        return {{{'\t', '\t'}}, false};
      case 'r':
        return {{{'\r', '\r'}}, false};
      default:
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) throw Unsupported{};
        return {{{c, c}}, false};  // an escaped punctuator is itself
    }
  }

  Node atom() {
    char32_t c = s_[i_++];
    if (c == '^') {
      auto n = std::make_shared<PatternNode>();
      n->kind = PatternNode::Kind::kStart;
      return n;
    }
    if (c == '$') {
      auto n = std::make_shared<PatternNode>();
      n->kind = PatternNode::Kind::kEnd;
      return n;
    }
    if (c == '(') {
      if (i_ + 1 < s_.size() && s_[i_] == '?') {
        if (s_[i_ + 1] != ':') throw Unsupported{};  // lookaround, named groups
        i_ += 2;
      }
      Node inner = alternation();
      if (i_ >= s_.size() || s_[i_] != ')') throw Unsupported{};
      ++i_;
      return inner;
    }
    if (c == '.') return set({{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}, true);
    if (c == '[') return bracket();
    if (c == '\\') {
      auto [ranges, negated] = escape();
      return set(std::move(ranges), negated);
    }
    if (c == '*' || c == '+' || c == '?' || c == '{' || c == ')' || c == ']') throw Unsupported{};
    return set({{c, c}});
  }

  Node bracket() {
    bool negated = i_ < s_.size() && s_[i_] == '^';
    if (negated) ++i_;
    std::vector<std::pair<char32_t, char32_t>> ranges;
    bool first = true;
    while (i_ < s_.size() && (s_[i_] != ']' || first)) {
      first = false;
      char32_t lo = s_[i_++];
      if (lo == '\\') {
        auto [r, neg] = escape();
        if (neg) throw Unsupported{};
        if (r.size() != 1 || r[0].first != r[0].second) {
          ranges.insert(ranges.end(), r.begin(), r.end());
          continue;
        }
        lo = r[0].first;
      }
      char32_t hi = lo;
      if (i_ + 1 < s_.size() && s_[i_] == '-' && s_[i_ + 1] != ']') {
        ++i_;
        hi = s_[i_++];
        if (hi == '\\') {
          auto [r, neg] = escape();
          if (neg || r.size() != 1 || r[0].first != r[0].second) throw Unsupported{};
          hi = r[0].first;
        }
        if (hi < lo) throw Unsupported{};
      }
      ranges.emplace_back(lo, hi);
    }
    if (i_ >= s_.size()) throw Unsupported{};
    ++i_;  // ]
    return set(std::move(ranges), negated);
  }

  std::size_t number() {
    std::size_t n = 0;
    bool any = false;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
      n = n * 10 + (s_[i_++] - '0');
      any = true;
      if (n > 1000) throw Unsupported{};
    }
    if (!any) throw Unsupported{};
    return n;
  }

  void quantifier(PatternNode& atom) {
    if (i_ >= s_.size()) return;
    char32_t c = s_[i_];
    if (c == '*' || c == '+' || c == '?') {
      ++i_;
      atom.min = c == '+' ? 1 : 0;
      atom.max = c == '?' ? 1 : kUnbounded;
    } else if (c == '{') {
      ++i_;
      atom.min = number();
      atom.max = atom.min;
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        atom.max = i_ < s_.size() && s_[i_] == '}' ? kUnbounded : number();
      }
      if (i_ >= s_.size() || s_[i_] != '}' || atom.max < atom.min) throw Unsupported{};
      ++i_;
    } else {
      return;
    }
    if (i_ < s_.size() && s_[i_] == '?') ++i_;  // lazy: the same strings match
    if (atom.kind == PatternNode::Kind::kStart || atom.kind == PatternNode::Kind::kEnd) throw Unsupported{};
  }

  std::u32string s_;
  std::size_t i_ = 0;
};

// What a negated class draws from: ASCII letters, digits and punctuation, a few BMP letters; never
// an astral character or a lone surrogate (those are the mutation families' edges, not valid text).
constexpr char32_t kPool[] = {'a', 'b', 'c', 'k', 'm', 'q', 'x', 'z', 'A', 'K', 'Z', '0', '1', '7',  '9',
                              '-', '_', '.', '~', '!', '*', '(', ')', ':', '@', '+', '=', ',', 0xE9, 0x4E2D};

char32_t draw_from(const PatternNode& set, Rng& rng) {
  if (!set.negated) {
    // Each range equally likely (not each character), so "[A-Za-z0-9_-]" often gives '-' and '_'.
    const auto& [lo, hi] = set.ranges[rng.below(set.ranges.size())];
    return static_cast<char32_t>(lo + rng.below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  std::vector<char32_t> allowed;
  for (char32_t c : kPool) {
    bool excluded = false;
    for (const auto& [lo, hi] : set.ranges) excluded = excluded || (c >= lo && c <= hi);
    if (!excluded) allowed.push_back(c);
  }
  return allowed.empty() ? char32_t{'a'} : allowed[rng.below(allowed.size())];
}

void draw_node(const PatternNode& n, Rng& rng, PatternText::Drawn& out) {
  std::size_t count = n.min;
  if (n.max != n.min) {
    const std::size_t top = n.max == kUnbounded ? n.min + 4 : std::min(n.max, n.min + 4);
    count = n.min + static_cast<std::size_t>(rng.below(top - n.min + 1));
  }
  for (std::size_t k = 0; k < count; ++k) {
    switch (n.kind) {
      case PatternNode::Kind::kStart:
        if (out.text.empty()) out.anchored_start = true;
        break;
      case PatternNode::Kind::kEnd:
        out.ended = true;
        break;
      case PatternNode::Kind::kSet:
        append_utf8(out.text, draw_from(n, rng));
        break;
      case PatternNode::Kind::kSequence:
        for (const auto& child : n.children) {
          if (out.ended) return;
          draw_node(*child, rng, out);
        }
        break;
      case PatternNode::Kind::kAlternation:
        draw_node(*n.children[rng.below(n.children.size())], rng, out);
        break;
    }
  }
}

}  // namespace

std::optional<PatternText> PatternText::parse(std::string_view source) {
  std::wstring points = json::code_points_of(source);
  std::u32string text(points.begin(), points.end());
  try {
    PatternText out;
    out.root_ = Parser(std::move(text)).parse();
    return out;
  } catch (const Unsupported&) {
    return std::nullopt;
  }
}

PatternText::Drawn PatternText::draw(Rng& rng) const {
  Drawn out;
  draw_node(*root_, rng, out);
  return out;
}

}  // namespace crosscheck::gen
