// protocol_codec.hpp: adapter protocol v1 messages (docs/protocol.md) to and from NDJSON lines.
//
// Requests are built as text (each ends with '\n'); answers are parsed from crosscheck's lossless
// JSON tree. Parsing enforces the structure of schemas/adapter-*.schema.json (all six answer
// members present with the right types, one of the four outcomes, exactly one of encoded and
// encodeError for accepted and neither otherwise, a message for error, valid base64) and says
// what was wrong in one line, which the pool puts into a protocol result. It does not police the
// values the comparator judges (diagnostic codes, severities, paths are kept as sent), nor extra
// members, so an SDK's own oddity shows up as a divergence rather than as a broken adapter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "differential/impl_result.hpp"
#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::differential::protocol {

constexpr int kVersion = 1;

std::string hello_request();
std::string decode_request(std::uint64_t id, std::string_view root, std::string_view input);
std::string bench_request(std::uint64_t id, std::string_view root, std::string_view input,
                          std::uint64_t iterations);
std::string shutdown_request();

/// The adapter's hello answer line. Errors: "garbage hello (...): <line>", "hello refused: <its
/// error>", "protocol 2 (expected 1)", "hello lacks a string implementation.name", ...
/// Identity::name is left empty (it is the configured name, which the pool fills in).
Result<Identity, std::string> parse_hello(std::string_view line, std::size_t max_bytes);

/// The answer's "id" if it is a non-negative integer literal that fits 64 bits.
std::optional<std::uint64_t> answer_id(const json::Value& answer);

/// A decode answer (id already matched). implementation and millis are left for the caller.
Result<ImplResult, std::string> parse_decode_answer(const json::Value& answer);

/// A bench answer: the nanoseconds, or nullopt when the adapter declines (nanos null, or an
/// outcome such as "error" for an op it does not know). Error: a malformed answer.
Result<std::optional<std::uint64_t>, std::string> parse_bench_answer(const json::Value& answer);

/// The id of an answer from the first bytes of its line, when the line is too long to parse.
std::optional<std::uint64_t> sniff_id(std::string_view line_prefix);

/// At most `max` bytes of `line` with control and non-ASCII bytes escaped, for messages.
std::string excerpt(std::string_view line, std::size_t max = 120);

}  // namespace crosscheck::differential::protocol
