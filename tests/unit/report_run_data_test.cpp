// Tests of the run-folder reader, the report writers on hostile findings, and the event log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "layers/structural/comparator.hpp"
#include "layers/structural/input_traits.hpp"
#include "report/run_data.hpp"
#include "report/writers.hpp"
#include "run/event_log.hpp"
#include "run/finding_file.hpp"
#include "util/file.hpp"
#include "util/result.hpp"

namespace crosscheck::report {
namespace {

namespace fs = std::filesystem;
using core::DivergenceClass;
using core::Outcome;
using run::EventFile;
using run::EventLog;
using run::read_events;

const std::string kHostile = std::string(
    "{\"kind\":\"</script><script>document.title='pwned'</script>\",\"x\":\"<img src=x onerror=alert(1)>\","
    "\"y\":\"```\\n````\",\"z\":\"\xff\xfe\x01\"}");

core::ImplResult result(const std::string& impl, Outcome o, std::vector<core::Diag> diags = {}) {
  core::ImplResult r;
  r.implementation = impl;
  r.outcome = o;
  r.diagnostics = std::move(diags);
  if (o == Outcome::kAccepted) r.encoded = "{\"kind\":\"<b>bold</b>\"}";
  return r;
}

run::Finding finding(const std::string& input, const std::string& bucket, bool implementation_defined) {
  run::Finding f;
  f.root = "effect";
  f.input = input;
  core::Divergence d;
  d.cls = DivergenceClass::kAcceptance;
  d.implementations = {"cpp", "python", "rust"};
  d.detail = "accepted by python <script>alert(1)</script>; rejected by cpp, rust";
  d.implementation_defined = implementation_defined;
  d.bucket = bucket;
  d.signature = "acceptance|<svg onload=alert(1)>";
  f.divergences.push_back(d);
  f.results = {result("cpp", Outcome::kRejected, {{"/kind", "unknown_enum", "error"}}),
               result("python", Outcome::kAccepted),
               result("rust", Outcome::kRejected, {{"/kind", "unknown_enum", "error"}})};
  f.traits = implementation_defined ? std::vector<std::string>{"invalid-utf8"} : std::vector<std::string>{};
  return f;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

/// A finished run folder with two buckets: one contract (with a minimized finding), one
/// implementation-defined with a hostile payload.
class RunFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("crosscheck-report-test-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir / "findings");
    write(dir / "run.json",
          "{\"format\":\"crosscheck-fuzz/1\",\"seed\":7,\"roots\":[],\"implementations\":\"cpp,python,"
          "rust\",\"schema\":\"abc\"}\n");
    write(dir / "summary.json",
          "{\"format\":\"crosscheck-summary/1\",\"generated\":1000,\"sent\":100,\"divergentInputs\":5,"
          "\"contractInputs\":2,\"buckets\":2,\"byClass\":{\"acceptance\":5},\"byRoot\":{\"effect\":5},"
          "\"byImplementation\":{\"python\":5},\"coveragePercent\":50.5,\"seed\":7,\"elapsed\":12.5,"
          "\"bucketRoots\":{},"
          "\"strict\":false,\"roots\":[\"effect\",\"intercept_request\"],\"implementations\":[{\"name\":"
          "\"cpp\"},"
          "{\"name\":\"python\"},{\"name\":\"rust\"}],\"skewTable\":{\"effect\":{\"cpp\":\"aa\",\"python\":"
          "\"aa\","
          "\"rust\":\"aa\"},\"intercept_request\":{\"cpp\":\"bb\",\"python\":\"bb\",\"rust\":\"\"}},"
          "\"skewedRoots\":[\"intercept_request\"]}\n");
    write(dir / "coverage.json",
          "{\"tracked\":4,\"reachedAccepted\":2,\"reachedRejected\":2,\"percent\":50,\"percentAll\":50,"
          "\"flags\":[],\"unreached\":{"
          "\"neverAccepted\":[\"effect.schema.json#/<i>x</i>\"],\"neverRejected\":[]}}\n");
    run::FindingStore store((dir / "findings").string());
    contract_file = fs::path(store.write(finding(std::string(2000, ' ') + "{\"kind\":\"zzz\"}",
                                                 "c0ffee0000000001", false)))
                        .filename()
                        .string();
    hostile_file = fs::path(store.write(finding(kHostile, "bad0000000000002", true))).filename().string();
    // The reducer's minimized version of the contract finding.
    json::Value min = run::finding_to_json(finding("{\"kind\":\"zzz\"}", "c0ffee0000000001", false));
    json::Value reduction = json::Value::object();
    reduction.add("from", json::Value::string(contract_file));
    reduction.add("calls", json::Value::number("17"));
    reduction.add("bytesBefore", json::Value::number("2014"));
    reduction.add("bytesAfter", json::Value::number("14"));
    min.add("reduction", std::move(reduction));
    write(dir / "findings" / (contract_file.substr(0, contract_file.size() - 5) + ".min.json"),
          json::write(min));
    write(
        dir / "events.jsonl",
        "{\"t\":0,\"event\":\"start\",\"seed\":7,\"implementations\":[\"cpp\",\"python\",\"rust\"],"
        "\"resumed\":false}\n"
        "{\"t\":2,\"event\":\"progress\",\"generated\":500,\"sent\":50,\"divergentInputs\":1,"
        "\"contractInputs\":1,"
        "\"buckets\":1,\"findings\":1,\"coverage\":40,\"inputsPerSecond\":250,\"sentPerSecond\":25}\n"
        "{\"t\":3,\"event\":\"finding\",\"file\":\"findings/<script>x.json\",\"bucket\":\"bad0000000000002\","
        "\"class\":\"acceptance\",\"root\":\"effect\",\"implementations\":[\"python\"],"
        "\"implementationDefined\":true,"
        "\"newBucket\":true}\n"
        "{\"t\":4,\"event\":\"progress\",\"generated\":1000,\"sent\":100,\"divergentInputs\":5,"
        "\"contractInputs\":2,"
        "\"buckets\":2,\"findings\":2,\"coverage\":50.5,\"inputsPerSecond\":250,\"sentPerSecond\":25}\n"
        "{\"t\":4.5,\"event\":\"end\",\"exitC");  // cut by a kill
  }
  void TearDown() override { fs::remove_all(dir); }

  fs::path dir;
  std::string contract_file, hostile_file;
};

TEST_F(RunFolder, LoadsBucketsPrefersMinimizedAndFindsTheDeviatingImplementation) {
  RunData run = load_run(dir.string());
  ASSERT_EQ(run.findings.size(), 2u);
  ASSERT_EQ(run.buckets.size(), 2u);
  const Bucket& first = run.buckets[0];  // the contract bucket sorts first
  EXPECT_EQ(first.id, "c0ffee0000000001");
  EXPECT_TRUE(run.fails(first));
  EXPECT_TRUE(first.shown_minimized);
  EXPECT_EQ(first.finding(run.findings).input, "{\"kind\":\"zzz\"}");
  EXPECT_EQ(run.findings[first.shown].reduction->calls, 17u);
  EXPECT_EQ(first.blame.deviating, std::vector<std::string>{"python"});
  EXPECT_EQ(first.blame.basis, verdict::Basis::kReference);
  EXPECT_FALSE(run.fails(run.buckets[1]));
  EXPECT_EQ(run.implementations, (std::vector<std::string>{"cpp", "python", "rust"}));
  EXPECT_EQ(run.events.events.size(), 4u);
  EXPECT_TRUE(run.events.partial_last_line);
  EXPECT_EQ(run.roots, (std::vector<std::string>{"effect", "intercept_request"}));
}

TEST_F(RunFolder, HtmlIsInertAndComplete) {
  RunData run = load_run(dir.string());
  std::string html = html_report(run);
  std::string lower = html;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_EQ(lower.find("<img"), std::string::npos);
  EXPECT_EQ(lower.find("<svg onload"), std::string::npos);
  EXPECT_EQ(lower.find("<i>x</i>"), std::string::npos);
  EXPECT_EQ(lower.find("<b>bold"), std::string::npos);
  // The policy comes right after the charset, before anything taken from the run.
  std::size_t csp = html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';");
  ASSERT_NE(csp, std::string::npos);
  EXPECT_LT(csp, html.find("<title>"));
  EXPECT_NE(html.find("&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"esc\">\\xff</span>"), std::string::npos);
  EXPECT_TRUE(json::is_valid_utf8(html));
  for (const auto& f : run.findings)
    EXPECT_NE(html.find("crosscheck replay " + f.path), std::string::npos) << f.path;
  EXPECT_NE(html.find(".min.json"), std::string::npos);
  for (const char* heading : {"Roots \xc3\x97 implementations", "Throughput and findings over the run",
                              "Buckets", "Schema skew", "Schema coverage", "<polyline"})
    EXPECT_NE(html.find(heading), std::string::npos) << heading;
}

TEST_F(RunFolder, TheMatrixHasALayerRowOnlyForTheRootsTheLayerRanOnAndThePlotShowsLayer3) {
  // Without "layers" (an older summary) where each layer ran is unknown: every root has every row.
  // A matrix row of `root` (its heading may add "(skewed)") whose layer cell is `layer`.
  auto row = [](const std::string& html, const std::string& root, const std::string& layer) {
    const std::string head = "<tr><th class=\"root\"><code>" + root + "</code>";
    const std::string cell = "<td class=\"layer\">" + layer + "</td>";
    for (std::size_t at = html.find(head); at != std::string::npos; at = html.find(head, at + 1)) {
      const std::size_t found = html.find("<td class=\"layer\">", at);
      if (found != std::string::npos && html.compare(found, cell.size(), cell) == 0) return true;
    }
    return false;
  };
  std::string html = html_report(load_run(dir.string()));
  EXPECT_TRUE(row(html, "effect", "structural")) << html;

  // Layer 1 on effect and intercept_request, layer 3 on intercept_response only.
  json::Value summary = json::parse(*read_file_bytes(dir / "summary.json")).value();
  summary.find("roots")->push(json::Value::string("intercept_response"));
  json::Value by_layer = json::Value::object();
  by_layer.add("structural", json::Value::number("3"));
  by_layer.add("contextual", json::Value::number("0"));
  summary.add("byLayer", std::move(by_layer));
  summary.add("layers", json::parse(R"({"structural":{"inputs":100,"roots":["effect","intercept_request"]},)"
                                    R"("contextual":{"inputs":24,"roots":["intercept_response"]}})")
                            .value());
  write(dir / "summary.json", json::write(summary));
  // Layer 3's points and finding follow the adapters' campaign on the same log.
  write(dir / "events.jsonl",
        "{\"t\":0,\"event\":\"start\",\"seed\":7,\"implementations\":[\"cpp\"],\"roots\":[],\"resumed\":"
        "false}\n"
        "{\"t\":2,\"event\":\"progress\",\"generated\":500,\"sent\":50,\"divergentInputs\":1,"
        "\"contractInputs\":1,\"buckets\":1,\"findings\":1,\"coverage\":40,\"inputsPerSecond\":250,"
        "\"sentPerSecond\":25,\"layers\":[\"structural\"]}\n"
        "{\"t\":9,\"event\":\"finding\",\"file\":\"findings/diverge-l3.json\",\"bucket\":\"b3\","
        "\"class\":\"contextual-result\",\"layer\":\"contextual\",\"root\":\"intercept_response\","
        "\"implementations\":[\"python\"],\"implementationDefined\":false,\"newBucket\":true}\n"
        "{\"t\":10,\"event\":\"progress\",\"generated\":524,\"sent\":74,\"divergentInputs\":2,"
        "\"contractInputs\":2,\"buckets\":2,\"findings\":2,\"coverage\":40,\"inputsPerSecond\":3,"
        "\"sentPerSecond\":3,\"layers\":[\"contextual\"]}\n"
        "{\"t\":10.5,\"event\":\"end\",\"generated\":524,\"sent\":74,\"divergentInputs\":2,"
        "\"contractInputs\":2,\"buckets\":2,\"interrupted\":false,\"exitCode\":1}\n");
  html = html_report(load_run(dir.string()));
  EXPECT_TRUE(row(html, "effect", "structural")) << html;
  EXPECT_TRUE(row(html, "intercept_request", "structural")) << html;
  EXPECT_TRUE(row(html, "intercept_response", "contextual")) << html;
  EXPECT_FALSE(row(html, "effect", "contextual")) << "layer 3 never ran on effect";
  EXPECT_FALSE(row(html, "intercept_request", "contextual")) << "layer 3 never ran on intercept_request";
  EXPECT_FALSE(row(html, "intercept_response", "structural")) << "layer 1 never ran on intercept_response";
  // The plot marks the move to layer 3 where the earlier layers' last point was, and ticks its finding.
  EXPECT_NE(html.find("fill=\"#00897b\">layer 3</text>"), std::string::npos) << html;
  EXPECT_NE(html.find("<title>findings/diverge-l3.json</title>"), std::string::npos) << html;
}

TEST_F(RunFolder, JunitHasOneCasePerBucketAndOnlyXmlCharacters) {
  RunData run = load_run(dir.string());
  std::string xml = junit_report(run);
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = 0; (p = xml.find(what, p)) != std::string::npos; ++p) ++n;
    return n;
  };
  EXPECT_EQ(count("<testcase "), 3u);  // two buckets, and intercept_request passes
  EXPECT_EQ(count("<failure "), 1u);
  EXPECT_EQ(count("<skipped "), 1u);
  EXPECT_NE(xml.find("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos);
  EXPECT_TRUE(json::is_valid_utf8(xml));
  for (unsigned char c : xml) EXPECT_TRUE(c >= 0x20 || c == '\n' || c == '\t') << int(c);
  EXPECT_EQ(xml.find("<script"), std::string::npos);
  for (const auto& f : run.findings) EXPECT_NE(xml.find("crosscheck replay " + f.path), std::string::npos);
}

TEST_F(RunFolder, MarkdownFencesHoldThePayload) {
  RunData run = load_run(dir.string());
  std::string md = markdown_report(run);
  EXPECT_NE(md.find("FAILED"), std::string::npos);
  EXPECT_NE(md.find("`````text\n"), std::string::npos)
      << md;  // 4 backticks in a row in the payload; not UTF-8
  // Hostile text outside the payload fence sits in code spans, where Markdown renders it as text.
  EXPECT_NE(md.find("`accepted by python <script>alert(1)</script>; rejected by cpp, rust`"),
            std::string::npos);
  for (const auto& f : run.findings) EXPECT_NE(md.find("crosscheck replay " + f.path), std::string::npos);
}

TEST_F(RunFolder, IncompleteOrForeignFoldersAreRefusedNamingTheFile) {
  auto message = [&](const LoadOptions& o = {}) {
    try {
      load_run(dir.string(), o);
    } catch (const Fatal& e) {
      EXPECT_EQ(e.code(), kExitUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  write(dir / "findings" / hostile_file, "{\"format\":\"crosscheck-finding/9\"}");
  EXPECT_NE(message().find(hostile_file), std::string::npos);
  fs::remove(dir / "findings" / hostile_file);
  fs::remove(dir / "summary.json");
  EXPECT_NE(message().find("summary.json: missing"), std::string::npos);
  LoadOptions partial;
  partial.allow_partial = true;
  EXPECT_TRUE(load_run(dir.string(), partial).partial);
  write(dir / "summary.json", "{\"generated\":1}");
  EXPECT_NE(
      message().find("summary.json: /format: missing, expected \"crosscheck-summary/1\" (format version)"),
      std::string::npos)
      << message();
  write(dir / "run.json", "{\"format\":\"crosscheck-fuzz/2\"}");
  EXPECT_NE(message().find("run.json: /format: expected \"crosscheck-fuzz/1\" (format version), found "
                           "\"crosscheck-fuzz/2\""),
            std::string::npos)
      << message();
  write(dir / "run.json", "{\"format\":");
  EXPECT_NE(message().find("run.json: not JSON"), std::string::npos);
  fs::remove(dir / "run.json");
  EXPECT_NE(message().find("run.json: missing"), std::string::npos);
}

/// A baseline-check.json that fits its schema: `known` and `fresh` are bucket items' extra members
/// (bucket id first), as `baseline check` writes them.
std::string recorded_check(const std::string& baseline, const std::vector<std::string>& known,
                           const std::vector<std::string>& fresh, const std::vector<std::string>& stale) {
  auto items = [](const std::vector<std::string>& list) {
    std::string out;
    for (const auto& extra : list)
      out += std::string(out.empty() ? "" : ",") + "{" + extra +
             ",\"class\":\"acceptance\",\"roots\":[],\"implementations\":[],\"implementationDefined\":false,"
             "\"occurrences\":1,\"witness\":\"\",\"replay\":\"\"" +
             (extra.find("\"entries\"") == std::string::npos ? ",\"entries\":[]" : "") + "}";
    return out;
  };
  std::string stale_list;
  for (const auto& id : stale) stale_list += std::string(stale_list.empty() ? "" : ",") + "\"" + id + "\"";
  return "{\"format\":\"crosscheck-baseline-check/1\",\"baseline\":\"" + baseline +
         "\",\"runs\":[],\"strict\":false,\"new\":[" + items(fresh) + "],\"known\":[" + items(known) +
         "],\"stale\":[" + stale_list +
         "],\"notApplicable\":[],\"counts\":{\"new\":0,\"newImplementationDefined\":0,\"known\":0,"
         "\"stale\":0},\"exitCode\":0,\"verdict\":{\"fails\":false,\"exitCode\":0,\"strict\":false,"
         "\"baseline\":null,\"newContract\":0,\"newImplementationDefined\":0,\"known\":0,\"stale\":0,"
         "\"failingStale\":0}}";
}

TEST_F(RunFolder, ABaselineCheckInTheFolderMarksKnownBuckets) {
  write(dir / "baseline-check.json",
        recorded_check("known.json", {"\"bucket\":\"c0ffee0000000001\",\"entries\":[\"planted\"]"}, {},
                       {"old-entry"}));
  RunData run = load_run(dir.string());
  ASSERT_EQ(run.buckets.size(), 2u);
  const auto& known = *std::find_if(run.buckets.begin(), run.buckets.end(),
                                    [](const Bucket& b) { return b.id == "c0ffee0000000001"; });
  EXPECT_TRUE(known.known);
  EXPECT_FALSE(run.fails(known));
  EXPECT_EQ(run.stale_entries, std::vector<std::string>{"old-entry"});
  EXPECT_EQ(run_status(run).rfind("passed: no new contract divergence", 0), 0u) << run_status(run);
  std::string xml = junit_report(run);
  EXPECT_NE(xml.find("failures=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("known to the baseline (planted)"), std::string::npos);
  write(dir / "baseline-check.json", "{\"format\":\"crosscheck-baseline-check/0\"}");
  EXPECT_THROW(load_run(dir.string()), Fatal);
}

/// Both SDKs accept 2^53 in an integer slot, the reference rejects it: one bucket, contract.
run::Finding unsafe_integer_finding() {
  run::Finding f;
  f.root = "content_upload_receipt";
  f.input = R"({"ref":"","sha256":"","size":9007199254740992})";
  f.results = {result("cpp", Outcome::kRejected, {{"/size", "invalid_type", "error"}}),
               result("python", Outcome::kAccepted), result("rust", Outcome::kAccepted)};
  for (auto& r : f.results) {
    if (r.encoded) r.encoded = f.input;  // they re-encode it faithfully: only acceptance differs
  }
  f.divergences = layers::structural::compare(f.root, f.input, f.results);
  f.traits = layers::structural::analyse_input(f.input).names();
  return f;
}

TEST_F(RunFolder, EveryFormatBlamesTheSdksThatBreakTheContractNotTheReference) {
  run::FindingStore store((dir / "findings").string());
  run::Finding f = unsafe_integer_finding();
  ASSERT_EQ(f.divergences.size(), 1u);
  ASSERT_FALSE(f.divergences[0].implementation_defined);
  const std::string id = f.divergences[0].bucket;
  store.write(f);
  RunData run = load_run(dir.string());
  const Bucket& b =
      *std::find_if(run.buckets.begin(), run.buckets.end(), [&](const Bucket& x) { return x.id == id; });
  EXPECT_EQ(b.blame.deviating, (std::vector<std::string>{"python", "rust"}));
  EXPECT_EQ(b.blame.basis, verdict::Basis::kReference);
  // The implementation-defined planted bucket is decided by majority, and says so.
  const Bucket& idef = *std::find_if(run.buckets.begin(), run.buckets.end(),
                                     [](const Bucket& x) { return x.id == "bad0000000000002"; });
  EXPECT_EQ(idef.blame.basis, verdict::Basis::kMajority);
  EXPECT_EQ(idef.blame.deviating, std::vector<std::string>{"python"});

  std::string jsonl = buckets_jsonl(run);
  std::string line = jsonl.substr(jsonl.find("{\"bucket\":\"" + id + "\""));
  line = line.substr(0, line.find('\n'));
  EXPECT_NE(
      line.find(
          "\"deviating\":[\"python\",\"rust\"],\"blameBasis\":\"reference\",\"blameReference\":\"cpp\","),
      std::string::npos)
      << line;
  EXPECT_NE(jsonl.find("\"blameBasis\":\"majority\",\"blameReference\":\"\""), std::string::npos) << jsonl;
  std::string xml = junit_report(run);
  EXPECT_NE(xml.find(id + " on content_upload_receipt (python,rust deviates, by reference)"),
            std::string::npos);
  EXPECT_NE(xml.find("deviating: python rust (basis reference: differs from the reference cpp)"),
            std::string::npos);
  EXPECT_NE(xml.find("(python deviates, by majority)"), std::string::npos);
  std::string md = markdown_report(run);
  EXPECT_NE(md.find("`content_upload_receipt`: `python`, `rust` deviates (`reference`)"), std::string::npos)
      << md;
  EXPECT_NE(md.find("Blame: basis `reference`, `differs from the reference cpp`"), std::string::npos);
  EXPECT_NE(md.find("deviates (`majority`)"), std::string::npos);
  std::string html = html_report(run);
  EXPECT_NE(html.find("deviating: <b>python</b>, <b>rust</b> (basis <span class=\"basis\">reference</span>: "
                      "differs from the reference cpp)"),
            std::string::npos);
  EXPECT_NE(html.find("<small class=\"basis\">by majority, reference</small>"), std::string::npos);

  // A baseline entry that says the reference is wrong moves the blame, in every format.
  write(dir / "decoder-wrong.json",
        R"({"format":"crosscheck-baseline/1","entries":[{"id":"decoder-wrong","implementations":["cpp"],)"
        R"("bucket":"*big-number-in-typed-slot*","referenceWrong":true,"reason":"r","link":"l"}]})");
  LoadOptions with;
  with.baseline = (dir / "decoder-wrong.json").string();
  run = load_run(dir.string(), with);
  const Bucket& moved =
      *std::find_if(run.buckets.begin(), run.buckets.end(), [&](const Bucket& x) { return x.id == id; });
  EXPECT_TRUE(moved.known);
  EXPECT_TRUE(moved.reference_wrong);
  EXPECT_EQ(moved.blame.deviating, std::vector<std::string>{"cpp"});
  EXPECT_EQ(moved.blame.basis, verdict::Basis::kReferenceWrong);
  EXPECT_NE(buckets_jsonl(run).find("\"deviating\":[\"cpp\"],\"blameBasis\":\"reference-wrong\""),
            std::string::npos);
  EXPECT_NE(junit_report(run).find("(cpp deviates, by reference-wrong)"), std::string::npos);
  EXPECT_NE(markdown_report(run).find("`cpp` deviates (`reference-wrong`)"), std::string::npos);
  EXPECT_NE(
      html_report(run).find("deviating: <b>cpp</b> (basis <span class=\"basis\">reference-wrong</span>"),
      std::string::npos);
  // The same through the check recorded in the folder (what fuzz --baseline and the CI scripts leave).
  write(dir / "baseline-check.json",
        recorded_check("gone.json",
                       {"\"bucket\":\"" + id + "\",\"entries\":[\"decoder-wrong\"],\"referenceWrong\":true"},
                       {"\"bucket\":\"c0ffee0000000001\"", "\"bucket\":\"bad0000000000002\""}, {}));
  run = load_run(dir.string());
  EXPECT_EQ(run.baseline_origin, "baseline-check.json");
  const Bucket& recorded =
      *std::find_if(run.buckets.begin(), run.buckets.end(), [&](const Bucket& x) { return x.id == id; });
  EXPECT_EQ(recorded.blame.deviating, std::vector<std::string>{"cpp"});
  EXPECT_EQ(recorded.blame.basis, verdict::Basis::kReferenceWrong);
}

TEST(ReportEventLog, AppendsWholeLinesAndContinuesTime) {
  fs::path p = fs::temp_directory_path() / ("crosscheck-events-" + std::to_string(::getpid()) + ".jsonl");
  fs::remove(p);
  write(p, "{\"t\":41.5,\"event\":\"progress\"}\n{\"t\":42,\"event\":\"end\"}\n{\"t\":43,\"ev");  // killed
                                                                                                  // mid-line
  {
    EventLog log(p.string());
    EXPECT_GE(log.elapsed(), 42.0);  // continues from the last complete line
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) {
      threads.emplace_back([&log, k] {
        for (int i = 0; i < 300; ++i) {
          json::Value f = json::Value::object();
          f.add("thread", json::Value::number(std::to_string(k)));
          f.add("pad", json::Value::string(std::string(static_cast<std::size_t>(i), 'x')));
          ASSERT_TRUE(log.append("progress", f));
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(log.error(), "");
  }
  EventFile read = read_events(p.string());
  EXPECT_EQ(read.skipped, 1u);  // only the cut line, which the reopen terminated
  EXPECT_FALSE(read.partial_last_line);
  ASSERT_EQ(read.events.size(), 2u + 1200u);
  EXPECT_GE(read.events.back().t, 42.0);
  EXPECT_EQ(EventLog::last_time(p.string()), read.events.back().t);
  EventLog later(p.string(), 1000.0);  // a larger saved elapsed time wins
  EXPECT_GE(later.elapsed(), 1000.0);
  fs::remove(p);
}

}  // namespace
}  // namespace crosscheck::report
