// protocol_codec.hpp: adapter protocol v1 messages (docs/protocol.md) to and from NDJSON lines.
//
// Requests are built as text (each ends with '\n'); answers are parsed from crosscheck's lossless
// JSON tree. The hello reply is defined by schemas/adapter-hello.schema.json alone: parse_hello
// validates it against that schema (plus the one rule a schema cannot say: roots sorted), and the
// pool and the conformance suite both take it from here. schema_problem() holds any line to its
// schema (the conformance suite does so for every line). Answer parsing, on the pool's hot path,
// enforces by hand the structure of schemas/adapter-answer.schema.json (all six answer
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
#include <vector>

#include "core/impl_result.hpp"
#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::exec::protocol {

constexpr int kVersion = 1;

std::string hello_request();
std::string decode_request(std::uint64_t id, std::string_view root, std::string_view input);
std::string bench_request(std::uint64_t id, std::string_view root, std::string_view input,
                          std::uint64_t iterations);
/// The bench op timing `iterations` in-process validations of `input` as `document` (layer 2).
std::string bench_validate_request(std::uint64_t id, std::string_view document, std::string_view input,
                                   std::uint64_t iterations);
std::string shutdown_request();
/// Layer 2: `document` is a schema document name ("intercept-request"), `input` the raw payload.
std::string validate_request(std::uint64_t id, std::string_view document, std::string_view input);

/// The batch op (schemas/adapter-batch.schema.json #/$defs/request): `entries` are request lines as
/// the functions above build them (their trailing '\n' is dropped), sent as one line.
std::string batch_request(std::uint64_t id, const std::vector<std::string>& entries);

/// The hello reply's batch.max (schemas/adapter-hello.schema.json), or 0 when the line does not
/// list the batch op. Call on a line parse_hello accepted.
std::size_t hello_batch_max(std::string_view line, std::size_t max_bytes);

/// The protocol lines that have a schema of their own (a `$defs` entry of a file in schemas/).
enum class Line {
  kHelloReply,
  kHelloRefusal,
  kDecodeAnswer,
  kBenchReply,
  kValidateAnswer,
  kBatchReply,
  kBatchRefusal
};

/// The first way `line` breaks its schema, as "at /diagnostics/0/code: expected one of ...
/// (schemas/adapter-answer.schema.json)", or nullopt when it conforms. Thread-safe.
std::optional<std::string> schema_problem(Line kind, const json::Value& line);

/// The adapter's hello answer line. Errors: "garbage hello (...): <line>", "hello refused: <its
/// error>", "protocol 2 (expected 1)", "hello breaks ...: at /implementation/version: ...",
/// "hello's roots are not sorted: ...".
/// Identity::name is left empty (it is the configured name, which the pool fills in).
Result<core::Identity, std::string> parse_hello(std::string_view line, std::size_t max_bytes);

/// The answer's "id" if it is a non-negative integer literal that fits 64 bits.
std::optional<std::uint64_t> answer_id(const json::Value& answer);

/// A decode answer (id already matched). implementation and millis are left for the caller.
Result<core::ImplResult, std::string> parse_decode_answer(const json::Value& answer);

/// A bench answer: the nanoseconds, or nullopt when the adapter declines (nanos null, or an
/// outcome such as "error" for an op it does not know). Error: a malformed answer.
Result<std::optional<std::uint64_t>, std::string> parse_bench_answer(const json::Value& answer);

/// A validate answer (schemas/adapter-validate.schema.json #/$defs/reply; id already matched), held
/// to its schema. An adapter that does not know the op answers with a bad-request decode answer
/// (outcome error): that is verdict error with its message. implementation and millis are left for
/// the caller.
Result<core::ValidateResult, std::string> parse_validate_answer(const json::Value& answer);

/// The id of an answer from the first bytes of its line, when the line is too long to parse.
std::optional<std::uint64_t> sniff_id(std::string_view line_prefix);

/// At most `max` bytes of `line` with control and non-ASCII bytes escaped, for messages.
std::string excerpt(std::string_view line, std::size_t max = 120);

}  // namespace crosscheck::exec::protocol
