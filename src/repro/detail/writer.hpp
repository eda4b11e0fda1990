// writer.hpp: what the language writers of src/repro share (the header block, names, chunks).
#pragma once

#include <string>
#include <vector>

#include "repro/repro.hpp"
#include "util/base64.hpp"

namespace crosscheck::repro::detail {

/// The header's lines, without a comment prefix; every piece of finding text in them is escaped.
std::vector<std::string> header_lines(const Plan& plan, const SdkInfo& sdk);
/// The public entrypoint the adapter calls, as a phrase for the header.
std::string entrypoint(const Plan& plan, const SdkInfo& sdk, bool canonical);
bool has_canonical(const Plan& plan);
bool has_structural(const Plan& plan);
bool is_contextual(const Check& c);
/// "<root>_<first 12 hex digits of the finding id>": a test name that is an identifier in every language.
std::string test_name(const Plan& plan);
/// The base64 of `bytes` in lines of `width` characters (at least one, maybe empty).
std::vector<std::string> base64_chunks(const std::string& bytes, std::size_t width = 72);
/// The assertion's message (raw text; the writer quotes it for its language).
std::string assertion_message(const Plan& plan, const Check& c);

std::vector<OutputFile> write_python(const Plan& plan, const SdkInfo& sdk);
/// Layer 3: the test file and the one-row scenario file (scenario.json) beside it.
std::vector<OutputFile> write_python_contextual(const Plan& plan, const SdkInfo& sdk);
std::vector<OutputFile> write_rust(const Plan& plan, const SdkInfo& sdk);
std::vector<OutputFile> write_go(const Plan& plan, const SdkInfo& sdk);
std::vector<OutputFile> write_typescript(const Plan& plan, const SdkInfo& sdk);

}  // namespace crosscheck::repro::detail
