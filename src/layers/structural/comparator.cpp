// comparator.cpp: layer 1, the divergences of one payload and their bucket signatures.
#include "layers/structural/comparator.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"
#include "layers/structural/detail/trait_sites.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::layers::structural {

using core::class_name;
using core::Diag;
using core::Divergence;
using core::DivergenceClass;
using core::ImplResult;
using core::Outcome;
using core::outcome_name;

namespace {

/// The parses behind the round-trip comparison. Parsing and comparing trees recurse once per level,
/// so depth stays at the decoder's own limit; an input deeper than that is not compared (its traits say
/// deep-nesting, from analyse_input(), which does not recurse).
json::ParseLimits round_trip_limits() {
  json::ParseLimits limits;
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
/// When every group has the same codes and only the paths differ, that is said as "same-codes".
/// (Groups that rejected the text itself, invalid_json, never get here: see compare().)
template <class Groups, class Shape>
std::string differing_codes(const Groups& groups, Shape&& shape) {
  // Which (code, path shape) pairs each group has; a code differs for a group when one of its pairs
  // is missing from another group, so an extra error under a code both sides use still shows.
  std::map<std::set<std::string>, std::set<std::string>> by_pairs;  // pairs -> implementations
  for (const auto& [set, names] : groups) {
    std::set<std::string> pairs;
    for (const auto& d : set) pairs.insert(d.second + "@" + shape(d.first));
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

/// The paths of the (path, code) pairs whose count is not the same in every group, without those that
/// are ancestors of another one (the summaries cascading up from a fault): where the groups differ.
template <class Groups>
std::vector<std::string> differing_paths(const Groups& groups) {
  std::multiset<DiagKey> differing;
  std::set<DiagKey> all;
  for (const auto& [set, names] : groups) all.insert(set.begin(), set.end());
  for (const auto& key : all) {
    std::set<std::size_t> counts;
    for (const auto& [set, names] : groups) counts.insert(set.count(key));
    if (counts.size() > 1) differing.insert(key);
  }
  std::vector<std::string> out;
  for (const auto& [path, code] : leaves(differing)) out.push_back(path);
  return out;
}

/// An implementation that rejected the text itself, as JSON, rather than what it says.
bool rejected_as_json(const ImplResult& r) {
  return r.outcome == Outcome::kRejected &&
         std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const Diag& d) { return d.severity == "error" && d.code == "invalid_json"; });
}

}  // namespace

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

namespace {

/// "a=x,b=y" from ("a=x", "b=y") in any order.
std::string sorted_tuple(std::vector<std::string> parts) {
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

}  // namespace

std::string outcome_tuple(const std::vector<ImplResult>& results) {
  std::vector<std::string> parts;
  for (const auto& r : results) parts.push_back(r.implementation + "=" + outcome_name(r.outcome));
  return sorted_tuple(std::move(parts));
}

std::vector<Divergence> compare(std::string_view root, std::string_view input,
                                const std::vector<ImplResult>& results, const CompareOptions& options) {
  std::vector<Divergence> found;
  // The input's traits decide only how a divergence is labelled and bucketed: most inputs have
  // none, so the scan waits for the first divergence (half of compare()'s time on a fuzz run).
  std::optional<InputTraits> traits_of_input;
  std::optional<TraitSites> trait_sites;
  auto traits = [&]() -> const InputTraits& {
    if (!traits_of_input) traits_of_input = analyse_input(input);
    return *traits_of_input;
  };
  auto sites = [&]() -> const TraitSites& {
    if (!trait_sites) trait_sites.emplace(traits(), results);
    return *trait_sites;
  };

  // Signatures leave out the root and the concrete paths on purpose: the same fault shows up under
  // many roots and slots, and a person wants one bucket per fault, with examples, not one per slot.
  // `who` is the outcome tuple for comparisons and the implementation alone for its own failures. The
  // trait part names only the traits that decide the divergence (TraitSites), so that one fault seen
  // on inputs that happen to have other traits too stays one bucket.
  auto emit = [&](DivergenceClass cls, std::vector<std::string> impls, std::string detail,
                  const std::string& who, const std::string& specifics, const Decided& decided) {
    std::sort(impls.begin(), impls.end());
    Divergence d;
    d.cls = cls;
    d.implementations = std::move(impls);
    d.detail = std::move(detail);
    d.implementation_defined = decided.implementation_defined();
    d.signature = std::string(class_name(cls)) + "|" + who + "|" + specifics + "|" + decided.part();
    d.bucket = schema::sha256_hex(d.signature).substr(0, 16);
    found.push_back(std::move(d));
  };
  auto everywhere = [&] { return sites().at(nullptr); };
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
             r.implementation, "", everywhere());
        break;
      case Outcome::kTimeout:
        emit(DivergenceClass::kTimeout, {r.implementation}, r.implementation + " timed out: " + why,
             r.implementation, "", everywhere());
        break;
      case Outcome::kError:
        emit(DivergenceClass::kSdkError, {r.implementation}, r.implementation + " raised: " + why,
             r.implementation, "", everywhere());
        break;
      case Outcome::kProtocol:
        emit(DivergenceClass::kProtocol, {r.implementation}, r.implementation + " broke the protocol: " + why,
             r.implementation, "", everywhere());
        break;
      default:
        break;
    }
  }

  // Those that parsed the text (accepted, or rejected what it says) and those that rejected the text
  // itself as JSON.
  std::vector<const ImplResult*> accepted, rejected, unparsed;
  for (const auto& r : results) {
    if (r.outcome == Outcome::kAccepted) accepted.push_back(&r);
    if (r.outcome == Outcome::kRejected) (rejected_as_json(r) ? unparsed : rejected).push_back(&r);
  }

  // Rejected as JSON by some, parsed by others: one fault, an acceptance divergence at the level of the
  // text, decided by what can stop a parser (depth, a lone surrogate ...). Whether those that parsed it
  // then accepted the payload is theirs to compare, below, so they are all just "parsed" here.
  std::vector<const ImplResult*> parsed(accepted);
  parsed.insert(parsed.end(), rejected.begin(), rejected.end());
  if (!unparsed.empty() && !parsed.empty()) {
    std::vector<std::string> impls, who;
    std::string refusers, others;
    for (const auto* r : unparsed) {
      impls.push_back(r->implementation);
      who.push_back(r->implementation + "=rejected");
      refusers += (refusers.empty() ? "" : ",") + r->implementation;
    }
    for (const auto* r : parsed) {
      impls.push_back(r->implementation);
      who.push_back(r->implementation + "=parsed");
      others +=
          (others.empty() ? "" : "; ") + r->implementation + " (" +
          (r->outcome == Outcome::kAccepted ? std::string("accepted") : describe(diag_set(*r, "error"))) +
          ")";
    }
    emit(DivergenceClass::kAcceptance, impls,
         "rejected as JSON by " + refusers + " (" + describe(diag_set(*unparsed.front(), "error")) +
             "); parsed by " + others,
         sorted_tuple(std::move(who)), refusers + ":invalid_json", sites().parse_level());
  }
  // Among those that parsed, the outcome tuple leaves the others out: their refusal is the fault above.
  std::vector<std::string> parsed_outcomes;
  for (const auto* r : parsed) parsed_outcomes.push_back(r->implementation + "=" + outcome_name(r->outcome));
  const std::string tuple =
      unparsed.empty() ? outcome_tuple(results) : sorted_tuple(std::move(parsed_outcomes));

  // Acceptance.
  if (!accepted.empty() && !rejected.empty()) {
    std::vector<std::string> impls, where;
    std::string a, j, specifics;
    for (const auto* r : accepted) {
      impls.push_back(r->implementation);
      a += (a.empty() ? "" : ", ") + r->implementation;
    }
    std::set<std::string> error_shapes;
    std::multiset<DiagKey> all_errors;
    bool unplaced = false;  // a rejection that names no place: where it differs is unknown
    for (const auto* r : rejected) {
      impls.push_back(r->implementation);
      auto errors = diag_set(*r, "error");
      unplaced = unplaced || errors.empty();
      j += (j.empty() ? "" : "; ") + r->implementation + " (" + describe(errors) + ")";
      error_shapes.insert(codes_of(leaves(errors)));
      all_errors.insert(errors.begin(), errors.end());
    }
    // Where the accepting and the rejecting differ: the faults, not an error at the root that only
    // summarises one of them (a hydration failure reported at "").
    for (const auto& [path, code] : leaves(all_errors)) where.push_back(path);
    for (const auto& s : error_shapes) specifics += (specifics.empty() ? "" : "/") + s;
    // A rejection with no error (an SDK that only says "invalid type: integer as u128") could be about
    // any part of the input, so every trait counts, as for a crash.
    emit(DivergenceClass::kAcceptance, impls, "accepted by " + a + "; rejected by " + j, tuple, specifics,
         sites().at(unplaced ? nullptr : &where));
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
    const auto where = differing_paths(groups);
    // Among rejections, a group without any error names no place (see the acceptance case above).
    const bool unplaced =
        cls == DivergenceClass::kDiagnostics &&
        std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.first.empty(); });
    emit(cls, impls, what + detail, tuple,
         differing_codes(groups, [&](const std::string& p) { return path_shape(p, options.known_names); }),
         sites().at(unplaced ? nullptr : &where));
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

  // Error diagnostics among the implementations that rejected what the payload says: sets (repeats do
  // not count).
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
  if (accepted.empty()) return found;  // no encoding to check
  auto input_value = json::parse(input, round_trip_limits());
  // JSON, but deeper than the comparison can go: an encoding is still checked for being written at all.
  const bool too_deep = !input_value.ok() && !traits().not_json;
  std::vector<std::pair<const ImplResult*, json::Value>> unequal;  // self-unequal encodings
  // Encodings already found equal to the input: the same bytes again (another implementation wrote the
  // same text, or the input itself) parse to the same tree, so they are not parsed again.
  std::vector<std::string_view> equal_texts;
  if (input_value.ok()) equal_texts.push_back(input);
  for (const auto* r : accepted) {
    if (!r->encoded) {
      std::string why = r->encode_error ? "encode failed: " + *r->encode_error : "no encoding was returned";
      emit(DivergenceClass::kRoundTripSelf, {r->implementation}, r->implementation + ": " + why,
           r->implementation, "encode-failed", everywhere());
      continue;
    }
    if (too_deep) continue;
    if (std::find(equal_texts.begin(), equal_texts.end(), *r->encoded) != equal_texts.end()) continue;
    auto enc = json::parse(*r->encoded, round_trip_limits());
    if (!enc.ok()) {
      emit(DivergenceClass::kRoundTripSelf, {r->implementation},
           r->implementation + ": re-encoding is not JSON (" + enc.error().message() + ")", r->implementation,
           "not-json", everywhere());
      continue;
    }
    if (!input_value.ok()) continue;  // an accepted non-JSON input is an acceptance matter
    if (!json::semantically_equal(input_value.value(), enc.value())) {
      auto where = first_difference(input_value.value(), enc.value(), "", "", options.known_names);
      const std::vector<std::string> at{where.path};
      emit(DivergenceClass::kRoundTripSelf, {r->implementation},
           r->implementation + ": re-encoding differs from the input at '" + where.path + "' (" + where.kind +
               ")",
           r->implementation, where.kind, sites().at(&at));
      unequal.emplace_back(r, std::move(enc.value()));
    } else {
      equal_texts.push_back(*r->encoded);
    }
  }
  // Cross: implementations that each changed the value, and changed it differently.
  for (std::size_t i = 0; i < unequal.size(); ++i) {
    for (std::size_t k = i + 1; k < unequal.size(); ++k) {
      if (!json::semantically_equal(unequal[i].second, unequal[k].second)) {
        auto where = first_difference(unequal[i].second, unequal[k].second, "", "", options.known_names);
        const std::vector<std::string> at{where.path};
        emit(DivergenceClass::kRoundTripCross,
             {unequal[i].first->implementation, unequal[k].first->implementation},
             unequal[i].first->implementation + " and " + unequal[k].first->implementation +
                 " re-encode differently at '" + where.path + "' (" + where.kind + ")",
             unequal[i].first->implementation + "," + unequal[k].first->implementation, where.kind,
             sites().at(&at));
      }
    }
  }
  return found;
}

}  // namespace crosscheck::layers::structural
