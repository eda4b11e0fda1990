// draw.hpp: the builders every scenario family uses (detail of src/layers/contextual/generate): a
// draw's canonical request at one boundary, its capabilities and state, and valid effects for it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gen/rng.hpp"
#include "json/value.hpp"

namespace crosscheck::scenario_gen::detail {

using gen::Rng;
using json::Value;

/// The boundaries generated: those the Python and Rust interop clients' synthetic hosts apply.
extern const std::vector<std::string> kAll;

/// What a generated boundary admits (the effect kinds, "stop"/"continue" for flow) and its modify
/// target: the reference host's row (host::boundaries()) in strings.
struct Boundary {
  std::string type;
  std::vector<std::string> kinds;
  std::string target;
};
/// The row of `type`, one of kAll.
const Boundary& boundary(const std::string& type);

/// JSON literals of the generator's own (a logic_error if one is not JSON).
Value lit(std::string_view text);
inline Value str(std::string s) { return Value::string(std::move(s)); }
inline Value num(std::string s) { return Value::number(std::move(s)); }

/// "flow" for the flow operations stop and continue, else the kind itself.
inline std::string type_of(const std::string& kind) {
  return kind == "stop" || kind == "continue" ? "flow" : kind;
}
bool has(const std::vector<std::string>& list, const std::string& s);
bool list_has(const Value* list, std::string_view s);
void erase_member(Value& object, std::string_view key);
void set_member(Value& object, const std::string& key, Value value);
/// A canonical message list of one text message (modify response, inject values).
Value messages(const std::string& id, const std::string& text, const char* role = "user");

// One draw: a request and the effects of its response, built by a family.
struct Draw {
  Draw(std::uint64_t seed, std::string row_id) : rng(seed), id(std::move(row_id)) {}
  Rng rng;
  std::string id;
  const Boundary* b = nullptr;
  Value request;
  std::vector<Value> effects;
  bool omit_effects = false;
  std::function<void(Value& response)> finish;  // a family's edit of the whole response envelope
  std::size_t serial = 0;                       // distinct ids and texts inside one row

  Value& params() { return *request.find("params"); }
  Value& event() { return *params().find("event"); }
  Value& caps() { return *params().find("capabilities"); }
  Value& effect_list() { return *caps().find("effects"); }
  std::string next(const char* prefix) { return std::string(prefix) + "-" + std::to_string(++serial); }
};

/// The request's event at the draw's boundary.
Value event_for(Draw& d);
/// Advertises `kind` (an effect kind of the boundary) with what it needs to be usable.
void advertise(Draw& d, const std::string& kind);
void unadvertise(Draw& d, const std::string& type);
/// Random capabilities: each kind of the boundary advertised or not, some operations false.
Value capabilities_for(Draw& d);
/// The incoming state: omitted, or a permission and a candidate.
void state_for(Draw& d);
/// The kind is advertised with what it needs to be usable.
bool advertised(Draw& d, const std::string& kind);
/// The kinds usable as they stand: admitted at the boundary and advertised with what they need.
std::vector<std::string> usable(Draw& d);
std::string advertised_operation(Draw& d);
Value modify_value(Draw& d, const std::string& operation);
Value return_value(Draw& d);
/// A valid effect of `kind` (usable) for the draw.
Value effect(Draw& d, const std::string& kind);
/// A few valid effects around an edge (possibly none).
void some_valid(Draw& d, std::size_t max);
void insert_at_random(Draw& d, Value e);

}  // namespace crosscheck::scenario_gen::detail
