// input_traits.cpp: analyse_input(), an iterative strict-JSON scanner that records traits and where
// they sit. It replaces a parse into json::Value plus a recursive walk, which used call stack in
// proportion to the input's depth (a 10,001-deep input overflowed an ASan Debug stack).
#include "layers/structural/input_traits.hpp"

#include <algorithm>
#include <cstdint>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/wtf8.hpp"

namespace crosscheck::layers::structural {

bool InputTraits::any() const { return !names().empty(); }

std::vector<std::string> InputTraits::names() const {
  std::vector<std::string> n;
  if (not_json) n.push_back("not-json");
  if (invalid_utf8) n.push_back("invalid-utf8");
  if (duplicate_keys) n.push_back("duplicate-keys");
  if (lone_surrogate) n.push_back("lone-surrogate");
  if (huge_exponent) n.push_back("huge-exponent");
  if (big_integer) n.push_back("big-integer");
  if (negative_zero) n.push_back("negative-zero");
  if (long_number) n.push_back("long-number");
  if (deep_nesting) n.push_back("deep-nesting");
  return n;
}

namespace {

// Inputs above this many bytes are not analysed (the comparator's own parse limit).
constexpr std::size_t kMaxBytes = std::size_t{1} << 30;
// Levels with a frame each (about 50 bytes); deeper than this the rest of the input is not examined
// (it is deep-nesting whatever it holds), so memory stays bounded for a gigabyte of '['.
constexpr std::size_t kMaxFrames = 1000000;

class Scanner {
 public:
  Scanner(std::string_view s, InputTraits& t) : s_(s), t_(t) {}

  /// False when the input is not one strict JSON text.
  bool run() {
    ws();
    if (!value()) return false;
    while (!stack_.empty() && !stopped_) {
      ws();
      if (i_ >= s_.size()) return false;
      Frame& f = stack_.back();
      const char close = f.object ? '}' : ']';
      if (s_[i_] == close) {
        if (f.object) duplicates(f);
        path_.resize(f.path_len);
        stack_.pop_back();
        ++i_;
        continue;
      }
      if (f.count > 0) {
        if (s_[i_] != ',') return false;
        ++i_;
        ws();
      }
      path_.resize(f.path_len);
      if (f.object) {
        std::string key;
        if (i_ >= s_.size() || s_[i_] != '"' || !string(&key)) return false;
        ws();
        if (i_ >= s_.size() || s_[i_] != ':') return false;
        ++i_;
        ws();
        json::append_pointer_token(path_, key);
        if (lone_) site(t_.lone_surrogate, "lone-surrogate");
        f.keys.push_back(std::move(key));
      } else {
        path_ += '/';
        path_ += std::to_string(f.count);
      }
      ++f.count;
      if (!value()) return false;  // may push a frame: `f` is not used after this
    }
    if (stopped_) return true;
    ws();
    return i_ == s_.size();
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t path_len = 0;  // the container's own path is path_.substr(0, path_len)
    std::size_t count = 0;     // members or items so far
    std::vector<std::string> keys;
  };

  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  void site(bool& flag, const char* name) {
    flag = true;
    t_.sites.push_back({name, path_});
  }

  /// One value at path_: a scalar is consumed, a container is opened (pushed).
  bool value() {
    const std::size_t depth = stack_.size();
    t_.depth = std::max(t_.depth, depth);
    // Every branch deeper than the limit passes through one value just below it: that is its site.
    if (depth == InputTraits::kDeepNesting + 1) site(t_.deep_nesting, "deep-nesting");
    if (i_ >= s_.size()) return false;
    char c = s_[i_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxFrames) {
        stopped_ = true;
        return true;
      }
      Frame f;
      f.object = c == '{';
      f.path_len = path_.size();
      stack_.push_back(std::move(f));
      ++i_;
      return true;
    }
    if (c == '"') {
      if (!string(nullptr)) return false;
      if (lone_) site(t_.lone_surrogate, "lone-surrogate");
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    for (std::string_view word : {"true", "false", "null"}) {
      if (s_.substr(i_, word.size()) == word) {
        i_ += word.size();
        return true;
      }
    }
    return false;
  }

  /// A string at s_[i_] == '"'; its content decoded into *out (WTF-8) when out is given. Sets lone_.
  bool string(std::string* out) {
    lone_ = false;
    ++i_;
    while (i_ < s_.size()) {
      unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        if (out) out->push_back(static_cast<char>(c));
        ++i_;
        continue;
      }
      if (i_ + 1 >= s_.size()) return false;
      char e = s_[i_ + 1];
      if (e != 'u') {
        static constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
        std::size_t k = kFrom.find(e);
        if (k == std::string_view::npos) return false;
        if (out) out->push_back(kTo[k]);
        i_ += 2;
        continue;
      }
      std::uint32_t cp;
      if (!hex4(i_, cp)) return false;
      i_ += 6;
      // A high surrogate joins a following low one, as json::parse decodes it.
      std::uint32_t low;
      if (cp >= 0xD800 && cp <= 0xDBFF && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u' &&
          hex4(i_, low) && low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i_ += 6;
      }
      if (cp >= 0xD800 && cp <= 0xDFFF) lone_ = true;
      if (out) json::append_wtf8(*out, cp);
    }
    return false;
  }

  /// The code point of "\uXXXX" at s_[at].
  bool hex4(std::size_t at, std::uint32_t& cp) const {
    if (s_.size() - at < 6) return false;
    cp = 0;
    for (std::size_t k = 2; k < 6; ++k) {
      int h = json::hex_value(s_[at + k]);
      if (h < 0) return false;
      cp = cp * 16 + static_cast<std::uint32_t>(h);
    }
    return true;
  }

  bool number() {
    const std::size_t start = i_;
    auto digit = [&] { return i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; };
    if (s_[i_] == '-') ++i_;
    if (!digit()) return false;
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (digit()) ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digit()) return false;
      while (digit()) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digit()) return false;
      while (digit()) ++i_;
    }
    const std::string_view n = s_.substr(start, i_ - start);
    if (n.size() > 4300) site(t_.long_number, "long-number");
    if (n[0] == '-' && json::compare_numbers(n, "0") == 0) site(t_.negative_zero, "negative-zero");
    bool huge = json::compare_numbers(n, "1.7976931348623157E308") > 0 ||
                json::compare_numbers(n, "-1.7976931348623157E308") < 0;
    auto e = n.find_first_of("eE");
    if (e != std::string_view::npos) {
      std::string_view exp = n.substr(e + 1);
      if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
      while (exp.size() > 1 && exp[0] == '0') exp.remove_prefix(1);
      if (exp.size() > 3 || (exp.size() == 3 && exp > "308")) huge = true;
    }
    const bool big = json::is_integral(n) && !json::is_safe_integer(n);
    if (huge) site(t_.huge_exponent, "huge-exponent");
    if (big) site(t_.big_integer, "big-integer");
    if (big || huge) t_.big_number_paths.push_back(path_);
    return true;
  }

  /// Repeated keys of a closed object; path_ is the object's own path.
  void duplicates(Frame& f) {
    if (f.keys.size() < 2) return;
    std::sort(f.keys.begin(), f.keys.end());
    for (std::size_t k = 1; k < f.keys.size(); ++k) {
      if (f.keys[k] != f.keys[k - 1] || (k >= 2 && f.keys[k] == f.keys[k - 2])) continue;
      const std::size_t len = path_.size();
      path_.resize(f.path_len);
      json::append_pointer_token(path_, f.keys[k]);
      site(t_.duplicate_keys, "duplicate-keys");
      path_.resize(len);
    }
  }

  std::string_view s_;
  InputTraits& t_;
  std::size_t i_ = 0;
  std::string path_;
  std::vector<Frame> stack_;
  bool lone_ = false;     // the last string read held a lone surrogate
  bool stopped_ = false;  // kMaxFrames reached
};

}  // namespace

InputTraits analyse_input(std::string_view bytes) {
  InputTraits t;
  const bool bom = bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF";
  if (bytes.size() > kMaxBytes || bom || !json::is_valid_utf8(bytes)) {
    t.not_json = true;
    t.invalid_utf8 = !bom && bytes.size() <= kMaxBytes;
    return t;
  }
  Scanner scanner(bytes, t);
  if (!scanner.run()) {
    // Traits of a text that is not JSON mean nothing: it is just that.
    t = InputTraits{};
    t.not_json = true;
  }
  return t;
}

}  // namespace crosscheck::layers::structural
