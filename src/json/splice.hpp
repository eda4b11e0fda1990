// splice.hpp: appending elements to an array inside JSON text without rewriting any other byte.
//
// Reviewed files (baselines, matrices) are edited by people and by crosscheck: when crosscheck adds
// entries, every existing byte (formatting, member order, number spellings) stays as it was, so a
// diff shows only the additions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace crosscheck::json {

/// `text` is valid JSON whose top level is an object with an array member `member`. Returns `text`
/// with `elements` (JSON texts, already indented as the caller wants them) appended to that array:
/// ",\n" after the last element, or the array's inside replaced by "\n" + elements + "\n" +
/// `closing_indent` when it is empty. Nothing else changes. Throws Fatal when `member` is absent.
std::string append_to_array_member(const std::string& text, std::string_view member,
                                   const std::vector<std::string>& elements, std::string_view closing_indent);

}  // namespace crosscheck::json
