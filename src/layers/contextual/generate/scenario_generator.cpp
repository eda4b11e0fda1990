// scenario_generator.cpp: a row from a family's draw, the reference host's answer on it and the
// families' table (scenario_generator.hpp; the builders in detail/draw.*, the families' bodies in
// detail/*_families.cpp, docs/scenario-generator.md says why each is built so).
#include "layers/contextual/generate/scenario_generator.hpp"

#include <stdexcept>

#include "gen/rng.hpp"
#include "json/write.hpp"
#include "layers/contextual/generate/detail/draw.hpp"
#include "layers/contextual/generate/detail/family_table.hpp"

namespace crosscheck::scenario_gen {
namespace detail {

const std::vector<FamilyDef>& defs() {
  static const std::vector<FamilyDef> list = {
#define CROSSCHECK_SCENARIO_FAMILY(build, name, claim, boundaries, text) \
  {{name, claim, text}, boundaries, build},
#include "layers/contextual/generate/scenario_families.def"
#undef CROSSCHECK_SCENARIO_FAMILY
  };
  return list;
}

}  // namespace detail

namespace {

using namespace detail;

const detail::FamilyDef& def_of(const Family& f) {
  for (const auto& d : defs())
    if (d.family.name == f.name) return d;
  throw std::logic_error("scenario_gen: no family " + f.name);
}

constexpr std::size_t kAttempts = 12;

}  // namespace

const std::vector<Family>& families() {
  static const std::vector<Family> list = [] {
    std::vector<Family> out;
    for (const auto& d : defs()) out.push_back(d.family);
    return out;
  }();
  return list;
}

const Family* find_family(std::string_view name) {
  for (const Family& f : families())
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<std::string>& boundaries() { return detail::kAll; }

GeneratedRow ScenarioGenerator::generate(const Family& family, std::uint64_t seed, const std::string& id,
                                         host::RuleCoverage* coverage) const {
  const FamilyDef& def = def_of(family);
  GeneratedRow row;
  for (std::size_t attempt = 0; attempt < kAttempts; ++attempt) {
    Draw d(gen::mix_seed(seed, attempt), id);
    d.b = &boundary(d.rng.pick(def.boundaries));
    d.request = Value::object();
    d.request.add("jsonrpc", str("2.0"));
    d.request.add("id", str(id));
    d.request.add("method", str("hooks/intercept"));
    Value params = Value::object();
    params.add("protocolVersion", str("draft"));
    d.request.add("params", std::move(params));
    d.params().add("event", event_for(d));
    capabilities_for(d);
    state_for(d);
    def.build(d);

    Value response = Value::object();
    response.add("jsonrpc", str("2.0"));
    response.add("id", str(id));
    Value result = Value::object();
    result.add("protocolVersion", str("draft"));
    if (!d.omit_effects) result.add("effects", Value::array(std::move(d.effects)));
    response.add("result", std::move(result));
    if (d.finish) d.finish(response);

    row.id = id;
    row.family = &family;
    row.boundary = d.b->type;
    row.request = std::move(d.request);
    row.response = std::move(response);
    row.applied = host::apply(validator_, row.request, row.response);
    const std::string said = row.applied.rule.empty() ? kAccepted : row.applied.rule;
    // A request the validator refuses is the generator's fault: draw again.
    row.claim_held = said == family.claim;
    if (row.claim_held) break;
  }
  if (coverage) host::apply(validator_, row.request, row.response, coverage);
  const std::string said = row.applied.rule.empty() ? kAccepted : row.applied.rule;
  row.tags = {"generated", "family:" + family.name, "boundary:" + row.boundary, "rule:" + said};
  return row;
}

std::vector<GeneratedRow> ScenarioGenerator::generate_many(std::uint64_t seed, std::size_t count,
                                                           const std::vector<const Family*>& chosen,
                                                           host::RuleCoverage* coverage) const {
  std::vector<GeneratedRow> rows;
  if (chosen.empty()) return rows;
  rows.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Family& f = *chosen[i % chosen.size()];
    rows.push_back(generate(f, gen::mix_seed(seed, 1000 + i), f.name + "-" + std::to_string(i), coverage));
  }
  return rows;
}

Value GeneratedRow::row() const {
  Value r = Value::object();
  r.add("id", str(id));
  std::string comment = family->text + "; the reference host: ";
  if (applied.accepted && applied.host_accepted)
    comment += "accepted";
  else
    comment += applied.rule + " (" + applied.message + ")";
  r.add("comment", str(comment));
  Value tag_list = Value::array();
  for (const auto& t : tags) tag_list.push(str(t));
  r.add("tags", std::move(tag_list));
  r.add("request", request);
  r.add("response", response);
  if (applied.accepted && applied.host_accepted) {
    r.add("expected", applied.result);
  } else {
    r.add("expectError", Value::boolean(true));
    if (applied.accepted) r.add("hostExpected", applied.result);
  }
  return r;
}

std::string scenario_file_text(const std::vector<GeneratedRow>& rows) {
  std::string out = "{\"version\":1,\"scenarios\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += i ? ",\n" : "\n";
    out += json::write(rows[i].row());
  }
  out += "\n]}\n";
  return out;
}

}  // namespace crosscheck::scenario_gen