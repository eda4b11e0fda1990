// python_writer.cpp: the Python reproducer, one file with a pytest-compatible test function and a
// __main__, calling what adapters/python/adapter.py calls on its text path.
#include <sstream>

#include "repro/detail/writer.hpp"

namespace crosscheck::repro::detail {
namespace {

std::string pairs_literal(const std::vector<core::Diag>& diagnostics) {
  std::string s = "[";
  for (std::size_t i = 0; i < diagnostics.size(); ++i)
    s += (i ? ", (" : "(") + python_string(diagnostics[i].code) + ", " + python_string(diagnostics[i].path) +
         ")";
  return s + "]";
}

bool uses(const Plan& plan, Check::Kind kind) {
  for (const auto& c : plan.checks)
    if (c.kind == kind) return true;
  return false;
}

}  // namespace

std::vector<OutputFile> write_python(const Plan& plan, const SdkInfo& sdk) {
  const bool canonical = has_canonical(plan), structural = has_structural(plan);
  const bool round_trip = uses(plan, Check::Kind::kRoundTrip) || uses(plan, Check::Kind::kEncodesAs);
  const bool diagnostics = uses(plan, Check::Kind::kWarnings) || uses(plan, Check::Kind::kErrors);
  std::ostringstream o;
  for (const auto& line : header_lines(plan, sdk)) o << "# " << line << "\n";
  o << "# Run: python THIS_FILE (exit 0: the SDK answers as the reference), or pytest THIS_FILE.\n";
  o << "import base64\n";
  if (round_trip) o << "import json\nfrom decimal import Decimal\n";
  o << "\n";
  if (structural) o << "import agenthooksprotocol.generated as generated\n";
  if (canonical)
    o << "import agenthooksprotocol.interop as interop\nimport agenthooksprotocol.runtime as runtime\n";
  o << "\n# The witness's exact bytes (hostile input: never evaluated, only handed to the SDK as text).\n";
  o << "WITNESS = base64.b64decode(\n";
  for (const auto& chunk : base64_chunks(plan.input)) o << "    \"" << chunk << "\"\n";
  o << ")\n";
  if (canonical) o << "DOCUMENT = " << python_string(plan.document) << "\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    if (plan.checks[i].kind != Check::Kind::kEncodesAs) continue;
    o << "REFERENCE_ENCODING_" << i << " = base64.b64decode(\n";
    for (const auto& chunk : base64_chunks(plan.checks[i].encoded)) o << "    \"" << chunk << "\"\n";
    o << ").decode(\"utf-8\", \"surrogatepass\")\n";
  }
  if (canonical) {
    o << "\n\ndef canonical_verdict(text):\n"
         "    \"\"\"The SDK's canonical verdict as its adapter reads it: its wire reader, then its "
         "validator;\n"
         "    any other exception is the SDK failing, and fails the test.\"\"\"\n"
         "    try:\n"
         "        value = interop.loads(text)\n"
         "    except (ValueError, RecursionError):\n"
         "        return \"invalid\"\n"
         "    try:\n"
         "        runtime.Validator().validate(DOCUMENT, value)\n"
         "    except runtime.ProtocolError:\n"
         "        return \"invalid\"\n"
         "    return \"valid\"\n";
  }
  if (diagnostics) {
    o << "\n\ndef diagnostics(result, severity):\n"
         "    return sorted((d[\"code\"], d[\"path\"]) for d in result[\"diagnostics\"] if d[\"severity\"] "
         "== severity)\n";
  }
  if (round_trip) {
    o << "\n\ndef same_value(a, b):\n"
         "    \"\"\"Semantic equality: objects as maps, arrays in order, numbers as exact decimals.\"\"\"\n"
         "    return json.loads(a, parse_float=Decimal) == json.loads(b, parse_float=Decimal)\n";
  }
  const std::string name = "test_" + test_name(plan);
  o << "\n\ndef " << name << "():\n";
  o << "    text = WITNESS.decode(\"utf-8\")\n";
  if (structural) o << "    result = generated.parse_" << plan.root << "(text)\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    const Check& c = plan.checks[i];
    const std::string message = python_string(assertion_message(plan, c));
    o << "    # bucket " << comment_text(c.bucket) << ": " << c.layer << " " << c.cls << "\n";
    switch (c.kind) {
      case Check::Kind::kOutcome:
        o << "    assert " << (c.expect ? "" : "not ") << "result[\"ok\"], " << message << "\n";
        break;
      case Check::Kind::kParsed:
        o << "    parsed = not any(d[\"code\"] == \"invalid_json\" and d[\"severity\"] == \"error\"\n"
             "                     for d in result[\"diagnostics\"])\n";
        o << "    assert " << (c.expect ? "" : "not ") << "parsed, " << message << "\n";
        break;
      case Check::Kind::kWarnings:
        o << "    assert diagnostics(result, \"warning\") == " << pairs_literal(c.diagnostics) << ", "
          << message << "\n";
        break;
      case Check::Kind::kErrors:
        o << "    assert sorted(set(diagnostics(result, \"error\"))) == " << pairs_literal(c.diagnostics)
          << ", " << message << "\n";
        break;
      case Check::Kind::kRoundTrip:
      case Check::Kind::kEncodesAs:
        o << "    assert result[\"ok\"], " << message << "\n";
        o << "    encoded = generated.encode_" << plan.root << "(result[\"value\"])\n";
        o << "    assert same_value(encoded, "
          << (c.kind == Check::Kind::kRoundTrip ? std::string("text")
                                                : "REFERENCE_ENCODING_" + std::to_string(i))
          << "), " << message << "\n";
        break;
      case Check::Kind::kVerdict:
        o << "    assert canonical_verdict(text) == " << (c.expect ? "\"valid\"" : "\"invalid\"") << ", "
          << message << "\n";
        break;
      case Check::Kind::kContextualAnswer:
      case Check::Kind::kContextualKeys:
        break;  // layer 3: write_python_contextual
    }
  }
  o << "\n\nif __name__ == \"__main__\":\n";
  o << "    " << name << "()\n";
  o << "    print(" << python_string("passed: " + sdk.name + " answers as the reference " + plan.reference)
    << ")\n";
  return {OutputFile{name + ".py", o.str()}};
}

}  // namespace crosscheck::repro::detail

namespace crosscheck::repro::detail {

std::vector<OutputFile> write_python_contextual(const Plan& plan, const SdkInfo& sdk) {
  std::ostringstream o;
  for (const auto& line : header_lines(plan, sdk)) o << "# " << line << "\n";
  o << "# Run: python THIS_FILE (exit 0: the client answers as the reference host), or pytest THIS_FILE.\n";
  o << "import base64\nimport json\nimport os\nimport subprocess\nimport sys\nimport tempfile\n"
       "from decimal import Decimal\n\n";
  o << "# The row's exact bytes are the scenario file beside this one: data, read only by the SDK.\n";
  o << "SCENARIO_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), \"scenario.json\")\n";
  o << "ROW_ID = " << python_string(plan.scenario_id) << "\n";
  o << "INTEROP = [sys.executable, \"-m\", \"agenthooksprotocol.interop\"]\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    if (plan.checks[i].kind != Check::Kind::kContextualKeys) continue;
    o << "# What the reference host derived, as JSON text (base64).\n";
    o << "REFERENCE_RESULT_" << i << " = json.loads(base64.b64decode(\n";
    for (const auto& chunk : base64_chunks(plan.checks[i].encoded)) o << "    \"" << chunk << "\"\n";
    o << ").decode(\"utf-8\"), parse_float=Decimal)\n";
  }
  o << R"PY(

def report_row():
    """The SDK's interop client against the SDK's own interop server on the one-row file: its report row."""
    with tempfile.TemporaryDirectory() as work:
        server = os.path.join(work, "server.json")
        client = os.path.join(work, "client.json")
        report = os.path.join(work, "report.json")
        with open(server, "w") as f:
            json.dump({"transport": "stdio", "scenarioFile": SCENARIO_FILE,
                       "readinessFile": os.path.join(work, "ready.json"), "auth": {"mode": "none"}}, f)
        with open(client, "w") as f:
            json.dump({"transport": "stdio", "serverCommand": INTEROP + ["server"], "serverConfig": server,
                       "scenarioFile": SCENARIO_FILE, "reportFile": report, "auth": {"mode": "none"}}, f)
        run = subprocess.run(INTEROP + ["client", "--config", client], capture_output=True, timeout=120)
        assert os.path.exists(report), "the interop client wrote no report: %r" % run.stderr[-2000:]
        with open(report) as f:
            rows = [r for r in json.load(f, parse_float=Decimal)["results"] if r.get("id") == ROW_ID]
    assert len(rows) == 1, "the report has no single row %r" % ROW_ID
    return rows[0]


def answer(row):
    """derived, rejected or none, as crosscheck's scenario verdict reads a report row."""
    if row["status"] not in ("passed", "failed"):
        return "none"
    actual = row["actual"]
    if actual is None or actual == {"rejected": True} or not isinstance(actual, dict):
        return "rejected"
    return "derived"
)PY";
  const std::string name = "test_" + test_name(plan);
  o << "\n\ndef " << name << "():\n    row = report_row()\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    const Check& c = plan.checks[i];
    const std::string message = python_string(assertion_message(plan, c));
    o << "    # bucket " << comment_text(c.bucket) << ": " << c.layer << " " << c.cls << "\n";
    if (c.kind == Check::Kind::kContextualAnswer) {
      o << "    assert answer(row) == " << (c.expect ? "\"derived\"" : "\"rejected\"") << ", " << message
        << "\n";
    } else {
      o << "    assert answer(row) == \"derived\", " << message << "\n";
      for (const auto& key : c.keys)
        o << "    assert row[\"actual\"].get(" << python_string(key) << ") == REFERENCE_RESULT_" << i
          << ".get(" << python_string(key) << "), " << message << "\n";
    }
  }
  o << "\n\nif __name__ == \"__main__\":\n    " << name << "()\n";
  o << "    print("
    << python_string("passed: " + sdk.name + " answers as the reference host " + plan.reference) << ")\n";
  // The row's bytes as they were, in a scenario file of one row (docs/scenarios.md, version 1).
  return {OutputFile{name + ".py", o.str()},
          OutputFile{"scenario.json", "{\"version\":1,\"scenarios\":[" + plan.input + "]}\n"}};
}

}  // namespace crosscheck::repro::detail
