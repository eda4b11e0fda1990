// parsed_requests.hpp: requests not in protocol_codec's layout (request_layout.hpp), answered from
// the lossless parser's tree: the hello, bench, requests spelt otherwise and bad requests. Internal
// to reference_adapter.
#pragma once

#include <string>

#include "json/value.hpp"
#include "reference_adapter/detail/answer_text.hpp"
#include "schema/ir.hpp"

namespace crosscheck::reference_adapter::detail {

/// The answer to a hello of protocol 1.
json::Value hello_answer(const schema::Ir& ir, bool echo_input);
/// The answer to one decode, bench, validate or unknown-op request object.
void answer_request(std::string& out, const schema::Ir& ir, Engine& engine, const json::Value& req);
/// The batch op: one answer per entry, in order, in one line; a bad entry is answered as a bad request.
void answer_batch(std::string& out, const schema::Ir& ir, Engine& engine, const json::Value& req);

}  // namespace crosscheck::reference_adapter::detail
