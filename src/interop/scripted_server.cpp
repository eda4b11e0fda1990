// scripted_server.cpp: one reply per received line.
#include "interop/scripted_server.hpp"

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/contextual/rows/value_diff.hpp"

namespace crosscheck::scenario {
namespace {

json::Value str(const char* s) { return json::Value::string(s); }
json::Value num(const char* s) { return json::Value::number(s); }

json::Value string_array(std::initializer_list<const char*> items) {
  json::Value out = json::Value::array();
  for (const char* s : items) out.push(str(s));
  return out;
}

json::Value replace_merge() {
  json::Value out = json::Value::object();
  out.add("replace", json::Value::boolean(true));
  out.add("merge", json::Value::boolean(true));
  return out;
}

/// Discovery only has to be canonical and advertise tool.before interception (both clients take
/// nothing else from it); each row's request carries the capabilities its response is checked
/// against.
json::Value manifest() {
  json::Value tool = json::Value::object();
  tool.add("effects",
           string_array({"deny", "allow", "ask", "modify", "return", "message", "flow", "inject"}));
  json::Value modify = json::Value::object();
  modify.add("input", replace_merge());
  tool.add("modify", std::move(modify));
  json::Value flow = json::Value::object();
  flow.add("operations", string_array({"stop"}));
  tool.add("flow", std::move(flow));
  json::Value context = json::Value::object();
  context.add("append", json::Value::boolean(true));
  context.add("deliverAt", string_array({"now", "next_turn"}));
  json::Value inject = json::Value::object();
  inject.add("context", std::move(context));
  tool.add("inject", std::move(inject));

  json::Value finish = json::Value::object();
  finish.add("effects", string_array({"flow", "message"}));
  json::Value finish_flow = json::Value::object();
  finish_flow.add("operations", string_array({"stop", "continue"}));
  finish_flow.add("remainingContinuations", num("2"));
  finish_flow.add("continuationCount", num("0"));
  finish.add("flow", std::move(finish_flow));

  json::Value events = json::Value::array();
  for (auto* pair : {&tool, &finish}) {
    json::Value e = json::Value::object();
    e.add("event", str(pair == &tool ? "tool.before" : "turn.finish.before"));
    e.add("modes", string_array({"intercept"}));
    e.add("capabilities", std::move(*pair));
    events.push(std::move(e));
  }
  json::Value limits = json::Value::object();
  limits.add("maxUploadBytes", num("4194304"));
  limits.add("maxContinuations", num("2"));
  json::Value policy = json::Value::object();
  policy.add("scopes", json::Value::array());
  policy.add("disableable", json::Value::boolean(true));

  json::Value m = json::Value::object();
  m.add("events", std::move(events));
  m.add("gaps", json::Value::array());
  m.add("transports", string_array({"stdio"}));
  m.add("authentication", json::Value::array());
  m.add("toolPaths", string_array({"native"}));
  m.add("contentCategories", json::Value::array());
  m.add("limits", std::move(limits));
  m.add("managedPolicy", std::move(policy));
  m.add("correlationIdentityFields", string_array({"event.id"}));
  return m;
}

json::Value error_response(const json::Value& id, const std::string& message) {
  json::Value error = json::Value::object();
  error.add("code", num("-32600"));
  error.add("message", json::Value::string(message));
  json::Value out = json::Value::object();
  out.add("jsonrpc", str("2.0"));
  out.add("id", id);
  out.add("error", std::move(error));
  return out;
}

}  // namespace

json::Value ScriptedServer::discovery_response(const json::Value& id) {
  json::Value result = json::Value::object();
  result.add("protocolVersion", str("draft"));
  result.add("manifest", manifest());
  json::Value out = json::Value::object();
  out.add("jsonrpc", str("2.0"));
  out.add("id", id);
  out.add("result", std::move(result));
  return out;
}

std::string ScriptedServer::answer(std::string_view line) {
  Receipt r;
  r.seq = ++seq_;
  std::string reply;
  auto parsed = json::parse(line);
  if (!parsed.ok()) {
    r.problems.push_back("unparsable");
    r.bytes = std::string(line);
    r.reply = "error";
    reply = json::write(error_response(json::Value::null(), "not JSON"));
  } else {
    const json::Value& message = parsed.value();
    r.message = message;
    const json::Value* method = message.is_object() ? message.find("method") : nullptr;
    const json::Value* id = message.is_object() ? message.find("id") : nullptr;
    if (id) r.id = *id;
    r.method = method && method->is_string() ? method->string_value() : "";
    if (r.method == "hooks/capabilities") {
      r.reply = "discovery";
      reply = json::write(discovery_response(r.id));
    } else if (r.method != "hooks/intercept") {
      r.problems.push_back("unknown-method");
      r.reply = "error";
      reply = json::write(error_response(r.id, "unknown method"));
    } else {
      const Row* row = id && id->is_string() ? file_.find(id->string_value()) : nullptr;
      if (!row) {
        r.problems.push_back("unknown-id");
        r.reply = "error";
        reply = json::write(error_response(r.id, "no scenario has this id"));
      } else {
        r.scenario = row->id;
        r.differences = differing_pointers(row->request(), message);
        if (!r.differences.empty()) r.problems.push_back("differs");
        if (answered_[row->id]++ > 0) r.problems.push_back("repeat");
        r.reply = "scripted";
        reply = response_line(*row);
      }
    }
  }
  if (receipts_) receipts_->append(r);
  return reply;
}

}  // namespace crosscheck::scenario
