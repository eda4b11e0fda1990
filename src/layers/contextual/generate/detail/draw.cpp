// draw.cpp: the builders of a draw (detail/draw.hpp): request, event, capabilities, state and
// valid effects at the generated boundaries.
#include "layers/contextual/generate/detail/draw.hpp"

#include <algorithm>
#include <stdexcept>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/host/host.hpp"

namespace crosscheck::scenario_gen::detail {

const std::vector<std::string> kAll = {"tool.before", "turn.finish.before", "task.change.before",
                                       "workspace.change.before"};

Value lit(std::string_view text) {
  auto parsed = json::parse(text);
  if (!parsed.ok()) throw std::logic_error("scenario_gen literal is not JSON: " + std::string(text));
  return std::move(parsed.value());
}

namespace {

// The reference host's rows (host::boundaries(), the one table) for the boundaries generated, copied
// into strings once.
const std::vector<Boundary>& table() {
  static const std::vector<Boundary> t = [] {
    std::vector<Boundary> out;
    for (const std::string& type : kAll) {
      const host::Boundary* row = host::boundary_of(type);
      if (!row) throw std::logic_error("scenario_gen: the reference host has no boundary " + type);
      out.push_back({type, {row->effects.begin(), row->effects.end()}, std::string(row->modify_target)});
    }
    return out;
  }();
  return t;
}

}  // namespace

const Boundary& boundary(const std::string& type) {
  for (const auto& b : table())
    if (b.type == type) return b;
  throw std::logic_error("scenario_gen: no boundary " + type);
}

bool has(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

bool list_has(const Value* list, std::string_view s) {
  if (!list || !list->is_array()) return false;
  for (const Value& v : list->items())
    if (v.is_string() && v.string_value() == s) return true;
  return false;
}

void erase_member(Value& object, std::string_view key) {
  auto& m = object.members();
  m.erase(std::remove_if(m.begin(), m.end(), [&](const json::Member& x) { return x.key == key; }), m.end());
}

void set_member(Value& object, const std::string& key, Value value) {
  if (Value* existing = object.find(key))
    *existing = std::move(value);
  else
    object.add(key, std::move(value));
}

// A canonical message list of one text message (modify response, inject values).
Value messages(const std::string& id, const std::string& text, const char* role) {
  Value part = lit(R"({"kind":"text","mediaType":"text/plain","selection":"body"})");
  part.members().insert(part.members().begin(), json::Member{"id", str(id + "-p")});
  part.add("text", str(text));
  Value message = Value::object();
  message.add("id", str(id));
  message.add("role", str(role));
  Value parts = Value::array();
  parts.push(std::move(part));
  message.add("parts", std::move(parts));
  Value list = Value::array();
  list.push(std::move(message));
  return list;
}

Value event_for(Draw& d) {
  const std::string& id = d.id;
  Value e = Value::object();
  e.add("id", str(id));
  e.add("source", str("urn:crosscheck:scenario"));
  e.add("type", str(d.b->type));
  e.add("time", str("2026-12-01T00:00:00Z"));
  e.add("harness", lit(R"({"name":"crosscheck","version":"0.1.0"})"));
  if (d.b->type == "tool.before") {
    Value call = Value::object();
    call.add("id", str("call-" + id));
    e.add("call", std::move(call));
    e.add("path", str("native"));
    Value tool = Value::object();
    tool.add("name", str("task"));
    Value input = Value::object();
    input.add("task", num(std::to_string(d.rng.between(1, 9))));
    if (d.rng.chance(0.4)) input.add("note", str("keep"));
    if (d.rng.chance(0.3)) input.add("opts", lit(R"({"a":1,"b":{"c":2}})"));
    tool.add("input", std::move(input));
    tool.add("origin", str("native"));
    e.add("tool", std::move(tool));
  } else if (d.b->type == "turn.finish.before") {
    Value turn = Value::object();
    turn.add("id", str("turn-" + id));
    e.add("turn", std::move(turn));
    e.add("outcome", str("completed"));
    e.add("continuationCount", num("0"));
    e.add("items", Value::array());
  } else if (d.b->type == "task.change.before") {
    Value task = Value::object();
    task.add("id", str("task-" + id));
    static const std::vector<std::string> ops = {"create", "update", "remove"};
    task.add("operation", str(d.rng.pick(ops)));
    task.add("change", lit(R"({"status":"done"})"));
    e.add("task", std::move(task));
  } else {
    e.add("workspace", lit(R"({"kind":"cwd","change":{"cwd":"/work/b"}})"));
  }
  return e;
}

// Advertises `kind` (an effect kind of the boundary) with what it needs to be usable.
void advertise(Draw& d, const std::string& kind) {
  std::string type = type_of(kind);
  if (!list_has(&d.effect_list(), type)) d.effect_list().push(str(type));
  Value& caps = d.caps();
  if (kind == "modify") {
    if (!caps.find("modify")) caps.add("modify", Value::object());
    Value& modify = *caps.find("modify");
    if (!modify.find(d.b->target)) modify.add(d.b->target, lit(R"({"replace":true,"merge":true})"));
    Value& ops = *modify.find(d.b->target);
    if (!(ops.find("replace") && ops.find("replace")->as_bool()) &&
        !(ops.find("merge") && ops.find("merge")->as_bool()))
      set_member(ops, "merge", Value::boolean(true));
  } else if (type == "flow") {
    if (!caps.find("flow")) caps.add("flow", lit(R"({"operations":[]})"));
    Value& flow = *caps.find("flow");
    if (!list_has(flow.find("operations"), kind)) flow.find("operations")->push(str(kind));
    if (kind == "continue") {
      const Value* remaining = flow.find("remainingContinuations");
      if (!remaining || json::write(*remaining) == "0") set_member(flow, "remainingContinuations", num("2"));
      if (!flow.find("continuationCount")) flow.add("continuationCount", num("0"));
    }
  } else if (kind == "inject") {
    if (!caps.find("inject")) caps.add("inject", lit(R"({"context":{"append":true,"deliverAt":["now"]}})"));
  }
}

void unadvertise(Draw& d, const std::string& type) {
  auto& items = d.effect_list().items();
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const Value& v) { return v.is_string() && v.string_value() == type; }),
              items.end());
  erase_member(d.caps(), type == "flow" ? "flow" : type);
}

Value capabilities_for(Draw& d) {
  Value caps = Value::object();
  caps.add("effects", Value::array());
  d.params().add("capabilities", std::move(caps));
  for (const std::string& kind : d.b->kinds)
    if (d.rng.chance(0.6)) advertise(d, kind);
  Value& c = d.caps();
  // Random operations, some false: the modify-operation family's edge and the capability shapes
  // the clients must read.
  if (Value* modify = c.find("modify"))
    if (Value* ops = modify->find(d.b->target); ops && d.rng.chance(0.4))
      set_member(*ops, d.rng.chance(0.5) ? "replace" : "merge", Value::boolean(false));
  if (Value* inject = c.find("inject"); inject && d.rng.chance(0.5))
    inject->find("context")->find("deliverAt")->push(str("next_turn"));
  if (Value* flow = c.find("flow"); flow && flow->find("remainingContinuations")) {
    static const std::vector<std::string> remaining = {"1", "2", "3"};
    set_member(*flow, "remainingContinuations", num(d.rng.pick(remaining)));
  }
  return Value();
}

// The incoming state: omitted, or a permission and a candidate (none, null, or one whose value is
// null, false, 0, "" or a value). Only tool.before holds a candidate (its return contract).
void state_for(Draw& d) {
  if (d.rng.chance(0.35)) return;
  static const std::vector<std::string> permissions = {"none", "none", "allow", "deny", "ask"};
  Value state = Value::object();
  state.add("permission", str(d.b->type == "tool.before" ? d.rng.pick(permissions) : "none"));
  if (d.b->type == "tool.before") {
    static const std::vector<std::string> candidates = {"",
                                                        "null",
                                                        R"({"value":null})",
                                                        R"({"value":false})",
                                                        R"({"value":0})",
                                                        R"({"value":""})",
                                                        R"({"value":"cached"})"};
    // The canonical state requires the member: "no candidate" is spelled null.
    const std::string& c = d.rng.pick(candidates);
    state.add("candidate", lit(c.empty() ? "null" : c));
  } else {
    state.add("candidate", Value::null());
  }
  d.params().add("state", std::move(state));
}

bool advertised(Draw& d, const std::string& kind) {
  if (!list_has(&d.effect_list(), type_of(kind))) return false;
  const Value& caps = d.caps();
  if (kind == "modify") {
    const Value* ops = caps.find("modify") ? caps.find("modify")->find(d.b->target) : nullptr;
    auto on = [&](const char* op) { return ops && ops->find(op) && ops->find(op)->as_bool(); };
    return on("replace") || on("merge");
  }
  if (type_of(kind) == "flow") {
    const Value* flow = caps.find("flow");
    if (!flow || !list_has(flow->find("operations"), kind)) return false;
    const Value* remaining = flow->find("remainingContinuations");
    return kind == "stop" || (remaining && json::write(*remaining) != "0");
  }
  if (kind == "inject") {
    const Value* context = caps.find("inject") ? caps.find("inject")->find("context") : nullptr;
    const Value* append = context ? context->find("append") : nullptr;
    const Value* at = context ? context->find("deliverAt") : nullptr;
    return append && append->is_bool() && append->as_bool() && at && at->is_array() && !at->items().empty();
  }
  return true;
}

// The kinds usable as they stand: admitted at the boundary and advertised with what they need.
std::vector<std::string> usable(Draw& d) {
  std::vector<std::string> out;
  for (const std::string& kind : d.b->kinds)
    if (advertised(d, kind)) out.push_back(kind);
  return out;
}

std::string advertised_operation(Draw& d) {
  const Value* ops = d.caps().find("modify")->find(d.b->target);
  std::vector<std::string> on;
  for (const char* op : {"replace", "merge"})
    if (ops->find(op) && ops->find(op)->as_bool()) on.push_back(op);
  return d.rng.pick(on);
}

Value modify_value(Draw& d, const std::string& operation) {
  if (d.b->target == "input") {
    Value v = Value::object();
    if (operation == "replace" || d.rng.chance(0.5)) v.add("task", num(std::to_string(d.rng.between(1, 9))));
    if (d.rng.chance(0.5)) v.add("extra", num("1"));
    if (operation == "merge" && d.rng.chance(0.3)) v.add("note", Value::null());
    if (d.rng.chance(0.3)) v.add("opts", lit(R"({"z":true})"));
    if (v.members().empty()) v.add("extra", str("x"));
    return v;
  }
  if (d.b->target == "response") return messages(d.next("resp"), "rewritten answer", "assistant");
  return d.rng.chance(0.5) ? lit(R"({"cwd":"/work/c"})") : lit(R"({"workspaceRoots":["/work/a"]})");
}

Value return_value(Draw& d) {
  static const std::vector<std::string> values = {"null",       "false",        "0",     "\"\"",
                                                  "\"cached\"", R"({"out":1})", "[1,2]", "9007199254740993"};
  return lit(d.rng.pick(values));
}

Value effect(Draw& d, const std::string& kind) {
  Value e = Value::object();
  e.add("type", str(type_of(kind)));
  if (kind == "deny") e.add("reason", str("policy says no"));
  if (kind == "ask" && d.rng.chance(0.3)) e.add("reason", str("confirm"));
  if (kind == "message") e.add("text", str(d.next("note")));
  if (kind == "return") e.add("value", return_value(d));
  if (kind == "modify") {
    std::string op = advertised_operation(d);
    e.add("target", str(d.b->target));
    e.add("operation", str(op));
    e.add("value", modify_value(d, op));
  }
  if (kind == "stop" || kind == "continue") {
    e.add("operation", str(kind));
    if (kind == "continue" && d.rng.chance(0.8)) e.add("instruction", str(d.next("check")));
    if (kind == "stop") e.add("reason", str(d.rng.chance(0.5) ? "enough" : "done"));
  }
  if (kind == "inject") {
    e.add("target", str("context"));
    e.add("operation", str("append"));
    const Value& at = *d.caps().find("inject")->find("context")->find("deliverAt");
    e.add("deliverAt", d.rng.pick(at.items()));
    e.add("value", messages(d.next("inj"), "context"));
  }
  return e;
}

// A few valid effects around an edge (possibly none).
void some_valid(Draw& d, std::size_t max) {
  std::vector<std::string> kinds = usable(d);
  if (kinds.empty()) return;
  std::size_t n = d.rng.below(max + 1);
  for (std::size_t i = 0; i < n; ++i) d.effects.push_back(effect(d, d.rng.pick(kinds)));
}

void insert_at_random(Draw& d, Value e) {
  auto at = d.effects.begin() + static_cast<std::ptrdiff_t>(d.rng.below(d.effects.size() + 1));
  d.effects.insert(at, std::move(e));
}
}  // namespace crosscheck::scenario_gen::detail
