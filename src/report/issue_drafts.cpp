// issue_drafts.cpp: Markdown issue drafts, one per deviating SDK and failing or known bucket. Every
// string from the run folder goes through escape.hpp (code spans, fences) before it reaches Markdown.
#include "report/issue_drafts.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "report/escape.hpp"
#include "report/writers.hpp"
#include "repro/repro.hpp"
#include "util/base64.hpp"

namespace crosscheck::report {
namespace {

using core::DivergenceClass;

using repro::rejected_as_json;
using repro::result_of;
using repro::validation_of;

const run::ImplementationRecord* record_of(const RunData& run, const std::string& impl) {
  if (!run.summary) return nullptr;
  for (const auto& r : run.summary->implementations)
    if (r.name == impl) return &r;
  return nullptr;
}

std::string version_of(const RunData& run, const std::string& impl) {
  const auto* r = record_of(run, impl);
  return r && !r->version.empty() ? " " + r->version : "";
}

/// What breaks, in words, for the title: the SDK's answer against the contract's.
std::string what_breaks(const Bucket& b, const run::Finding& f, const std::string& sdk) {
  const std::string root = markdown_code(f.root);
  const std::string document = markdown_code(f.document.empty() ? f.root : f.document);
  const core::ImplResult* r = result_of(f, sdk);
  const core::ValidateResult* v = validation_of(f, sdk);
  switch (b.cls) {
    case DivergenceClass::kAcceptance:
      if (r && rejected_as_json(*r)) return "refuses a " + root + " payload as JSON that the contract reads";
      if (r && r->outcome == core::Outcome::kAccepted)
        return "accepts a " + root + " payload the contract rejects";
      return "rejects a " + root + " payload the contract accepts";
    case DivergenceClass::kWarnings:
      return "reports other warnings than the contract on a " + root + " payload";
    case DivergenceClass::kDiagnostics:
      return "reports other errors than the contract on a rejected " + root + " payload";
    case DivergenceClass::kRoundTripSelf:
      if (r && r->encode_error) return "fails to encode a " + root + " payload it accepted";
      return "re-encodes an accepted " + root + " payload to another value";
    case DivergenceClass::kRoundTripCross:
      return "re-encodes a " + root + " payload to another value than the other implementations";
    case DivergenceClass::kSdkError:
      return b.divergence.layer == core::kCanonicalLayer
                 ? "raises in its validator on a " + document + " message"
                 : "raises in its parse on a " + root + " payload";
    case DivergenceClass::kCrash:
      return "crashes on a " + (b.divergence.layer == core::kCanonicalLayer ? document : root) + " input";
    case DivergenceClass::kTimeout:
      return "hangs on a " + (b.divergence.layer == core::kCanonicalLayer ? document : root) + " input";
    case DivergenceClass::kProtocol:
      return "(its crosscheck adapter) breaks the adapter protocol on a " + root + " input";
    case DivergenceClass::kCanonicalAcceptance:
      if (v && v->verdict == core::Verdict::kValid)
        return "validates a " + document + " message the schema says is invalid";
      return "calls a valid " + document + " message invalid";
    case DivergenceClass::kLayerInconsistency:
      return "calls a " + document + " message canonically valid and rejects it structurally";
    default:
      break;
  }
  if (f.scenario && b.cls == DivergenceClass::kContextualExpectation)
    return "interop " + std::string(f.scenario->mode == run::kScenarioServers ? "server" : "client") +
           " does not meet the expectation of scenario row " + markdown_code(f.scenario->id);
  if (f.scenario)
    return "interop " + std::string(f.scenario->mode == run::kScenarioServers ? "server" : "client") +
           " answers scenario row " + markdown_code(f.scenario->id) + " otherwise than the reference host (" +
           core::class_name(b.cls) + ")";
  return std::string("differs from the reference (") + core::class_name(b.cls) + ")";
}

std::string structural_answer(const core::ImplResult& r) {
  std::string s = outcome_text(r);
  const std::string d = diagnostics_text(r);
  if (!d.empty()) s += ": " + d;
  if (r.encode_error) s += "; encode failed: " + *r.encode_error;
  if (r.outcome != core::Outcome::kAccepted && r.outcome != core::Outcome::kRejected && r.message)
    s += "; " + *r.message;
  return s;
}

std::string canonical_answer(const core::ValidateResult& v) {
  std::string s = core::verdict_name(v.verdict);
  if (!v.error_paths.empty()) {
    s += " at " + v.error_paths.front();
    if (!v.error_keywords.empty()) s += " (" + v.error_keywords.front() + ")";
  }
  if (v.verdict != core::Verdict::kValid && v.message) s += "; " + *v.message;
  return s;
}

/// The standalone reproducer (src/repro) for the SDK, when it has a writer: its files as fenced blocks.
std::string reproducer_section(const RunData& run, const run::Finding& f, const std::string& path,
                               const std::string& sdk,
                               const std::vector<std::pair<std::string, std::string>>& rules) {
  const auto* rec = record_of(run, sdk);
  std::string out = "## Reproducer\n\n";
  repro::SdkInfo info;
  info.name = sdk;
  // summary.json's record of the adapter's hello; a scenarios run records none: the adapter's family.
  info.language = rec && !rec->language.empty() ? rec->language : sdk.substr(0, sdk.find('/'));
  const std::string reported = rec && !rec->reported_name.empty() ? rec->reported_name : sdk;
  const std::size_t slash = reported.find('/');
  info.path = slash == std::string::npos ? "text" : reported.substr(slash + 1);
  info.version = rec && !rec->version.empty() ? rec->version : "unknown (not recorded in the run folder)";
  if (rec) {
    info.manifest_sha256 = rec->schema_manifest_sha256.value_or("");
    info.source_commit = rec->source_commit.value_or("");
  }
  auto plan = repro::plan_reproducer(f, path, sdk, info.language);
  if (!plan.ok()) return out + "No standalone reproducer: " + markdown_code(plan.error()) + ".\n\n";
  plan->rules = rules;
  auto files = repro::write_reproducer(plan.value(), info);
  if (!files.ok()) return out + "No standalone reproducer: " + markdown_code(files.error()) + ".\n\n";
  out += "Written by `crosscheck repro` (`crosscheck repro " + shell_quote(path) + " --sdk " +
         shell_quote(sdk) + "`); it fails while " + markdown_code(sdk) +
         " answers as observed and passes once it answers as the " + "reference.\n\n";
  for (const auto& file : files.value()) {
    if (file.path == "Cargo.lock") continue;  // pins the crates; `crosscheck repro` writes it beside
    const std::string& p = file.path;
    auto ends = [&](const char* suffix) { return p.size() >= std::strlen(suffix) && p.ends_with(suffix); };
    const std::string info_string = ends(".py")     ? "python"
                                    : ends(".rs")   ? "rust"
                                    : ends(".toml") ? "toml"
                                    : ends(".json") ? "json"
                                    : ends(".go")   ? "go"
                                    : ends(".mjs")  ? "js"
                                                    : "";
    out += markdown_code(file.path) + ":\n\n" + markdown_fence(file.content, info_string) + "\n";
  }
  return out;
}

IssueDraft draft(const RunData& run, const Bucket& b, const std::string& sdk,
                 const IssueDraftOptions& options) {
  const FindingFile& file = run.findings[b.shown];
  const run::Finding& f = b.finding(run.findings);
  const std::string path = b.shown_minimized ? file.min_path : file.path;
  IssueDraft d;
  d.sdk = sdk;
  d.bucket = b.id;
  // A file name from an adapter's name and the bucket id, whatever they hold.
  std::string name = sdk + "-" + b.id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_') c = '-';
  d.file = name + ".md";
  d.title = markdown_code(sdk) + version_of(run, sdk) + " " + what_breaks(b, f, sdk);

  std::string t = "# " + d.title + "\n\n";
  t += "Found by crosscheck, a differential tester of the AHP SDKs against the contract's reference (the C++ "
       "decoder and canonical validator, `" +
       (b.blame.reference.empty() ? std::string(verdict::kReferenceImplementation) : b.blame.reference) +
       "`). ";
  t += std::string(b.implementation_defined
                       ? "The input has implementation-defined traits: the contract leaves this answer open, "
                         "and the blame is by majority."
                       : "The contract decides this answer.") +
       "\n\n";
  t += "| | |\n|---|---|\n";
  t += "| bucket | " + markdown_code(b.id, true) + " (" + markdown_code(b.divergence.layer, true) + " " +
       markdown_code(core::class_name(b.cls), true) + ") |\n";
  t += "| signature | " + markdown_code(b.signature, true, 300) + " |\n";
  t += "| deviating | " + markdown_code(sdk, true) + ": " + markdown_code(b.blame.explanation(), true) +
       " |\n";
  t += "| status | " +
       std::string(run.fails(b) ? "new: fails the run"
                   : b.known    ? "known to the baseline" +
                                   (run.baseline.empty() ? "" : " " + markdown_code(run.baseline, true))
                             : "implementation-defined: not failing") +
       " |\n";
  for (const auto& e : b.known_entries) t += "| baseline entry | " + markdown_code(e, true, 300) + " |\n";
  const auto rules = options.rules ? options.rules(f) : std::vector<std::pair<std::string, std::string>>{};
  if (rules.empty()) t += "| rule | none tied to this finding by the rule catalogue |\n";
  for (const auto& [id, text] : rules)
    t += "| rule | " + markdown_code(id, true) + ": " + markdown_code(text, true, 400) + " |\n";
  t += "\n## Witness\n\n";
  t += "Root " + markdown_code(f.root) +
       (f.document.empty() ? "" : ", document " + markdown_code(f.document)) + ", " +
       std::to_string(f.input.size()) + " bytes" + (b.shown_minimized ? " (minimized)" : "") + ":\n\n";
  t += markdown_fence(f.input, "json", 4000) + "\n";
  t += "The exact bytes, base64: " + markdown_code(base64_encode(f.input), false, 6000) + "\n\n";

  t +=
      f.scenario
          ? "## Observed and expected\n\n| implementation | answer | derived result or message | |\n"
          : "## Observed and expected\n\n| implementation | structural (parse) | canonical (validator) | |\n";
  t += "|---|---|---|---|\n";
  std::vector<std::string> impls;
  for (const auto& r : f.results) impls.push_back(r.implementation);
  for (const auto& v : f.validations)
    if (std::find(impls.begin(), impls.end(), v.implementation) == impls.end())
      impls.push_back(v.implementation);
  for (const auto& impl : impls) {
    const auto* r = result_of(f, impl);
    const auto* v = validation_of(f, impl);
    const bool reference = impl == (b.blame.reference.empty() ? std::string(verdict::kReferenceImplementation)
                                                              : b.blame.reference);
    const bool deviating =
        std::find(b.blame.deviating.begin(), b.blame.deviating.end(), impl) != b.blame.deviating.end();
    std::string first = r ? structural_answer(*r) : "-", second = v ? canonical_answer(*v) : "-";
    if (f.scenario) {
      // Layer 3: the scenario verdict's answer and status, then what it derived or why it refused.
      first = r ? core::outcome_name(r->outcome) : "-";
      for (const auto& e : f.scenario->entries)
        if (e.implementation == impl) first = e.answer + " (" + e.status + ")";
      second = r && r->encoded ? *r->encoded : r && r->message ? *r->message : "-";
    }
    t += "| " + markdown_code(impl + version_of(run, impl), true) + " | " + markdown_code(first, true, 400) +
         " | " + markdown_code(second, true, 600) + " | " +
         (reference   ? "expected (the reference)"
          : deviating ? "deviates"
                      : "") +
         " |\n";
  }
  t += "\n" + reproducer_section(run, f, path, sdk, rules);

  t += "## Versions\n\n";
  for (const auto& impl : impls) {
    const auto* rec = record_of(run, impl);
    if (!rec || (rec->language.empty() && rec->version.empty())) continue;
    t += "- " + markdown_code(impl) + ": " + markdown_code(rec->language + " " + rec->version) +
         (rec->language_version.empty() ? "" : " on " + markdown_code(rec->language_version)) +
         (rec->schema_manifest_sha256 ? ", schema manifest " + markdown_code(*rec->schema_manifest_sha256)
                                      : "") +
         (rec->source_commit ? " (source " + markdown_code(*rec->source_commit) + ")" : "") + "\n";
  }
  if (run.summary && !run.summary->crosscheck_version.empty())
    t += "- crosscheck " + markdown_code(run.summary->crosscheck_version) + "\n";
  t += "\n## Replay with crosscheck\n\n" + markdown_fence(RunData::replay_command(path), "sh");
  d.text = std::move(t);
  return d;
}

}  // namespace

std::vector<IssueDraft> issue_drafts(const RunData& run, const IssueDraftOptions& options) {
  std::vector<IssueDraft> out;
  for (const auto& b : run.buckets) {
    // Implementation-defined buckets never fail (the contract leaves them open): with the option,
    // every one of them, known or not.
    if (b.implementation_defined ? !options.implementation_defined : !run.fails(b) && !b.known) continue;
    for (const auto& sdk : b.blame.deviating) {
      if (verdict::is_reference(sdk)) continue;
      out.push_back(draft(run, b, sdk, options));
    }
  }
  std::sort(out.begin(), out.end(), [](const IssueDraft& a, const IssueDraft& b) { return a.file < b.file; });
  return out;
}

std::string issue_index(const RunData& run, const std::vector<IssueDraft>& drafts) {
  std::string t = "# Issue drafts of " + markdown_code(run.dir) + "\n\n";
  t += std::to_string(drafts.size()) + " drafts, one per deviating SDK and failing or known bucket (" +
       markdown_code(run_status(run)) + ").\n\n";
  for (const auto& d : drafts) t += "- [" + d.file + "](" + d.file + "): " + d.title + "\n";
  return t;
}

}  // namespace crosscheck::report
