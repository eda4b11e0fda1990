// equal.cpp: exact decimal arithmetic on number spellings, and semantic equality.
//
// A number is normalised to sign, significant digits D (no leading or trailing zeros) and X, the
// position of the decimal point relative to D: value = 0.D * 10^X. Equal values have equal (sign,
// D, X). X is kept as a signed decimal string so that exponents of any length compare exactly.
#include "json/equal.hpp"

#include <algorithm>
#include <unordered_map>

namespace crosscheck::json {
namespace {

// --- signed big decimal integers as strings: "-123", "0", "45" --------------------------------

std::string strip_zeros(std::string digits) {
  std::size_t nz = digits.find_first_not_of('0');
  return nz == std::string::npos ? "0" : digits.substr(nz);
}

int compare_magnitude(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string add_magnitudes(const std::string& a, const std::string& b) {
  std::string r;
  int carry = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
    int da = i < a.size() ? a[a.size() - 1 - i] - '0' : 0;
    int db = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    int s = da + db + carry;
    r.push_back(static_cast<char>('0' + s % 10));
    carry = s / 10;
  }
  std::reverse(r.begin(), r.end());
  return strip_zeros(r);
}

std::string sub_magnitudes(const std::string& a, const std::string& b) {  // requires a >= b
  std::string r;
  int borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    int da = a[a.size() - 1 - i] - '0' - borrow;
    int db = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    borrow = da < db ? 1 : 0;
    r.push_back(static_cast<char>('0' + da + borrow * 10 - db));
  }
  std::reverse(r.begin(), r.end());
  return strip_zeros(r);
}

struct BigInt {
  bool negative = false;
  std::string magnitude = "0";
};

BigInt add(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.negative == b.negative) {
    r.magnitude = add_magnitudes(a.magnitude, b.magnitude);
    r.negative = a.negative;
  } else if (compare_magnitude(a.magnitude, b.magnitude) >= 0) {
    r.magnitude = sub_magnitudes(a.magnitude, b.magnitude);
    r.negative = a.negative;
  } else {
    r.magnitude = sub_magnitudes(b.magnitude, a.magnitude);
    r.negative = b.negative;
  }
  if (r.magnitude == "0") r.negative = false;
  return r;
}

BigInt from_int(long long v) {
  BigInt r;
  r.negative = v < 0;
  unsigned long long m =
      v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  r.magnitude = std::to_string(m);
  return r;
}

int compare(const BigInt& a, const BigInt& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c = compare_magnitude(a.magnitude, b.magnitude);
  return a.negative ? -c : c;
}

std::string to_string(const BigInt& v) { return (v.negative ? "-" : "") + v.magnitude; }

// --- decimals ---------------------------------------------------------------------------------

struct Decimal {
  bool negative = false;
  std::string digits;  // empty for zero
  BigInt point;        // X in 0.D * 10^X
  bool zero() const { return digits.empty(); }
};

Decimal normalize(std::string_view text) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    d.negative = true;
    ++i;
  }
  std::string all;           // integer and fraction digits
  long long int_digits = 0;  // how many of them precede the decimal point
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    all.push_back(text[i++]);
    ++int_digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') all.push_back(text[i++]);
  }
  BigInt exponent;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent.negative = text[i++] == '-';
    exponent.magnitude = strip_zeros(std::string(text.substr(i)));
    if (exponent.magnitude == "0") exponent.negative = false;
  }
  std::size_t lead = all.find_first_not_of('0');
  if (lead == std::string::npos) {  // zero, whatever its sign or exponent
    d.negative = false;
    return d;
  }
  std::size_t trail = all.find_last_not_of('0');
  d.digits = all.substr(lead, trail - lead + 1);
  // 0.D * 10^X: X = int_digits - lead + exponent.
  d.point = add(exponent, from_int(int_digits - static_cast<long long>(lead)));
  return d;
}

int compare_decimals(const Decimal& a, const Decimal& b) {
  if (a.zero() || b.zero()) {
    if (a.zero() && b.zero()) return 0;
    if (a.zero()) return b.negative ? 1 : -1;
    return a.negative ? -1 : 1;
  }
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int c = compare(a.point, b.point);
  if (c == 0) {
    c = a.digits.compare(b.digits);  // same length prefix compare; shorter is smaller when a prefix
    c = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return a.negative ? -c : c;
}

bool objects_equal(const Value& a, const Value& b);

}  // namespace

int compare_numbers(std::string_view a, std::string_view b) {
  return compare_decimals(normalize(a), normalize(b));
}

bool is_integral(std::string_view number) {
  Decimal d = normalize(number);
  if (d.zero()) return true;
  // Integral when X >= len(D).
  return compare(d.point, from_int(static_cast<long long>(d.digits.size()))) >= 0;
}

bool is_safe_integer(std::string_view number) {
  if (!is_integral(number)) return false;
  Decimal d = normalize(number);
  d.negative = false;
  return compare_decimals(d, normalize("9007199254740991")) <= 0;
}

std::string canonical_number(std::string_view number) {
  Decimal d = normalize(number);
  if (d.zero()) return "0";
  std::string sign = d.negative ? "-" : "";
  // value = D * 10^k with k = X - len(D).
  BigInt k = add(d.point, from_int(-static_cast<long long>(d.digits.size())));
  if (!k.negative && k.magnitude.size() <= 2 && std::stoi(k.magnitude) + d.digits.size() <= 21) {
    return sign + d.digits + std::string(static_cast<std::size_t>(std::stoi(k.magnitude)), '0');
  }
  return sign + d.digits + "E" + to_string(k);
}

namespace {
bool objects_equal(const Value& a, const Value& b) {
  // The common case without a map: the same keys in the same order, every value equal (then the last
  // value of each key is equal too). Anything else is decided by the maps below.
  const auto& am = a.members();
  const auto& bm = b.members();
  if (am.size() == bm.size()) {
    bool same = true;
    for (std::size_t i = 0; same && i < am.size(); ++i)
      same = am[i].key == bm[i].key && semantically_equal(am[i].value, bm[i].value);
    if (same) return true;
  }
  // Objects are maps: the last value of each key counts.
  auto index = [](const Value& v) {
    std::unordered_map<std::string_view, const Value*> m;
    for (const auto& member : v.members()) m[member.key] = &member.value;
    return m;
  };
  auto ma = index(a), mb = index(b);
  if (ma.size() != mb.size()) return false;
  for (const auto& [key, value] : ma) {
    auto it = mb.find(key);
    if (it == mb.end() || !semantically_equal(*value, *it->second)) return false;
  }
  return true;
}
}  // namespace

bool semantically_equal(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.as_bool() == b.as_bool();
    case Kind::kNumber:
      return a.number_text() == b.number_text() || compare_numbers(a.number_text(), b.number_text()) == 0;
    case Kind::kString:
      return a.string_value() == b.string_value();
    case Kind::kArray: {
      if (a.items().size() != b.items().size()) return false;
      for (std::size_t i = 0; i < a.items().size(); ++i) {
        if (!semantically_equal(a.items()[i], b.items()[i])) return false;
      }
      return true;
    }
    case Kind::kObject:
      return objects_equal(a, b);
  }
  return false;
}

}  // namespace crosscheck::json
