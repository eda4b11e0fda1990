// answer_text.hpp: the reference adapter's answers, written as text into one buffer per line (with
// the same bytes json::write gave for the trees they replace: a tree per answer cost as much as the
// decode itself, docs/benchmarks.md). Internal to reference_adapter.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decoder/decoder.hpp"
#include "json/value.hpp"
#include "schema/ir.hpp"

namespace crosscheck::reference_adapter::detail {

// Entries per batch line (the batch op, docs/protocol.md); a longer batch is refused.
inline constexpr std::size_t kBatchMax = 256;

// What answers decodes: the decoder, or with echo_input its input itself (reference_adapter.hpp).
struct Engine {
  decoder::Decoder& decoder;
  bool echo_input = false;
};

// A JSON string literal for `s`.
void append_string(std::string& out, std::string_view s);

// A decode-style answer without a result: outcome "error" (a bad request) or "unsupported". `id` is
// the JSON text of the answer's id ("null" when the request has none to echo).
void append_error(std::string& out, std::string_view id, std::string_view message,
                  std::string_view outcome = "error");

// A batch's answer line: `answer(i)` appends the answer to entry i, in order.
template <class AnswerEntry>
void append_batch(std::string& out, std::string_view id, std::size_t entries, AnswerEntry answer) {
  out += "{\"id\":";
  out += id;
  out += ",\"answers\":[";
  for (std::size_t i = 0; i < entries; ++i) {
    if (i > 0) out += ',';
    answer(i);
  }
  out += "]}";
}

// The JSON text of a request's id, "null" when it has none.
std::string id_text(const json::Value* id);

// A decode of `input` (base64 text) as root `root_name`.
void append_decode(std::string& out, const schema::Ir& ir, Engine& engine, std::string_view id,
                   std::string_view root_name, std::string_view input);

// A validate answer: the outcome, each error's path and keyword, the message.
void append_verdict(std::string& out, std::string_view id, const char* outcome,
                    const std::vector<std::string>& paths, const std::vector<std::string>& keywords,
                    const std::optional<std::string>& message);

// The validate op (layer 2): the reference's verdict through exec::validate_reference.
void append_validate(std::string& out, const schema::Ir& ir, std::string_view id, std::string_view document,
                     std::string_view input);

}  // namespace crosscheck::reference_adapter::detail
