// decoder.cpp: Decoder = strict JSON parsing, then the structural check of checker.hpp.
#include "decoder/decoder.hpp"

#include "decoder/detail/checker.hpp"
#include "decoder/detail/schema_index.hpp"
#include "json/write.hpp"

namespace crosscheck::decoder {

const char* severity_name(Severity severity) { return severity == Severity::kError ? "error" : "warning"; }

bool DecodeResult::has_warning() const {
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::kWarning) return true;
  }
  return false;
}

namespace {

/// Checks `value` (which must outlive the call: the memo keys on its address) into `result`;
/// `compact`, when not empty, is the text the writer would give for `value` (json::parse's), taken as
/// the re-encoded text; `size_hint` (the input's size, 0 if none) is reserved for a text written.
void check_into(const schema::Ir& ir, const detail::SchemaIndex& index, const DecodeOptions& options,
                const schema::Root& root, const json::Value& value, CoverageSink* coverage,
                std::string compact, std::size_t size_hint, DecodeResult& result) {
  const schema::Shape* shape = index.root_shape(root);
  if (!shape) {
    auto type = ir.types.find(root.public_name);
    if (type != ir.types.end()) shape = type->second.shape.get();
  }
  if (!shape) {
    result.accepted = false;
    result.diagnostics.push_back(
        Diagnostic{"", "invalid_type", Severity::kError, "the schema has no type named " + root.public_name});
    return;
  }
  detail::Checker checker(index, coverage, options.limits.max_depth, options.max_diagnostics);
  result.accepted = checker.run(*shape, value, result.diagnostics) != detail::Status::kError;
  if (result.accepted && !compact.empty()) {
    result.encoded = std::move(compact);
  } else if (result.accepted) {
    json::WriteOptions write_options;
    write_options.collapse_duplicates = true;
    write_options.size_hint = size_hint;
    result.encoded = json::write(value, write_options);
  }
}

CheckStatus status_of(detail::Checker& checker, const schema::Shape& shape, const json::Value& value) {
  std::vector<Diagnostic> out;
  switch (checker.run(shape, value, out)) {
    case detail::Status::kClean:
      return CheckStatus::kClean;
    case detail::Status::kWarning:
      return CheckStatus::kWarning;
    default:
      return CheckStatus::kError;
  }
}

}  // namespace

Decoder::Decoder(const schema::Ir& ir, DecodeOptions options)
    : ir_(ir), options_(options), index_(std::make_shared<const detail::SchemaIndex>(ir)) {}

DecodeResult Decoder::decode(const schema::Root& root, std::string_view bytes, CoverageSink* coverage) const {
  DecodeResult result;
  std::string compact;
  auto parsed = json::parse(bytes, options_.limits, &compact);
  if (!parsed.ok()) {
    result.diagnostics.push_back(Diagnostic{"", "invalid_json", Severity::kError, parsed.error().message()});
    return result;
  }
  result.raw = std::move(parsed).value();
  check_into(ir_, *index_, options_, root, *result.raw, coverage, std::move(compact), bytes.size(), result);
  return result;
}

DecodeResult Decoder::check(const schema::Root& root, const json::Value& value,
                            CoverageSink* coverage) const {
  DecodeResult result;
  result.raw = value;
  check_into(ir_, *index_, options_, root, *result.raw, coverage, {}, 0, result);
  return result;
}

CheckStatus Decoder::check_subtree(const schema::Shape& shape, const json::Value& value) const {
  // A fresh checker per call: its memo keys on value addresses, which change between calls.
  // No diagnostics (max 0): only the status is wanted, and writing messages costs more than the check.
  detail::Checker checker(*index_, nullptr, options_.limits.max_depth, 0);
  return status_of(checker, shape, value);
}

const schema::Shape* Decoder::ref_target(const schema::Shape& ref) const { return index_->target(ref); }

const std::vector<const std::string*>& Decoder::variant_tags(const schema::Shape& union_node) const {
  return index_->tags(union_node);
}

SubtreeChecker::SubtreeChecker(const Decoder& decoder)
    : checker_(std::make_unique<detail::Checker>(*decoder.index_, nullptr, decoder.options_.limits.max_depth,
                                                 0)) {}

SubtreeChecker::~SubtreeChecker() = default;

CheckStatus SubtreeChecker::check(const schema::Shape& shape, const json::Value& value) {
  return status_of(*checker_, shape, value);
}

}  // namespace crosscheck::decoder
