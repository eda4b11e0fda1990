// conformance_lifecycle_checks.cpp: the checks of an adapter's life: its hello (the handshake), shutdown,
// end of input, and refusing a protocol it does not speak (the last two with a process of their own).
#include <algorithm>

#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "json/write.hpp"

namespace crosscheck::exec::conformance::detail {

using core::Identity;
using core::kCanonicalLayer;
using json::Value;

// The hello is judged by protocol::parse_hello, the one definition the pool uses too; the suite adds
// only what concerns this configuration (the name it was configured under) and its own needs (a root
// to send requests for).
std::optional<std::string> hello_problem(const std::string& line, Context& c, std::string& summary) {
  auto hello = protocol::parse_hello(line, kMaxLine);
  if (!hello.ok()) return hello.error();
  const Identity& id = hello.value();
  if (id.reported_name != c.spec.name) {
    return "implementation.name " + quoted(id.reported_name) + " is not the configured name " +
           quoted(c.spec.name);
  }
  const std::vector<std::string>& names = id.roots;
  if (names.empty()) return std::string("\"roots\" is empty: nothing to decode");
  c.language = id.language;
  c.root = std::find(names.begin(), names.end(), "content_reference") != names.end() ? "content_reference"
                                                                                     : names.front();
  c.valid_input = c.root == "content_reference"
                      ? R"({"ref":"ahp://crosscheck/conformance","mediaType":"text/plain"})"
                      : "{}";
  c.unknown_root = "no_such_root_crosscheck";
  while (std::find(names.begin(), names.end(), c.unknown_root) != names.end()) c.unknown_root += "_x";
  std::string version = id.language_version.empty() ? "" : " " + id.language_version;
  summary = id.reported_name + " " + id.version + " (" + id.language + version + "), " +
            std::to_string(names.size()) + " roots, lock " + (id.lock ? "object" : "null") +
            ", schemaBundle " + (id.schema_bundle ? "set" : "null") +
            (id.reports_warnings ? "" : ", reportsWarnings false");
  std::string layers;
  for (const auto& l : id.layers) layers += (layers.empty() ? "" : "+") + l;
  summary += ", layers " + layers;
  c.canonical = id.has_layer(kCanonicalLayer);
  c.batch_max = protocol::hello_batch_max(line, kMaxLine);
  if (c.batch_max > 0) summary += ", batch max " + std::to_string(c.batch_max);
  return std::nullopt;
}

namespace {

// Reads what the adapter wrote after `what`, up to EOF; the first non-blank line, if any.
std::optional<std::string> trailing_output(Session& s) {
  std::string line;
  Status status = s.next(line, milliseconds(200));
  if (status == Status::kLine) return line;
  return std::nullopt;
}

}  // namespace

CheckResult check_shutdown(Session& s, Context& c) {
  const std::string name = "shutdown";
  auto start = Clock::now();
  s.send(protocol::shutdown_request());
  bool exited = s.process().wait_exit(c.o.exit_grace);
  auto extra = trailing_output(s);
  s.end();
  if (!exited) return fail(name, "still running " + seconds_text(c.o.exit_grace) + " after shutdown; killed");
  if (s.process().status_text() != "exited with status 0") {
    return fail(name, "after shutdown the adapter " + s.process().status_text() + ", want exit status 0");
  }
  if (extra) return fail(name, "wrote after shutdown (it must not answer): " + protocol::excerpt(*extra));
  return pass(name, "exited with status 0 in " + std::to_string(elapsed_ms(start)) + " ms, nothing written");
}

CheckResult check_eof(const AdapterSpec& spec, Context& c, std::string& tail) {
  const std::string name = "stdin-eof";
  auto opened = open(spec, c.o, protocol::hello_request());
  if (!opened.ok()) {
    tail = opened.error().stderr_tail;
    return fail(name, "could not start a fresh process: " + opened.error().message);
  }
  auto& s = *opened.value().first;
  auto start = Clock::now();
  s.process().close_stdin();
  bool exited = s.process().wait_exit(c.o.exit_grace);
  auto extra = trailing_output(s);
  s.end();
  tail = s.tail();
  if (!exited)
    return fail(name, "still running " + seconds_text(c.o.exit_grace) + " after its stdin closed; killed");
  if (s.process().status_text() != "exited with status 0") {
    return fail(name, "after end of input the adapter " + s.process().status_text() + ", want exit status 0");
  }
  if (extra) return fail(name, "wrote after end of input: " + protocol::excerpt(*extra));
  tail.clear();
  return pass(name, "end of input: exited with status 0 in " + std::to_string(elapsed_ms(start)) + " ms");
}

CheckResult check_refusal(const AdapterSpec& spec, Context& c, std::string& tail) {
  const std::string name = "refuses-protocol-999";
  auto spawned = Session::spawn(spec, c.o);
  if (!spawned.ok()) return fail(name, "could not start a fresh process: " + spawned.error());
  auto& s = *spawned.value();
  s.send("{\"op\":\"hello\",\"protocol\":999}\n");
  std::string line;
  Status status = s.next(line, c.o.hello_deadline);
  if (status != Status::kLine) {
    std::string why = s.failure(status, "the refusal line", c.o.hello_deadline);
    tail = s.tail();
    return fail(name, "no refusal: " + why);
  }
  auto finish = [&](CheckResult r) {
    s.end();
    if (!r.passed) tail = s.tail();
    return r;
  };
  std::string why;
  auto answer = parse_line(line, why);
  if (!answer) return finish(fail(name, "answered with " + why));
  const Value* op = answer->find("op");
  if (!op || !op->is_string() || op->string_value() != "hello") {
    return finish(fail(name, "the answer is not a hello: " + protocol::excerpt(line)));
  }
  const Value* error = answer->find("error");
  if (!error) return finish(fail(name, "accepted protocol 999 (a hello without \"error\")"));
  if (auto problem = protocol::schema_problem(protocol::Line::kHelloRefusal, *answer))
    return finish(fail(name, "the refusal breaks its schema " + *problem));
  if (error->string_value().find("999") == std::string::npos) {
    return finish(fail(name, "\"error\" must read \"unsupported protocol 999\", got " + json::write(*error)));
  }
  bool exited = s.process().wait_exit(c.o.exit_grace);
  s.end();
  if (!exited)
    return finish(
        fail(name, "refused, but still running " + seconds_text(c.o.exit_grace) + " later; killed"));
  if (s.process().status_text() != "exited with status 2") {
    return finish(fail(name, "refused, then " + s.process().status_text() + ", want exit status 2"));
  }
  return finish(pass(name, "refusal " + quoted(error->string_value()) + ", exit status 2"));
}

}  // namespace crosscheck::exec::conformance::detail
