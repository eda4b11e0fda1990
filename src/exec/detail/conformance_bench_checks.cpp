// conformance_bench_checks.cpp: the check of the optional bench op.
#include "exec/detail/conformance_session.hpp"
#include "exec/protocol_codec.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::conformance::detail {

using core::Outcome;
using json::Value;

CheckResult check_bench(Session& s, Context& c) {
  const std::string name = "bench-op";
  std::uint64_t id = c.next_id++;
  s.send("{\"op\":\"bench\",\"id\":" + std::to_string(id) + ",\"root\":" + quoted(c.root) + ",\"input\":\"" +
         base64_encode(c.valid_input) + "\",\"iterations\":3}\n");
  Collected got;
  if (auto why = collect(s, c, {id}, 0, got, "the bench answer")) return fail(name, *why);
  const Value& a = got.by_id.at(id);
  if (a.find("outcome") != nullptr) {  // an adapter without bench answers it as a bad request
    auto r = decode_answer(a, id);
    if (!r.ok()) return fail(name, r.error());
    if (r->outcome != Outcome::kError) return fail(name, "bench answered " + outcome_text(r.value()));
    return pass(name, "optional op not supported: answered error " + quoted(r->message.value_or("")));
  }
  if (auto problem = protocol::schema_problem(protocol::Line::kBenchReply, a))
    return fail(name, "the bench answer breaks its schema " + *problem);
  auto nanos = protocol::parse_bench_answer(a);
  if (!nanos.ok()) return fail(name, nanos.error());
  if (!nanos.value()) {
    const Value* m = a.find("message");
    return pass(name, "declined: " + (m ? json::write(*m) : std::string("no message")));
  }
  return pass(name, "3 iterations took " + std::to_string(*nanos.value() / 1000) + " us in process");
}

}  // namespace crosscheck::exec::conformance::detail
