// reference_validation.hpp: layer 2 (canonical validation) of the C++ reference, the one place both
// the in-process `cpp` member of an ImplementationSet and `crosscheck serve-adapter` ask. The verdict
// is src/canonical's reference validator over the same schema source the decoder loaded.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/impl_result.hpp"
#include "json/schema_validator.hpp"
#include "schema/ir.hpp"

namespace crosscheck::exec {

/// The layers the C++ reference answers (hello's "layers").
std::vector<std::string> reference_layers();

/// The reference's canonical verdict on `input` (raw bytes) as schema document `document` of `ir`:
/// unsupported for a document the schema source does not have, error when the source cannot be
/// loaded as canonical schemas (the message names the document and pointer). The validator of an
/// IR is built once and kept for the life of the process.
/// `sink`, when given, is told the outcome of every schema node evaluated (layer-2 schema coverage).
core::ValidateResult validate_reference(const schema::Ir& ir, std::string_view document,
                                        std::string_view input, json::NodeSink* sink = nullptr);

}  // namespace crosscheck::exec
