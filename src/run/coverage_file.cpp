// coverage_file.cpp: reading and writing RUN/coverage.json (see coverage_file.hpp).
#include "run/coverage_file.hpp"

#include "run/json_file.hpp"
#include "run/layout.hpp"

namespace crosscheck::run {
namespace {

constexpr const char* kTrackedKey = "tracked";
constexpr const char* kReachedAcceptedKey = "reachedAccepted";
constexpr const char* kReachedRejectedKey = "reachedRejected";
constexpr const char* kPossibleAcceptedKey = "possibleAccepted";
constexpr const char* kPossibleRejectedKey = "possibleRejected";
constexpr const char* kPercentKey = "percent";
constexpr const char* kPercentAllKey = "percentAll";
constexpr const char* kFlagsKey = "flags";
constexpr const char* kImpossibleFlagsKey = "impossibleFlags";
constexpr const char* kUnreachedKey = "unreached";
constexpr const char* kNeverAcceptedKey = "neverAccepted";
constexpr const char* kNeverRejectedKey = "neverRejected";
constexpr const char* kImpossibleKey = "impossible";
constexpr const char* kNeverVisitedKey = "neverVisited";
constexpr const char* kAlwaysRejectedKey = "alwaysRejected";
constexpr const char* kCanonicalKey = "canonical";
constexpr const char* kReachedPassedKey = "reachedPassed";
constexpr const char* kReachedFailedKey = "reachedFailed";
constexpr const char* kReachedBothKey = "reachedBoth";
constexpr const char* kPercentPairsKey = "percentPairs";
constexpr const char* kNeverPassedKey = "neverPassed";
constexpr const char* kNeverFailedKey = "neverFailed";

json::Value percent_value(double p) { return json::Value::number(std::to_string(p)); }

json::Value flags_json(const CoverageFlags& flags) {
  json::Value list = json::Value::array();
  for (const auto& [id, bits] : flags) {
    json::Value pair = json::Value::array();
    pair.push(count_value(id));
    pair.push(count_value(bits));
    list.push(std::move(pair));
  }
  return list;
}

CoverageFlags flags_of(const json::Value& list) {
  CoverageFlags out;
  for (const auto& pair : list.items())
    out[count_of(pair.items()[0])] |= static_cast<std::uint8_t>(count_of(pair.items()[1]) & 3);
  return out;
}

json::Value strings_json(const std::vector<std::string>& v) {
  json::Value a = json::Value::array();
  for (const auto& s : v) a.push(json::Value::string(s));
  return a;
}

std::vector<std::string> strings_of(const json::Value* group, const char* key) {
  std::vector<std::string> out;
  const json::Value* list = group ? group->find(key) : nullptr;
  if (list)
    for (const auto& s : list->items()) out.push_back(s.string_value());
  return out;
}

json::Value canonical_json(const CanonicalCoverageFile& c) {
  json::Value o = json::Value::object();
  o.add(kTrackedKey, count_value(c.figures.tracked));
  o.add(kReachedPassedKey, count_value(c.figures.reached_passed));
  o.add(kReachedFailedKey, count_value(c.figures.reached_failed));
  o.add(kReachedBothKey, count_value(c.figures.reached_both));
  o.add(kPercentKey, percent_value(c.figures.percent()));
  o.add(kPercentPairsKey, percent_value(c.figures.percent_pairs()));
  o.add(kFlagsKey, flags_json(c.flags));
  json::Value unreached = json::Value::object();
  unreached.add(kNeverPassedKey, strings_json(c.never_passed));
  unreached.add(kNeverFailedKey, strings_json(c.never_failed));
  o.add(kUnreachedKey, std::move(unreached));
  return o;
}

/// "canonical" of a schema-checked file: the counts are recomputed from the flags, so they agree.
CanonicalCoverageFile canonical_of(const json::Value& o) {
  CanonicalCoverageFile c;
  c.figures.tracked = count_of(*o.find(kTrackedKey));
  c.flags = flags_of(*o.find(kFlagsKey));
  for (const auto& [id, bits] : c.flags) {
    c.figures.reached_passed += bits & 1;
    c.figures.reached_failed += (bits >> 1) & 1;
    c.figures.reached_both += bits == 3;
  }
  const json::Value* unreached = o.find(kUnreachedKey);
  c.never_passed = strings_of(unreached, kNeverPassedKey);
  c.never_failed = strings_of(unreached, kNeverFailedKey);
  return c;
}

}  // namespace

double reached_percent(std::uint64_t reached, std::uint64_t pairs) {
  if (pairs == 0) return 100.0;
  return 100.0 * static_cast<double>(reached) / static_cast<double>(pairs);
}

json::Value figures_to_json(const CoverageFigures& f) {
  json::Value o = json::Value::object();
  o.add(kTrackedKey, count_value(f.tracked));
  o.add(kReachedAcceptedKey, count_value(f.reached_accepted));
  o.add(kReachedRejectedKey, count_value(f.reached_rejected));
  if (f.has_possible) {
    o.add(kPossibleAcceptedKey, count_value(f.possible_accepted));
    o.add(kPossibleRejectedKey, count_value(f.possible_rejected));
  }
  o.add(kPercentKey, percent_value(f.percent()));
  o.add(kPercentAllKey, percent_value(f.percent_all()));
  return o;
}

CoverageFigures figures_from_json(const json::Value& v) {
  CoverageFigures f;
  auto get = [&](const char* key) -> const json::Value* { return v.is_object() ? v.find(key) : nullptr; };
  if (const json::Value* n = get(kTrackedKey)) f.tracked = count_of(*n);
  if (const json::Value* n = get(kReachedAcceptedKey)) f.reached_accepted = count_of(*n);
  if (const json::Value* n = get(kReachedRejectedKey)) f.reached_rejected = count_of(*n);
  const json::Value* accepted = get(kPossibleAcceptedKey);
  const json::Value* rejected = get(kPossibleRejectedKey);
  f.has_possible = accepted && rejected;
  f.possible_accepted = f.has_possible ? count_of(*accepted) : f.tracked;
  f.possible_rejected = f.has_possible ? count_of(*rejected) : f.tracked;
  return f;
}

json::Value to_json(const CoverageFile& c) {
  json::Value o = figures_to_json(c.figures);
  o.add(kFlagsKey, flags_json(c.flags));
  if (c.lists_impossible) o.add(kImpossibleFlagsKey, flags_json(c.impossible_flags));
  json::Value unreached = json::Value::object();
  unreached.add(kNeverAcceptedKey, strings_json(c.never_accepted));
  unreached.add(kNeverRejectedKey, strings_json(c.never_rejected));
  o.add(kUnreachedKey, std::move(unreached));
  json::Value impossible = json::Value::object();
  impossible.add(kNeverVisitedKey, strings_json(c.never_visited));
  impossible.add(kAlwaysRejectedKey, strings_json(c.always_rejected));
  o.add(kImpossibleKey, std::move(impossible));
  if (c.canonical) o.add(kCanonicalKey, canonical_json(*c.canonical));
  return o;
}

void write_coverage(const std::filesystem::path& run_dir, const CoverageFile& c) {
  write_json_file(run_dir / kCoverageFile, to_json(c), 1);
}

std::optional<CoverageFile> read_coverage(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kCoverageFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_schema(file, o, kCoverageSchema);
  CoverageFile c;
  c.figures = figures_from_json(o);
  c.flags = flags_of(*o.find(kFlagsKey));
  const json::Value* impossible = o.find(kImpossibleFlagsKey);
  c.lists_impossible = impossible != nullptr;
  if (impossible) c.impossible_flags = flags_of(*impossible);
  const json::Value* unreached = o.find(kUnreachedKey);
  c.never_accepted = strings_of(unreached, kNeverAcceptedKey);
  c.never_rejected = strings_of(unreached, kNeverRejectedKey);
  const json::Value* cannot = o.find(kImpossibleKey);
  c.never_visited = strings_of(cannot, kNeverVisitedKey);
  c.always_rejected = strings_of(cannot, kAlwaysRejectedKey);
  if (const json::Value* canonical = o.find(kCanonicalKey)) c.canonical = canonical_of(*canonical);
  return c;
}

}  // namespace crosscheck::run
