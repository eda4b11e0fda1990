// mutation_text.cpp: number respelling, string splicing, token boundaries (see mutation_text.hpp).
#include "gen/mutation_text.hpp"

#include <array>
#include <string_view>
#include <vector>

#include "json/write.hpp"

namespace crosscheck::gen {

namespace {

struct Decimal {
  bool negative = false;
  std::string digits;          // significant digits, no leading zeros ("0" for zero)
  long long exponent = 0;      // value = digits * 10^exponent
  bool huge_exponent = false;  // the spelled exponent does not fit: only cosmetic respellings
};

std::optional<Decimal> decompose(std::string_view text) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    d.negative = true;
    ++i;
  }
  std::string digits;
  long long fraction = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) digits.push_back(text[i]);
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++fraction) digits.push_back(text[i]);
  }
  long long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    std::string_view e = text.substr(i);
    if (e.size() > 15) {
      d.huge_exponent = true;
    } else {
      for (char c : e) exponent = exponent * 10 + (c - '0');
    }
    if (negative) exponent = -exponent;
  }
  if (digits.empty()) return std::nullopt;
  // Trailing zeros move into the exponent, leading zeros go.
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    d.digits = "0";
    d.exponent = 0;
    return d;
  }
  digits.erase(0, first);
  long long shift = 0;
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++shift;
  }
  d.digits = digits;
  d.exponent = exponent - fraction + shift;
  return d;
}

std::string plain(const Decimal& d) {
  // digits * 10^exponent written without exponent (callers bound |exponent|).
  std::string out = d.digits;
  if (d.exponent >= 0) {
    out.append(static_cast<std::size_t>(d.exponent), '0');
    return out + ".0";
  }
  const auto frac = static_cast<std::size_t>(-d.exponent);
  if (out.size() <= frac) out.insert(0, frac - out.size() + 1, '0');
  out.insert(out.size() - frac, ".");
  return out;
}

}  // namespace

std::optional<std::string> respell_number(std::string_view text, Rng& rng) {
  auto d = decompose(text);
  if (!d) return std::nullopt;
  const std::string sign = d->negative ? "-" : "";
  std::vector<std::string> forms;
  if (d->huge_exponent) {
    // Only cosmetic changes that keep the exponent's digits: E/e, explicit '+', ".0" on the mantissa.
    const std::size_t e = text.find_first_of("eE");
    std::string swapped(text);
    swapped[e] = text[e] == 'e' ? 'E' : 'e';
    forms.push_back(swapped);
    if (text.find('.') == std::string_view::npos) {
      forms.push_back(std::string(text.substr(0, e)) + ".0" + std::string(text.substr(e)));
    }
  } else if (d->digits == "0") {
    forms = {sign + "0.0", sign + "0E0", sign + "0e+5", sign + "0.000", sign + "0E-3"};
  } else {
    const long long e = d->exponent;
    const std::string& D = d->digits;
    const long long point = e + static_cast<long long>(D.size()) - 1;
    forms.push_back(sign + D + "E" + std::to_string(e));
    forms.push_back(sign + D + "0E" + std::to_string(e - 1));
    forms.push_back(sign + D.substr(0, 1) + "." + (D.size() > 1 ? D.substr(1) : "0") +
                    (point >= 0 ? "e+" : "e") + std::to_string(point));
    forms.push_back(sign + D.substr(0, 1) + "." + (D.size() > 1 ? D.substr(1) : "0") + "E" +
                    std::to_string(point));
    forms.push_back(sign + "0." + D + "E" + std::to_string(point + 1));
    if (e >= -30 && e <= 30) {
      const std::string p = plain(*d);
      forms.push_back(sign + p);
      forms.push_back(sign + p + "00");
    }
  }
  std::erase_if(forms, [&](const std::string& f) { return f == text; });
  if (forms.empty()) return std::nullopt;
  return rng.pick(forms);
}

namespace {

// Each value changes when read into a double and written back in its shortest spelling, and none is
// an integer beyond 2^53 or has an exponent beyond 308: a divergence on them is a contract one.
constexpr std::array<std::string_view, 13> kBeyondDouble = {"0.10000000000000001",
                                                            "1.0000000000000001",
                                                            "-1.0000000000000001",
                                                            "0.30000000000000001",
                                                            "0.99999999999999999",
                                                            "1.00000000000000000000001",
                                                            "3.14159265358979323846264338327950288",
                                                            "2.2250738585072011E-308",
                                                            "9007199254740993.5",
                                                            "-9007199254740993.5",
                                                            "100000000000000000000000.5",
                                                            "123456789012345678901234567890.5",
                                                            "1.2345678901234567890123E-30"};

// Implementation-defined input (big integers, huge exponents, -0) and the ends of the double range,
// some of which a double does carry (1.5e308, -0.0): an SDK may still take another path for them.
constexpr std::array<std::string_view, 18> kDoubleEdges = {"9007199254740993",
                                                           "-9007199254740993",
                                                           "18446744073709551617",
                                                           "123456789012345678901234567890",
                                                           "1E400",
                                                           "-1E400",
                                                           "5e-400",
                                                           "4.9E-324",
                                                           "2.5E-324",
                                                           "1E-320",
                                                           "2.2250738585072014E-308",
                                                           "1.7976931348623157E308",
                                                           "1.7976931348623159E308",
                                                           "1.5e308",
                                                           "-1.5e308",
                                                           "-0",
                                                           "-0.0",
                                                           "-0.0E0"};

/// 18 to 30 significant digits, never integral (the exponent stays below the fraction's length),
/// so a double loses digits and no big-integer trait applies.
std::string long_mantissa(Rng& rng) {
  const std::size_t count = 18 + static_cast<std::size_t>(rng.below(13));
  std::string digits;
  digits.push_back(static_cast<char>('1' + rng.below(9)));
  while (digits.size() + 1 < count) digits.push_back(static_cast<char>('0' + rng.below(10)));
  digits.push_back(static_cast<char>('1' + rng.below(9)));  // a last zero would shorten the fraction
  const std::size_t whole = static_cast<std::size_t>(rng.below(count));  // digits before the point
  std::string out = rng.chance(0.2) ? "-" : "";
  if (whole == 0) {
    out += "0." + digits;
  } else {
    out += digits.substr(0, whole) + "." + digits.substr(whole);
  }
  if (rng.chance(0.2)) {
    const auto fraction = static_cast<std::int64_t>(count - whole);
    const std::int64_t exponent = rng.between(-20, std::min<std::int64_t>(20, fraction - 1));
    out += (rng.chance(0.5) ? "E" : "e") + std::to_string(exponent);
  }
  return out;
}

}  // namespace

std::string beyond_binary64_number(Rng& rng) {
  const std::uint64_t kind = rng.below(20);
  if (kind < 8) return std::string(kBeyondDouble[rng.below(kBeyondDouble.size())]);
  if (kind < 15) return long_mantissa(rng);
  return std::string(kDoubleEdges[rng.below(kDoubleEdges.size())]);
}

json::Value string_marker(std::uint64_t n) {
  return json::Value::string(
      "\x01"
      "crosscheck-marker-" +
      std::to_string(n) + "\x02");
}

std::string splice_string(const json::Value& document, const json::Value& marker,
                          std::string_view raw_token) {
  std::string text = json::write(document);
  const std::string token = json::quote(marker.string_value());
  const std::size_t at = text.find(token);
  if (at != std::string::npos) text.replace(at, token.size(), raw_token);
  return text;
}

std::string escape_inner(std::string_view wtf8) {
  std::string quoted = json::quote(wtf8);
  return quoted.substr(1, quoted.size() - 2);
}

std::vector<std::size_t> token_boundaries(std::string_view text) {
  std::vector<std::size_t> out{0};
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
        out.push_back(i + 1);
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        if (out.back() != i) out.push_back(i);
        break;
      case '{':
      case '}':
      case '[':
      case ']':
      case ',':
      case ':':
        if (out.back() != i) out.push_back(i);
        out.push_back(i + 1);
        break;
      default:
        break;
    }
  }
  if (out.back() != text.size()) out.push_back(text.size());
  return out;
}

}  // namespace crosscheck::gen
