// header.cpp: the comment block every reproducer starts with (which SDK, which schema manifest, which
// bucket, the reference's answer against the SDK's, the crosscheck replay line), and the test's name.
#include "repro/detail/writer.hpp"

namespace crosscheck::repro::detail {

std::string entrypoint(const Plan& plan, const SdkInfo& sdk, bool canonical) {
  if (sdk.language == "go") return "ahp.Parse<Root>([]byte), ahp.Encode<Root>(value) for root " + plan.root;
  if (sdk.language == "typescript")
    return "parse<Root>(text), encode<Root>(value) of agenthooksprotocol/generated for root " + plan.root;
  if (sdk.language == "python")
    return canonical ? "agenthooksprotocol.runtime.Validator().validate(document, "
                       "agenthooksprotocol.interop.loads(text))"
                     : "agenthooksprotocol.generated.parse_" + plan.root + "(text), encode_" + plan.root +
                           "(value)";
  return canonical ? "agenthooksprotocol::interop::Schemas::bundled()?.validate(document, &serde_json::Value)"
                   : "agenthooksprotocol::generated::parse_" + plan.root + "(&str), encode_" + plan.root +
                         "(&value)";
}

bool has_canonical(const Plan& plan) {
  for (const auto& c : plan.checks)
    if (c.kind == Check::Kind::kVerdict) return true;
  return false;
}

bool is_contextual(const Check& c) {
  return c.kind == Check::Kind::kContextualAnswer || c.kind == Check::Kind::kContextualKeys;
}

bool has_structural(const Plan& plan) {
  for (const auto& c : plan.checks)
    if (c.kind != Check::Kind::kVerdict && !is_contextual(c)) return true;
  return false;
}

std::vector<std::string> header_lines(const Plan& plan, const SdkInfo& sdk) {
  std::vector<std::string> h;
  h.push_back(
      "Reproducer written by `crosscheck repro` (crosscheck's docs/repro.md); regenerate it, do not edit "
      "it.");
  h.push_back("It asserts the answer of the contract's reference (" + plan.reference +
              ") and fails while the SDK answers as the finding recorded; it passes once the SDK answers as "
              "the reference.");
  if (!sdk.verified)
    h.push_back("unverified: no checkout was available; written from the entrypoints adapters/" +
                comment_text(sdk.language) + " calls, never compiled or run here.");
  h.push_back("SDK: " + sdk.language + " agenthooksprotocol " + comment_text(sdk.version) + " (adapter " +
              comment_text(sdk.name) + ", " + comment_text(sdk.path) + " path)");
  if (has_structural(plan)) h.push_back("  layer 1 entrypoint: " + entrypoint(plan, sdk, false));
  if (has_canonical(plan)) h.push_back("  layer 2 entrypoint: " + entrypoint(plan, sdk, true));
  if (!plan.scenario_id.empty())
    h.push_back(
        "  layer 3 entrypoint: its interop client (python -m agenthooksprotocol.interop client --config ...) "
        "against its own interop server, on the one-row scenario file beside this one (scenario.json)");
  std::string origin;  // "repository @ commit, protocol draft", from what the lock gave
  if (!sdk.source_commit.empty())
    origin = (sdk.source_repository.empty() ? "" : comment_text(sdk.source_repository) + " @ ") +
             comment_text(sdk.source_commit);
  if (!sdk.protocol_version.empty())
    origin += (origin.empty() ? "protocol " : ", protocol ") + comment_text(sdk.protocol_version);
  h.push_back("Schema manifest: ahp-codegen.lock.json schemaManifestSha256 " +
              (sdk.manifest_sha256.empty() ? std::string("unknown (the SDK reported no lock)")
                                           : comment_text(sdk.manifest_sha256)) +
              (origin.empty() ? "" : " (" + origin + ")"));
  if (!plan.scenario_id.empty()) h.push_back("Scenario row: " + comment_text(plan.scenario_id));
  h.push_back("Finding: " + comment_text(plan.finding_path) + " (id " + plan.finding_id + "), root " +
              plan.root +
              (plan.document.empty() ? std::string() : ", document " + comment_text(plan.document)));
  h.push_back("Witness: " + std::to_string(plan.input.size()) +
              " bytes, embedded below as base64: " + comment_text(plan.input));
  if (plan.rules.empty())
    h.push_back("Rule (contract/rule-catalogue.json): none tied to this finding by the catalogue");
  for (const auto& [id, text] : plan.rules)
    h.push_back("Rule broken (contract/rule-catalogue.json): " + comment_text(id) + ": " +
                comment_text(text, 400));
  h.push_back("Deviation of " + comment_text(plan.deviating) + " (blame basis: " + plan.blame_basis + "):");
  for (const auto& c : plan.checks) {
    h.push_back("  bucket " + comment_text(c.bucket) + ", " + c.layer + " " + c.cls +
                (c.implementation_defined ? " (implementation-defined input)" : " (contract)") + ": " +
                comment_text(c.signature));
    h.push_back("    reference " + plan.reference + ": " + comment_text(c.reference_answer));
    h.push_back("    " + comment_text(plan.deviating) + ": " + comment_text(c.sdk_answer));
  }
  if (plan.deviating != sdk.name)
    h.push_back("Note: the deviation is " + comment_text(plan.deviating) + "'s; this asks " +
                comment_text(sdk.name) + " the same question (the reference's answer is the one asserted).");
  h.push_back("Replay with crosscheck: " +
              (plan.replay.empty() ? std::string("crosscheck replay FINDING") : comment_text(plan.replay)));
  return h;
}

std::string test_name(const Plan& plan) { return plan.root + "_" + plan.finding_id.substr(0, 12); }

std::vector<std::string> base64_chunks(const std::string& bytes, std::size_t width) {
  const std::string b64 = base64_encode(bytes);
  std::vector<std::string> out;
  for (std::size_t at = 0; at < b64.size(); at += width) out.push_back(b64.substr(at, width));
  if (out.empty()) out.emplace_back();
  return out;
}

std::string assertion_message(const Plan& plan, const Check& c) {
  return plan.deviating + " answers " + c.sdk_answer + "; the reference " + plan.reference + " answers " +
         c.reference_answer + " (bucket " + c.bucket + ", " + c.layer + " " + c.cls + ")";
}

}  // namespace crosscheck::repro::detail
