// comparator.cpp: divergence classes, input traits and bucket signatures.
#include "differential/comparator.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::differential {

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kAccepted:
      return "accepted";
    case Outcome::kRejected:
      return "rejected";
    case Outcome::kUnsupported:
      return "unsupported";
    case Outcome::kError:
      return "error";
    case Outcome::kCrash:
      return "crash";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kProtocol:
      return "protocol";
  }
  return "?";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (Outcome o : {Outcome::kAccepted, Outcome::kRejected, Outcome::kUnsupported, Outcome::kError,
                    Outcome::kCrash, Outcome::kTimeout, Outcome::kProtocol}) {
    if (name == outcome_name(o)) return o;
  }
  return std::nullopt;
}

const char* class_name(DivergenceClass c) {
  switch (c) {
    case DivergenceClass::kAcceptance:
      return "acceptance";
    case DivergenceClass::kWarnings:
      return "warnings";
    case DivergenceClass::kDiagnostics:
      return "diagnostics";
    case DivergenceClass::kRoundTripSelf:
      return "round-trip-self";
    case DivergenceClass::kRoundTripCross:
      return "round-trip-cross";
    case DivergenceClass::kCrash:
      return "crash";
    case DivergenceClass::kTimeout:
      return "timeout";
    case DivergenceClass::kSdkError:
      return "sdk-error";
    case DivergenceClass::kProtocol:
      return "protocol";
  }
  return "?";
}

std::optional<DivergenceClass> parse_class(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(DivergenceClass::kProtocol); ++i) {
    auto c = static_cast<DivergenceClass>(i);
    if (name == class_name(c)) return c;
  }
  return std::nullopt;
}

// --- input traits -----------------------------------------------------------------------------

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

bool has_lone_surrogate(std::string_view wtf8) {
  // WTF-8 encodes a surrogate as ED A0..BF xx.
  for (std::size_t i = 0; i + 1 < wtf8.size(); ++i) {
    if (static_cast<unsigned char>(wtf8[i]) == 0xED && static_cast<unsigned char>(wtf8[i + 1]) >= 0xA0)
      return true;
  }
  return false;
}

void scan(const json::Value& v, std::size_t depth, const std::string& path, InputTraits& t) {
  if (depth > 100) t.deep_nesting = true;
  switch (v.kind()) {
    case json::Kind::kNumber: {
      const std::string& n = v.number_text();
      if (n.size() > 4300) t.long_number = true;
      if (json::compare_numbers(n, "0") == 0 && n[0] == '-') t.negative_zero = true;
      bool huge = json::compare_numbers(n, "1.7976931348623157E308") > 0 ||
                  json::compare_numbers(n, "-1.7976931348623157E308") < 0;
      auto e = n.find_first_of("eE");
      if (e != std::string::npos) {
        std::string_view exp = std::string_view(n).substr(e + 1);
        if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
        while (exp.size() > 1 && exp[0] == '0') exp.remove_prefix(1);
        if (exp.size() > 3 || (exp.size() == 3 && exp > "308")) huge = true;
      }
      bool big = json::is_integral(n) && !json::is_safe_integer(n);
      t.huge_exponent = t.huge_exponent || huge;
      t.big_integer = t.big_integer || big;
      if (big || huge) t.big_number_paths.push_back(path);
      break;
    }
    case json::Kind::kString:
      if (has_lone_surrogate(v.string_value())) t.lone_surrogate = true;
      break;
    case json::Kind::kArray:
      for (std::size_t i = 0; i < v.items().size(); ++i)
        scan(v.items()[i], depth + 1, path + "/" + std::to_string(i), t);
      break;
    case json::Kind::kObject: {
      std::set<std::string_view> seen;
      for (const auto& m : v.members()) {
        if (!seen.insert(m.key).second) t.duplicate_keys = true;
        if (has_lone_surrogate(m.key)) t.lone_surrogate = true;
        scan(m.value, depth + 1, path + "/" + json::pointer_token(m.key), t);
      }
      break;
    }
    default:
      break;
  }
}

json::ParseLimits lenient_limits() {
  json::ParseLimits limits;
  limits.max_depth = 100000;
  limits.max_bytes = std::size_t{1} << 30;
  return limits;
}

/// Where two values first differ, and what kind of change it is (for round-trip buckets: the kind and
/// whether the member is one the schema declares, never the path itself, so one fault is one bucket).
struct Difference {
  std::string path;
  std::string kind;
};

std::string change_kind(const json::Value* a, const json::Value* b) {
  if (!a) return "added";
  if (!b) return "dropped";
  if (a->kind() != b->kind()) return "type-changed";
  if (a->is_number()) return "number-changed";
  if (a->is_string()) return "string-changed";
  if (a->is_array()) return "length-changed";
  return "changed";
}

using KnownNames = std::set<std::string, std::less<>>;

std::string member_label(const std::string& key, const KnownNames* known) {
  return known && !known->count(key) ? "unknown-member:" : "member:";
}

Difference first_difference(const json::Value& a, const json::Value& b, const std::string& path,
                            const std::string& member, const KnownNames* known) {
  auto here = [&](const json::Value* x, const json::Value* y, std::string p, const std::string& m) {
    return Difference{std::move(p), m + change_kind(x, y)};
  };
  if (a.kind() != b.kind()) return here(&a, &b, path, member);
  if (a.is_array()) {
    if (a.items().size() != b.items().size()) return here(&a, &b, path, member);
    for (std::size_t i = 0; i < a.items().size(); ++i) {
      if (!json::semantically_equal(a.items()[i], b.items()[i])) {
        return first_difference(a.items()[i], b.items()[i], path + "/" + std::to_string(i), "", known);
      }
    }
    return here(&a, &b, path, member);
  }
  if (a.is_object()) {
    for (const auto& m : a.members()) {
      const json::Value* other = b.find(m.key);
      const json::Value* mine = a.find(m.key);
      std::string child = path;
      json::append_pointer_token(child, m.key);
      if (!other) return here(mine, nullptr, child, member_label(m.key, known));
      if (!json::semantically_equal(*mine, *other)) {
        return first_difference(*mine, *other, child, member_label(m.key, known), known);
      }
    }
    for (const auto& m : b.members()) {
      if (!a.find(m.key)) {
        std::string child = path;
        json::append_pointer_token(child, m.key);
        return here(nullptr, b.find(m.key), child, member_label(m.key, known));
      }
    }
  }
  return here(&a, &b, path, member);
}

using DiagKey = std::pair<std::string, std::string>;  // (path, code)

/// The diagnostics whose path is not a proper prefix of another one's: the faults themselves, without
/// the union and intersection summaries that cascade up from them. Buckets are keyed on these.
std::multiset<DiagKey> leaves(const std::multiset<DiagKey>& s) {
  std::multiset<DiagKey> out;
  for (const auto& d : s) {
    bool ancestor = false;
    for (const auto& other : s) {
      const std::string& p = other.first;
      if (p.size() > d.first.size() && p.compare(0, d.first.size(), d.first) == 0 &&
          (d.first.empty() || p[d.first.size()] == '/')) {
        ancestor = true;
        break;
      }
    }
    if (!ancestor) out.insert(d);
  }
  return out;
}

std::multiset<DiagKey> diag_set(const ImplResult& r, std::string_view severity) {
  std::multiset<DiagKey> s;
  for (const auto& d : r.diagnostics) {
    if (d.severity == severity) s.emplace(d.path, d.code);
  }
  return s;
}

std::string describe(const std::multiset<DiagKey>& s) {
  if (s.empty()) return "none";
  std::string out;
  for (const auto& [path, code] : s) {
    if (!out.empty()) out += ", ";
    out += code + " at '" + path + "'";
  }
  return out;
}

/// Per group, the diagnostic codes it has that some other group lacks ("cpp,python:+invalid_type").
/// Codes, not paths: the same fault at many slots (or under many random member names) is one bucket.
/// A group that rejected the text itself (invalid_json) is just that: the structural errors the others
/// found behind the same input do not make a different fault. When every group has the same codes and
/// only the paths differ, that is said as "same-codes".
template <class Groups, class Shape>
std::string differing_codes(const Groups& groups, Shape&& shape) {
  // Which (code, path shape) pairs each group has; a code differs for a group when one of its pairs
  // is missing from another group, so an extra error under a code both sides use still shows.
  std::map<std::set<std::string>, std::set<std::string>> by_pairs;  // pairs -> implementations
  for (const auto& [set, names] : groups) {
    std::set<std::string> pairs;
    for (const auto& d : set) pairs.insert(d.second + "@" + shape(d.first));
    if (std::any_of(set.begin(), set.end(), [](const auto& d) { return d.second == "invalid_json"; })) {
      pairs = {"invalid_json@"};
    }
    by_pairs[pairs].insert(names.begin(), names.end());
  }
  std::map<std::string, std::size_t> count;
  for (const auto& [pairs, names] : by_pairs) {
    for (const auto& p : pairs) ++count[p];
  }
  std::vector<std::pair<std::string, std::string>> parts;  // (who, codes of their own)
  for (const auto& [pairs, names] : by_pairs) {
    std::set<std::string> codes;
    for (const auto& p : pairs) {
      if (count[p] < by_pairs.size()) codes.insert(p.substr(0, p.find('@')));
    }
    std::string who, mine;
    for (const auto& n : names) who += (who.empty() ? "" : ",") + n;
    for (const auto& c : codes) mine += "+" + c;
    if (pairs.empty()) mine = "none";
    if (!mine.empty()) parts.emplace_back(who, mine);
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& [who, mine] : parts) out += (out.empty() ? "" : ";") + who + ":" + mine;
  return out.empty() ? "same-codes" : out;
}

}  // namespace

InputTraits analyse_input(std::string_view bytes) {
  InputTraits t;
  auto parsed = json::parse(bytes, lenient_limits());
  if (!parsed.ok()) {
    t.not_json = true;
    t.invalid_utf8 = parsed.error().expected == "UTF-8 text";
    return t;
  }
  scan(parsed.value(), 0, "", t);
  return t;
}

std::string path_shape(std::string_view pointer, const std::set<std::string, std::less<>>* known_names) {
  std::string out;
  std::size_t i = 0;
  while (i < pointer.size()) {
    std::size_t next = pointer.find('/', i + 1);
    if (next == std::string_view::npos) next = pointer.size();
    std::string_view segment = pointer.substr(i + 1, next - i - 1);
    out += '/';
    bool numeric = !segment.empty() &&
                   std::all_of(segment.begin(), segment.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) {
      out += '*';
    } else if (known_names && known_names->find(segment) == known_names->end()) {
      out += '?';
    } else {
      out += segment;
    }
    i = next;
  }
  return out;
}

std::string outcome_tuple(const std::vector<ImplResult>& results) {
  std::vector<std::string> parts;
  for (const auto& r : results) parts.push_back(r.implementation + "=" + outcome_name(r.outcome));
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

std::vector<Divergence> compare(std::string_view root, std::string_view input,
                                const std::vector<ImplResult>& results, const CompareOptions& options) {
  std::vector<Divergence> found;
  InputTraits traits = analyse_input(input);
  // A big or huge number that an implementation's error points at sits in a typed slot: there the
  // contract (integers within +-(2^53-1)) decides, so it does not make the input free.
  bool typed_big_number = false;
  if (traits.big_integer || traits.huge_exponent) {
    std::set<std::string_view> big(traits.big_number_paths.begin(), traits.big_number_paths.end());
    for (const auto& r : results) {
      for (const auto& d : r.diagnostics) {
        typed_big_number = typed_big_number || (d.severity == "error" && big.count(d.path));
      }
    }
    if (typed_big_number) traits.big_integer = traits.huge_exponent = false;
  }
  const std::string tuple = outcome_tuple(results);
  // The traits are part of every signature: "python raises on invalid UTF-8" and "python raises on
  // something else" are different findings, and so are a big number in a typed slot and a string there.
  std::string trait_part;
  for (const auto& n : traits.names()) trait_part += (trait_part.empty() ? "" : ",") + n;
  if (typed_big_number) trait_part += std::string(trait_part.empty() ? "" : ",") + "big-number-in-typed-slot";

  // Signatures leave out the root and the concrete paths on purpose: the same fault shows up under
  // many roots and slots, and a person wants one bucket per fault, with examples, not one per slot.
  // `who` is the outcome tuple for comparisons and the implementation alone for its own failures.
  auto emit = [&](DivergenceClass cls, std::vector<std::string> impls, std::string detail,
                  const std::string& who, const std::string& specifics) {
    std::sort(impls.begin(), impls.end());
    Divergence d;
    d.cls = cls;
    d.implementations = std::move(impls);
    d.detail = std::move(detail);
    d.implementation_defined = traits.any();
    d.signature = std::string(class_name(cls)) + "|" + who + "|" + specifics + "|" + trait_part;
    d.bucket = schema::sha256_hex(d.signature).substr(0, 16);
    found.push_back(std::move(d));
  };
  auto codes_of = [](const std::multiset<DiagKey>& s) {
    std::set<std::string> codes;
    for (const auto& d : s) codes.insert(d.second);
    std::string joined;
    for (const auto& c : codes) joined += (joined.empty() ? "" : "+") + c;
    return joined.empty() ? std::string("none") : joined;
  };

  // Failures of a single implementation.
  for (const auto& r : results) {
    std::string why = r.message.value_or("");
    switch (r.outcome) {
      case Outcome::kCrash:
        emit(DivergenceClass::kCrash, {r.implementation}, r.implementation + " crashed: " + why,
             r.implementation, "");
        break;
      case Outcome::kTimeout:
        emit(DivergenceClass::kTimeout, {r.implementation}, r.implementation + " timed out: " + why,
             r.implementation, "");
        break;
      case Outcome::kError:
        emit(DivergenceClass::kSdkError, {r.implementation}, r.implementation + " raised: " + why,
             r.implementation, "");
        break;
      case Outcome::kProtocol:
        emit(DivergenceClass::kProtocol, {r.implementation}, r.implementation + " broke the protocol: " + why,
             r.implementation, "");
        break;
      default:
        break;
    }
  }

  std::vector<const ImplResult*> accepted, rejected;
  for (const auto& r : results) {
    if (r.outcome == Outcome::kAccepted) accepted.push_back(&r);
    if (r.outcome == Outcome::kRejected) rejected.push_back(&r);
  }

  // Acceptance.
  if (!accepted.empty() && !rejected.empty()) {
    std::vector<std::string> impls;
    std::string a, j, specifics;
    for (const auto* r : accepted) {
      impls.push_back(r->implementation);
      a += (a.empty() ? "" : ", ") + r->implementation;
    }
    std::set<std::string> error_shapes;
    for (const auto* r : rejected) {
      impls.push_back(r->implementation);
      auto errors = diag_set(*r, "error");
      j += (j.empty() ? "" : "; ") + r->implementation + " (" + describe(errors) + ")";
      error_shapes.insert(codes_of(leaves(errors)));
    }
    for (const auto& s : error_shapes) specifics += (specifics.empty() ? "" : "/") + s;
    emit(DivergenceClass::kAcceptance, impls, "accepted by " + a + "; rejected by " + j, tuple, specifics);
  }

  // Implementations grouped by their diagnostics: one divergence when the groups differ.
  auto emit_grouped = [&](DivergenceClass cls,
                          const std::map<std::multiset<DiagKey>, std::vector<std::string>>& groups,
                          const std::string& what) {
    if (groups.size() < 2) return;
    std::vector<std::string> impls;
    std::string detail;
    for (const auto& [set, names] : groups) {
      std::string who;
      for (const auto& n : names) {
        impls.push_back(n);
        who += (who.empty() ? "" : ", ") + n;
      }
      detail += (detail.empty() ? "" : "; ") + who + ": " + describe(set);
    }
    emit(cls, impls, what + detail, tuple,
         differing_codes(groups, [&](const std::string& p) { return path_shape(p, options.known_names); }));
  };

  // Warnings among the implementations that accepted (and can report them): multisets.
  if (accepted.size() >= 2) {
    std::map<std::multiset<DiagKey>, std::vector<std::string>> groups;
    for (const auto* r : accepted) {
      if (!options.without_warnings.count(r->implementation)) {
        groups[diag_set(*r, "warning")].push_back(r->implementation);
      }
    }
    emit_grouped(DivergenceClass::kWarnings, groups, "different warnings: ");
  }

  // Error diagnostics among the implementations that rejected: sets (repeats do not count).
  if (options.compare_diagnostics && rejected.size() >= 2) {
    std::map<std::multiset<DiagKey>, std::vector<std::string>> groups;
    for (const auto* r : rejected) {
      auto errors = diag_set(*r, "error");
      std::set<DiagKey> distinct(errors.begin(), errors.end());
      groups[std::multiset<DiagKey>(distinct.begin(), distinct.end())].push_back(r->implementation);
    }
    emit_grouped(DivergenceClass::kDiagnostics, groups, "different errors: ");
  }

  // Round trips.
  auto input_value = json::parse(input, lenient_limits());
  std::vector<std::pair<const ImplResult*, json::Value>> unequal;  // self-unequal encodings
  for (const auto* r : accepted) {
    if (!r->encoded) {
      std::string why = r->encode_error ? "encode failed: " + *r->encode_error : "no encoding was returned";
      emit(DivergenceClass::kRoundTripSelf, {r->implementation}, r->implementation + ": " + why,
           r->implementation, "encode-failed");
      continue;
    }
    auto enc = json::parse(*r->encoded, lenient_limits());
    if (!enc.ok()) {
      emit(DivergenceClass::kRoundTripSelf, {r->implementation},
           r->implementation + ": re-encoding is not JSON (" + enc.error().message() + ")", r->implementation,
           "not-json");
      continue;
    }
    if (!input_value.ok()) continue;  // an accepted non-JSON input is an acceptance matter
    if (!json::semantically_equal(input_value.value(), enc.value())) {
      auto where = first_difference(input_value.value(), enc.value(), "", "", options.known_names);
      emit(DivergenceClass::kRoundTripSelf, {r->implementation},
           r->implementation + ": re-encoding differs from the input at '" + where.path + "' (" + where.kind +
               ")",
           r->implementation, where.kind);
      unequal.emplace_back(r, std::move(enc.value()));
    }
  }
  // Cross: implementations that each changed the value, and changed it differently.
  for (std::size_t i = 0; i < unequal.size(); ++i) {
    for (std::size_t k = i + 1; k < unequal.size(); ++k) {
      if (!json::semantically_equal(unequal[i].second, unequal[k].second)) {
        auto where = first_difference(unequal[i].second, unequal[k].second, "", "", options.known_names);
        emit(DivergenceClass::kRoundTripCross,
             {unequal[i].first->implementation, unequal[k].first->implementation},
             unequal[i].first->implementation + " and " + unequal[k].first->implementation +
                 " re-encode differently at '" + where.path + "' (" + where.kind + ")",
             unequal[i].first->implementation + "," + unequal[k].first->implementation, where.kind);
      }
    }
  }
  return found;
}

}  // namespace crosscheck::differential
