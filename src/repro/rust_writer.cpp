// rust_writer.cpp: the Rust reproducer, a cargo project with one #[test] calling what
// adapters/rust/src/main.rs calls on its text path, its Cargo.toml pinning the crate as the adapter does.
#include <sstream>

#include "repro/detail/writer.hpp"

namespace crosscheck::repro::detail {
namespace {

std::string pairs_literal(const std::vector<core::Diag>& diagnostics) {
  std::string s = "vec![";
  for (std::size_t i = 0; i < diagnostics.size(); ++i)
    s += (i ? ", (" : "(") + rust_string(diagnostics[i].code) + ".to_owned(), " +
         rust_string(diagnostics[i].path) + ".to_owned())";
  return s + "]";
}

std::string chunks_literal(const std::string& bytes, const char* indent) {
  std::string s = "concat!(\n";
  for (const auto& chunk : base64_chunks(bytes)) s += std::string(indent) + "    \"" + chunk + "\",\n";
  return s + indent + ")";
}

constexpr const char* kHelpers = R"RS(
    fn decoded(base64_text: &str) -> String {
        let bytes = STANDARD.decode(base64_text).expect("embedded base64");
        String::from_utf8(bytes).expect("the SDK's parse takes UTF-8 text")
    }

    fn diagnostics<T>(result: &ParseResult<T>, severity: DiagnosticSeverity) -> Vec<(String, String)> {
        let all = match result {
            ParseResult::Success { diagnostics, .. } | ParseResult::Failure { diagnostics, .. } => diagnostics,
        };
        let mut pairs: Vec<(String, String)> = all
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| {
                let code = serde_json::to_value(d.code).ok().and_then(|v| v.as_str().map(str::to_owned));
                (code.unwrap_or_default(), d.path.clone())
            })
            .collect();
        pairs.sort();
        pairs
    }

    /// A number as an exact decimal: sign, digits without leading or trailing zeros, exponent.
    fn decimal_key(text: &str) -> String {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => match rest[at + 1..].parse::<i128>() {
                Ok(exponent) => (&rest[..at], exponent),
                Err(_) => return text.to_owned(),
            },
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{int}{frac}");
        let digits = digits.trim_start_matches('0');
        let trimmed = digits.trim_end_matches('0');
        if trimmed.is_empty() {
            return "0".to_owned();
        }
        let exponent = exponent - frac.len() as i128 + (digits.len() - trimmed.len()) as i128;
        format!("{}{trimmed}e{exponent}", if negative { "-" } else { "" })
    }

    /// Semantic equality: objects as maps, arrays in order, numbers as exact decimals.
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w)),
            (Value::Number(x), Value::Number(y)) => decimal_key(&x.to_string()) == decimal_key(&y.to_string()),
            _ => a == b,
        }
    }

    fn same_value(a: &str, b: &str) -> bool {
        match (serde_json::from_str::<Value>(a), serde_json::from_str::<Value>(b)) {
            (Ok(x), Ok(y)) => same(&x, &y),
            _ => false,
        }
    }
)RS";

constexpr const char* kCanonical = R"RS(
    /// The SDK's canonical verdict as its adapter reads it: serde_json (arbitrary_precision), then
    /// interop::Schemas; a panic is the SDK failing, and fails the test.
    fn canonical_verdict(text: &str) -> &'static str {
        let schemas = agenthooksprotocol::interop::Schemas::bundled().expect("interop::Schemas::bundled()");
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(_) => return "invalid",
        };
        match schemas.validate(DOCUMENT, &value) {
            Ok(()) => "valid",
            Err(_) => "invalid",
        }
    }
)RS";

}  // namespace

std::vector<OutputFile> write_rust(const Plan& plan, const SdkInfo& sdk) {
  const std::string name = test_name(plan);
  const std::string package = "ahp-repro-" + plan.root + "-" + plan.finding_id.substr(0, 12);
  std::vector<std::string> header = header_lines(plan, sdk);

  std::ostringstream toml;
  for (const auto& line : header) toml << "# " << line << "\n";
  toml << "# Run: cargo test --release (the test fails while the SDK deviates).\n"
       << "[package]\nname = \"" << package
       << "\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n"
       << "[lib]\npath = \"src/lib.rs\"\n\n"
       << "# As adapters/rust/Cargo.toml pins them (same crates, versions and features).\n"
       << "[dependencies]\n"
       << "agenthooksprotocol = { version = \"=" << sdk.version << "\", features = [\"interop\"] }\n"
       << "serde_json = { version = \"1\", features = [\"arbitrary_precision\"] }\n"
       << "base64 = \"0.22\"\n"
       << "serde = { version = \"1\", features = [\"derive\"] }\n\n"
       << "# The adapter's release profile: a build in its target folder reuses the compiled crate.\n"
       << "[profile.release]\ndebug = 0\nincremental = false\ncodegen-units = 16\n";

  const bool canonical = has_canonical(plan), structural = has_structural(plan);
  std::ostringstream rs;
  for (const auto& line : header) rs << "// " << line << "\n";
  rs << "#[cfg(test)]\nmod repro {\n";
  rs << "    #![allow(dead_code, unused_imports)]\n";
  rs << "    use agenthooksprotocol::generated::*;\n"
        "    use base64::{Engine, engine::general_purpose::STANDARD};\n"
        "    use serde_json::Value;\n\n";
  rs << "    /// The witness's exact bytes (hostile input: never evaluated, only handed to the SDK as "
        "text).\n";
  rs << "    const WITNESS: &str = " << chunks_literal(plan.input, "    ") << ";\n";
  if (canonical) rs << "    const DOCUMENT: &str = " << rust_string(plan.document) << ";\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    if (plan.checks[i].kind != Check::Kind::kEncodesAs) continue;
    rs << "    const REFERENCE_ENCODING_" << i
       << ": &str = " << chunks_literal(plan.checks[i].encoded, "    ") << ";\n";
  }
  rs << kHelpers;
  if (canonical) rs << kCanonical;
  rs << "\n    #[test]\n    fn " << name << "() {\n";
  rs << "        let text = decoded(WITNESS);\n";
  if (structural) rs << "        let result = parse_" << plan.root << "(&text);\n";
  for (std::size_t i = 0; i < plan.checks.size(); ++i) {
    const Check& c = plan.checks[i];
    const std::string message = rust_string(assertion_message(plan, c));
    rs << "        // bucket " << comment_text(c.bucket) << ": " << c.layer << " " << c.cls << "\n";
    switch (c.kind) {
      case Check::Kind::kOutcome:
        rs << "        assert!(" << (c.expect ? "" : "!") << "result.is_ok(), \"{}\", " << message << ");\n";
        break;
      case Check::Kind::kParsed:
        rs << "        let parsed = !diagnostics(&result, DiagnosticSeverity::Error).iter().any(|(code, _)| "
              "code == "
              "\"invalid_json\");\n";
        rs << "        assert!(" << (c.expect ? "" : "!") << "parsed, \"{}\", " << message << ");\n";
        break;
      case Check::Kind::kWarnings:
        rs << "        assert_eq!(diagnostics(&result, DiagnosticSeverity::Warning), "
           << pairs_literal(c.diagnostics) << ", \"{}\", " << message << ");\n";
        break;
      case Check::Kind::kErrors:
        rs << "        let mut errors = diagnostics(&result, DiagnosticSeverity::Error);\n"
              "        errors.dedup();\n";
        rs << "        assert_eq!(errors, " << pairs_literal(c.diagnostics) << ", \"{}\", " << message
           << ");\n";
        break;
      case Check::Kind::kRoundTrip:
      case Check::Kind::kEncodesAs:
        rs << "        let ParseResult::Success { value, .. } = &result else {\n"
              "            panic!(\"{}\", "
           << message << ");\n        };\n";
        rs << "        let encoded = encode_" << plan.root << "(value).expect(\"encode_" << plan.root
           << "\");\n";
        rs << "        assert!(same_value(&encoded, "
           << (c.kind == Check::Kind::kRoundTrip ? std::string("&text")
                                                 : "&decoded(REFERENCE_ENCODING_" + std::to_string(i) + ")")
           << "), \"{}\", " << message << ");\n";
        break;
      case Check::Kind::kVerdict:
        rs << "        assert_eq!(canonical_verdict(&text), " << (c.expect ? "\"valid\"" : "\"invalid\"")
           << ", \"{}\", " << message << ");\n";
        break;
      case Check::Kind::kContextualAnswer:
      case Check::Kind::kContextualKeys:
        break;  // layer 3: write_python_contextual
    }
  }
  rs << "    }\n}\n";

  std::vector<OutputFile> files{{"Cargo.toml", toml.str()}, {"src/lib.rs", rs.str()}};
  if (!sdk.cargo_lock.empty()) files.push_back({"Cargo.lock", sdk.cargo_lock});
  return files;
}

}  // namespace crosscheck::repro::detail
