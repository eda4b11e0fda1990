// go_ts_writer.cpp: the Go and TypeScript reproducers, layer 1 only, calling what adapters/go/main.go
// (ahp.Parse<Root>([]byte), ahp.Encode<Root>) and adapters/typescript/adapter.mjs (parse<Root>(text),
// encode<Root> of the package's "./generated" export) call on their text paths. Neither SDK has a
// checkout here, so these are written from the adapters alone; the header says when that is so.
#include <sstream>

#include "repro/detail/writer.hpp"

namespace crosscheck::repro::detail {
namespace {

/// content_upload_receipt -> ContentUploadReceipt (the adapters' snake_case of the SDKs' names, inverted).
std::string pascal(const std::string& root) {
  std::string out;
  bool up = true;
  for (char c : root) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    up = false;
  }
  return out;
}

std::string go_pairs(const std::vector<core::Diag>& diagnostics) {
  std::string s = "[][2]string{";
  for (std::size_t i = 0; i < diagnostics.size(); ++i)
    s += (i ? ", {" : "{") + go_string(diagnostics[i].code) + ", " + go_string(diagnostics[i].path) + "}";
  return s + "}";
}

std::string js_pairs(const std::vector<core::Diag>& diagnostics) {
  std::string s = "[";
  for (std::size_t i = 0; i < diagnostics.size(); ++i)
    s += (i ? ", [" : "[") + js_string(diagnostics[i].code) + ", " + js_string(diagnostics[i].path) + "]";
  return s + "]";
}

constexpr const char* kGoHelpers = R"GO(
func pairs(diagnostics []ahp.ParseDiagnostic, severity string, distinct bool) [][2]string {
	out := [][2]string{}
	for _, d := range diagnostics {
		if string(d.Severity) == severity {
			out = append(out, [2]string{string(d.Code), d.Path})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	if distinct {
		kept := [][2]string{}
		for i, p := range out {
			if i == 0 || p != out[i-1] {
				kept = append(kept, p)
			}
		}
		out = kept
	}
	return out
}

func refusedAsJSON(diagnostics []ahp.ParseDiagnostic) bool {
	for _, d := range diagnostics {
		if string(d.Code) == "invalid_json" && string(d.Severity) == "error" {
			return true
		}
	}
	return false
}

// same: semantic equality of two JSON texts (objects as maps, arrays in order, numbers as exact decimals).
func same(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return sameValue(x, y)
}

func sameValue(x, y any) bool {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := y.(json.Number)
		ra, oka := new(big.Rat).SetString(string(a))
		rb, okb := new(big.Rat).SetString(string(b))
		return ok && oka && okb && ra.Cmp(rb) == 0
	default:
		return x == y
	}
}
)GO";

}  // namespace

std::vector<OutputFile> write_go(const Plan& plan, const SdkInfo& sdk) {
  const std::string name = pascal(plan.root);
  std::ostringstream mod;
  for (const auto& line : header_lines(plan, sdk)) mod << "// " << line << "\n";
  mod << "// Point the replace at a checkout of the Go SDK (the Go module proxy does not serve it).\n"
      << "module ahprepro\n\ngo 1.22\n\nrequire github.com/agenthooksprotocol/go-sdk "
         "v0.0.0-00010101000000-000000000000\n\n"
      << "replace github.com/agenthooksprotocol/go-sdk => ./go-sdk\n";
  std::ostringstream go;
  for (const auto& line : header_lines(plan, sdk)) go << "// " << line << "\n";
  go << "\npackage ahprepro\n\nimport "
        "(\n\t\"bytes\"\n\t\"encoding/base64\"\n\t\"encoding/json\"\n\t\"math/big\"\n"
        "\t\"reflect\"\n\t\"sort\"\n\t\"testing\"\n\n\tahp \"github.com/agenthooksprotocol/go-sdk\"\n)\n\n";
  go << "// The witness's exact bytes (hostile input: never evaluated, only handed to the SDK).\nconst "
        "witness = \"\" +\n";
  const auto chunks = base64_chunks(plan.input);
  for (std::size_t i = 0; i < chunks.size(); ++i)
    go << "\t\"" << chunks[i] << "\"" << (i + 1 < chunks.size() ? " +" : "") << "\n";
  go << "\nvar _ = reflect.DeepEqual\n" << kGoHelpers;
  go << "\nfunc Test" << name << "_" << plan.finding_id.substr(0, 12) << "(t *testing.T) {\n";
  go << "\tinput, err := base64.StdEncoding.DecodeString(witness)\n\tif err != nil "
        "{\n\t\tt.Fatal(err)\n\t}\n";
  go << "\tresult := ahp.Parse" << name << "(input)\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    const Check& c = plan.checks[i];
    const std::string message = go_string(assertion_message(plan, c));
    go << "\t// bucket " << comment_text(c.bucket) << ": " << c.layer << " " << c.cls << "\n";
    switch (c.kind) {
      case Check::Kind::kOutcome:
        go << "\tif " << (c.expect ? "!" : "") << "result.OK {\n\t\tt.Fatal(" << message << ")\n\t}\n";
        break;
      case Check::Kind::kParsed:
        go << "\tif " << (c.expect ? "" : "!") << "refusedAsJSON(result.Diagnostics) {\n\t\tt.Fatal("
           << message << ")\n\t}\n";
        break;
      case Check::Kind::kWarnings:
      case Check::Kind::kErrors:
        go << "\tif got := pairs(result.Diagnostics, "
           << (c.kind == Check::Kind::kWarnings ? "\"warning\", false" : "\"error\", true")
           << "); !reflect.DeepEqual(got, " << go_pairs(c.diagnostics) << ") {\n\t\tt.Fatalf(\"%s: got %v\", "
           << message << ", got)\n\t}\n";
        break;
      case Check::Kind::kRoundTrip:
      case Check::Kind::kEncodesAs: {
        go << "\tif !result.OK {\n\t\tt.Fatal(" << message << ")\n\t}\n";
        go << "\tif encoded, err := ahp.Encode" << name << "(result.Value); err != nil || !same(encoded, ";
        if (c.kind == Check::Kind::kRoundTrip) {
          go << "input";
        } else {
          go << "[]byte(" << go_string(c.encoded) << ")";
        }
        go << ") {\n\t\tt.Fatalf(\"%s: %v\", " << message << ", err)\n\t}\n";
        break;
      }
      case Check::Kind::kVerdict:
      case Check::Kind::kContextualAnswer:
      case Check::Kind::kContextualKeys:
        break;  // refused before (write_reproducer)
    }
  }
  go << "}\n";
  return {{"go.mod", mod.str()}, {"repro_test.go", go.str()}};
}

std::vector<OutputFile> write_typescript(const Plan& plan, const SdkInfo& sdk) {
  const std::string name = pascal(plan.root);
  std::ostringstream js;
  for (const auto& line : header_lines(plan, sdk)) js << "// " << line << "\n";
  js << "// Run: node --test THIS_FILE, with the SDK's built package resolvable as agenthooksprotocol.\n";
  js << "import { test } from \"node:test\";\nimport assert from \"node:assert/strict\";\n";
  js << "import { parse" << name << ", encode" << name << " } from \"agenthooksprotocol/generated\";\n\n";
  js << "// The witness's exact bytes (hostile input: never evaluated, only handed to the SDK as text).\n";
  js << "const WITNESS = Buffer.from(\n";
  for (const auto& chunk : base64_chunks(plan.input)) js << "  \"" << chunk << "\" +\n";
  js << "  \"\", \"base64\").toString(\"utf8\");\n\n";
  js << "const pairs = (result, severity) => result.diagnostics.filter((d) => d.severity === severity)\n"
        "  .map((d) => [d.code, d.path]).sort((a, b) => (a[0] + \"\\u0000\" + a[1] < b[0] + \"\\u0000\" + "
        "b[1] ? -1 : 1));\n";
  js << "const distinct = (list) => list.filter((p, i) => i === 0 || p[0] !== list[i - 1][0] || p[1] !== "
        "list[i - 1][1]);\n\n";
  js << "test(" << js_string(test_name(plan)) << ", () => {\n";
  js << "  const result = parse" << name << "(WITNESS);\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    const Check& c = plan.checks[i];
    const std::string message = js_string(assertion_message(plan, c));
    js << "  // bucket " << comment_text(c.bucket) << ": " << c.layer << " " << c.cls << "\n";
    switch (c.kind) {
      case Check::Kind::kOutcome:
        js << "  assert.equal(result.ok, " << (c.expect ? "true" : "false") << ", " << message << ");\n";
        break;
      case Check::Kind::kParsed:
        js << "  assert.equal(!pairs(result, \"error\").some(([code]) => code === \"invalid_json\"), "
           << (c.expect ? "true" : "false") << ", " << message << ");\n";
        break;
      case Check::Kind::kWarnings:
        js << "  assert.deepEqual(pairs(result, \"warning\"), " << js_pairs(c.diagnostics) << ", " << message
           << ");\n";
        break;
      case Check::Kind::kErrors:
        js << "  assert.deepEqual(distinct(pairs(result, \"error\")), " << js_pairs(c.diagnostics) << ", "
           << message << ");\n";
        break;
      case Check::Kind::kRoundTrip:
      case Check::Kind::kEncodesAs:
        // JSON.parse reads numbers as doubles: exact only within their precision (unverified here).
        js << "  assert.equal(result.ok, true, " << message << ");\n";
        js << "  assert.deepEqual(JSON.parse(encode" << name << "(result.value)), JSON.parse("
           << (c.kind == Check::Kind::kRoundTrip ? std::string("WITNESS") : js_string(c.encoded)) << "), "
           << message << ");\n";
        break;
      case Check::Kind::kVerdict:
      case Check::Kind::kContextualAnswer:
      case Check::Kind::kContextualKeys:
        break;  // refused before (write_reproducer)
    }
  }
  js << "});\n";
  return {{"repro.test.mjs", js.str()}};
}

}  // namespace crosscheck::repro::detail
