// Tests of the protocol codec: request lines, and what the harness accepts or refuses in answers.
#include <gtest/gtest.h>

#include "core/impl_result.hpp"
#include "exec/protocol_codec.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "json/write.hpp"
#include "util/base64.hpp"

namespace crosscheck::exec::protocol {

using core::Diag;
using core::Outcome;

namespace {

json::Value parsed(std::string_view text) {
  auto v = json::parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? v.value() : json::Value();
}

std::string error_of(std::string_view answer) {
  auto r = parse_decode_answer(parsed(answer));
  return r.ok() ? "(accepted)" : r.error();
}

TEST(ProtocolCodec, RequestsAreOneJsonLineEach) {
  std::string input("{\"a\":\"\xc3\xa9\"}\n\0x", 13);
  std::string line = decode_request(42, "intercept_request", input);
  ASSERT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  json::Value v = parsed(std::string_view(line).substr(0, line.size() - 1));
  EXPECT_EQ(v.find("op")->string_value(), "decode");
  EXPECT_EQ(v.find("id")->number_text(), "42");
  EXPECT_EQ(v.find("root")->string_value(), "intercept_request");
  EXPECT_EQ(base64_decode(v.find("input")->string_value()), input);

  json::Value bench = parsed(bench_request(7, "r\"x", "{}", 1000));
  EXPECT_EQ(bench.find("op")->string_value(), "bench");
  EXPECT_EQ(bench.find("root")->string_value(), "r\"x");
  EXPECT_EQ(bench.find("iterations")->number_text(), "1000");
  json::Value bench_validate = parsed(bench_validate_request(8, "intercept-request", "{\"a\":1}", 20));
  EXPECT_EQ(bench_validate.find("op")->string_value(), "bench");
  EXPECT_EQ(bench_validate.find("document")->string_value(), "intercept-request");
  EXPECT_EQ(bench_validate.find("root"), nullptr);
  EXPECT_EQ(base64_decode(bench_validate.find("input")->string_value()), "{\"a\":1}");
  EXPECT_EQ(bench_validate.find("iterations")->number_text(), "20");
  // Both spellings of the request are the bench request of the shipped schema.
  for (const json::Value* request : {&bench, &bench_validate})
    EXPECT_FALSE(json::shipped_schema("adapter-bench.schema.json").validate(*request))
        << json::write(*request);
  EXPECT_TRUE(json::shipped_schema("adapter-bench.schema.json")
                  .validate(parsed(R"({"op":"bench","id":1,"input":"e30=","iterations":5})")))
      << "a bench request with neither root nor document";
  EXPECT_EQ(parsed(hello_request()).find("protocol")->number_text(), "1");
  EXPECT_EQ(parsed(shutdown_request()).find("op")->string_value(), "shutdown");
}

TEST(ProtocolCodec, HelloGivesIdentity) {
  auto id = parse_hello(
      R"({"op":"hello","protocol":1,"implementation":{"name":"py","language":"python","version":"0.10.1",)"
      R"("languageVersion":"3.11","os":"linux"},"lock":{"k":1},"schemaBundle":"/x/schemas.json",)"
      R"("roots":["a","b"],"reportsWarnings":false})",
      1 << 20);
  ASSERT_TRUE(id.ok()) << id.error();
  EXPECT_EQ(id->reported_name, "py");
  EXPECT_EQ(id->language, "python");
  EXPECT_EQ(id->version, "0.10.1");
  EXPECT_EQ(id->language_version, "3.11");
  EXPECT_EQ(id->os, "linux");
  EXPECT_TRUE(id->lock && id->lock->contains("k"));
  EXPECT_EQ(id->schema_bundle, "/x/schemas.json");
  EXPECT_EQ(id->roots, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(id->reports_warnings);
  EXPECT_TRUE(id->name.empty());
}

// parse_hello is the one definition of a hello reply: schemas/adapter-hello.schema.json, and sorted roots.
TEST(ProtocolCodec, HelloProblemsAreNamed) {
  auto error = [](std::string_view line) {
    auto r = parse_hello(line, 1 << 20);
    return r.ok() ? std::string("(accepted)") : r.error();
  };
  const std::string impl = R"("implementation":{"name":"n","language":"l","version":"v"})";
  const std::string rest = R"(,"lock":null,"schemaBundle":null)";
  const std::string schema = " (schemas/adapter-hello.schema.json)";
  EXPECT_EQ(error(R"({"op":"hello","protocol":2,)" + impl + rest + R"(,"roots":[]})"),
            "protocol 2 (expected 1)");
  EXPECT_EQ(error(R"({"op":"hello","protocol":"1",)" + impl + rest + R"(,"roots":[]})"),
            "protocol \"1\" (expected 1)");
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,"error":"too old"})"), "hello refused: too old");
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + "}"),
            "hello breaks its schema at /roots: required field is missing" + schema);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,"roots":[])" + rest + "}"),
            "hello breaks its schema at /implementation: required field is missing" + schema);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,"implementation":{"name":"n","language":"l"},"roots":[])" +
                  rest + "}"),
            "hello breaks its schema at /implementation/version: required field is missing" + schema);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + R"(,"roots":[],"lock":[],"schemaBundle":null})")
                .rfind("hello breaks its schema at /lock: ", 0),
            0u);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":[],"reportsWarnings":"no"})"),
            "hello breaks its schema at /reportsWarnings: expected a boolean, got string" + schema);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":[],"extra":true})")
                .rfind("hello breaks its schema at /extra: unknown field", 0),
            0u);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + R"(,"roots":[]})"),
            "hello breaks its schema at /lock: required field is missing" + schema);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":["Intercept"]})")
                .rfind("hello breaks its schema at /roots/0: expected a string matching", 0),
            0u);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":["b","a"]})"),
            "hello's roots are not sorted: \"b\" before \"a\"");
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":["a","a"]})")
                .rfind("hello breaks its schema at /roots/1: expected unique items", 0),
            0u);
  EXPECT_EQ(
      error(R"({"op":"hello","protocol":1,)" + impl + R"(,"lock":null,"schemaBundle":"rel/x","roots":[]})")
          .rfind("hello breaks its schema at /schemaBundle: ", 0),
      0u);
  EXPECT_EQ(error(R"({"op":"hi"})"), "garbage hello (no \"op\":\"hello\"): {\"op\":\"hi\"}");
  EXPECT_EQ(error("Loading SDK...").rfind("garbage hello (", 0), 0u);
  EXPECT_EQ(error(R"({"op":"hello","protocol":1,)" + impl + rest + R"(,"roots":[]})"), "(accepted)");
}

// Every answer line the harness may see, held to schemas/adapter-answer.schema.json.
TEST(ProtocolCodec, AnswerSchema) {
  auto problem = [](std::string_view text) {
    auto p = schema_problem(Line::kDecodeAnswer, parsed(text));
    return p ? *p : std::string("(conforms)");
  };
  const std::string none = R"("encoded":null,"encodeError":null)";
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":"e30=","encodeError":null,"message":null})"),
      "(conforms)");
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":null,"encodeError":"x","message":null})"),
      "(conforms)");
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"rejected","diagnostics":[{"path":"","code":"invalid_json","severity":"error"}],)" +
          none + R"(,"message":null})"),
      "(conforms)");
  EXPECT_EQ(
      problem(R"({"id":null,"outcome":"error","diagnostics":[],)" + none + R"(,"message":"bad request: x"})"),
      "(conforms)");
  // Each rule of the schema, broken once.
  EXPECT_NE(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":"e30=","encodeError":"x","message":null})")
          .find("exactly one of encoded and encodeError"),
      std::string::npos);
  EXPECT_NE(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[{"path":"","code":"invalid_json","severity":"error"}],)"
          R"("encoded":"e30=","encodeError":null,"message":null})")
          .find("no error diagnostic"),
      std::string::npos);
  EXPECT_NE(problem(R"({"id":1,"outcome":"rejected","diagnostics":[],)" + none + R"(,"message":null})")
                .find("a rejected answer to carry an error diagnostic"),
            std::string::npos);
  EXPECT_NE(
      problem(
          R"({"id":1,"outcome":"rejected","diagnostics":[],"encoded":"e30=","encodeError":null,"message":"m"})")
          .find("encoded and encodeError to be null"),
      std::string::npos);
  EXPECT_NE(problem(R"({"id":1,"outcome":"error","diagnostics":[],)" + none + R"(,"message":null})")
                .find("an error answer to carry a message"),
            std::string::npos);
  EXPECT_NE(
      problem(
          R"({"id":1,"outcome":"unsupported","diagnostics":[{"path":"","code":"invalid_json","severity":"warning"}],)" +
          none + R"(,"message":null})")
          .find("no diagnostics when the outcome is unsupported"),
      std::string::npos);
  EXPECT_NE(problem(R"({"id":null,"outcome":"error","diagnostics":[],)" + none + R"(,"message":"oops"})")
                .find("id null to be outcome error"),
            std::string::npos);
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"rejected","diagnostics":[{"path":"","code":"nope","severity":"error"}],)" +
          none + R"(,"message":null})")
          .rfind("at /diagnostics/0/code: expected one of", 0),
      0u);
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":7,"encodeError":null,"message":null})")
          .rfind("at /encoded: expected a string or null", 0),
      0u);
  EXPECT_EQ(
      problem(
          R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":"e30=","encodeError":null,"message":null,"x":1})")
          .rfind("at /x: unknown field", 0),
      0u);
  // The refusal and the bench reply have schemas of their own.
  EXPECT_FALSE(schema_problem(Line::kHelloRefusal,
                              parsed(R"({"op":"hello","protocol":1,"error":"unsupported protocol 9"})")));
  EXPECT_TRUE(schema_problem(Line::kHelloRefusal, parsed(R"({"op":"hello","protocol":1,"error":"no"})")));
  EXPECT_FALSE(schema_problem(Line::kBenchReply, parsed(R"({"id":1,"nanos":5})")));
  EXPECT_FALSE(schema_problem(Line::kBenchReply, parsed(R"({"id":1,"nanos":null,"message":"why"})")));
  EXPECT_TRUE(schema_problem(Line::kBenchReply, parsed(R"({"id":1,"nanos":null})")));
}

TEST(ProtocolCodec, DecodeAnswers) {
  auto ok = parse_decode_answer(parsed(
      R"({"id":3,"outcome":"accepted","diagnostics":[{"path":"/a","code":"unknown_enum","severity":"warning"}],)"
      R"("encoded":"eyJhIjoxfQ==","encodeError":null,"message":null})"));
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->outcome, Outcome::kAccepted);
  EXPECT_EQ(ok->encoded, "{\"a\":1}");
  EXPECT_EQ(ok->diagnostics, (std::vector<Diag>{{"/a", "unknown_enum", "warning"}}));
  EXPECT_FALSE(ok->message.has_value());

  auto encode_failed = parse_decode_answer(parsed(
      R"({"id":3,"outcome":"accepted","diagnostics":[],"encoded":null,"encodeError":"boom","message":null})"));
  ASSERT_TRUE(encode_failed.ok());
  EXPECT_FALSE(encode_failed->encoded.has_value());
  EXPECT_EQ(encode_failed->encode_error, "boom");

  // Well-formed answers with one thing changed.
  const std::string rest = R"("encoded":null,"encodeError":null,"message":null})";
  EXPECT_EQ(error_of(R"({"id":1,"diagnostics":[],)" + rest), "answer lacks \"outcome\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"crash","diagnostics":[],)" + rest), "unknown outcome \"crash\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":1,"diagnostics":[],)" + rest), "\"outcome\" must be a string");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected",)" + rest), "answer lacks \"diagnostics\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected","diagnostics":{},)" + rest),
            "\"diagnostics\" must be an array");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected","diagnostics":[{"path":"","code":"x"}],)" + rest)
                .rfind("a diagnostic needs string path, code and severity", 0),
            0u);
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected","diagnostics":[]})"), "answer lacks \"encoded\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected","diagnostics":[],"encoded":null,"encodeError":null})"),
            "answer lacks \"message\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":"e30","encodeError":null,)"
                     R"("message":null})"),
            "\"encoded\" is not valid base64: e30");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":5,"encodeError":null,)"
                     R"("message":null})"),
            "\"encoded\" must be a string or null");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"accepted","diagnostics":[],)" + rest),
            "accepted needs exactly one of \"encoded\" and \"encodeError\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"accepted","diagnostics":[],"encoded":"e30=","encodeError":"x",)"
                     R"("message":null})"),
            "accepted needs exactly one of \"encoded\" and \"encodeError\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"rejected","diagnostics":[],"encoded":"e30=","encodeError":null,)"
                     R"("message":null})"),
            "\"encoded\" and \"encodeError\" must be null when the outcome is rejected");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"error","diagnostics":[],)" + rest),
            "outcome error needs a \"message\"");
  EXPECT_EQ(error_of(R"({"id":1,"outcome":"error","diagnostics":[],"encoded":null,"encodeError":null,)"
                     R"("message":["x"]})"),
            "\"message\" must be a string or null");
  // Values are the comparator's business: an unknown code or severity passes through.
  auto odd = parse_decode_answer(
      parsed(R"({"id":1,"outcome":"rejected","diagnostics":[{"path":"/a","code":"new_code",)"
             R"("severity":"fatal"}],)" +
             rest));
  ASSERT_TRUE(odd.ok()) << odd.error();
  EXPECT_EQ(odd->diagnostics, (std::vector<Diag>{{"/a", "new_code", "fatal"}}));
}

TEST(ProtocolCodec, Ids) {
  EXPECT_EQ(answer_id(parsed(R"({"id":18446744073709551615})")), 18446744073709551615ull);
  EXPECT_EQ(answer_id(parsed(R"({"id":18446744073709551616})")), std::nullopt);
  EXPECT_EQ(answer_id(parsed(R"({"id":-1})")), std::nullopt);
  EXPECT_EQ(answer_id(parsed(R"({"id":1.0})")), std::nullopt);
  EXPECT_EQ(answer_id(parsed(R"({"id":"1"})")), std::nullopt);
  EXPECT_EQ(answer_id(parsed(R"([1])")), std::nullopt);

  EXPECT_EQ(sniff_id(R"({"id": 42, "outcome":"accepted","encoded":"AAAA)"), 42u);
  EXPECT_EQ(sniff_id(R"({"outcome":"accepted","id":7,"encoded":"AAAA)"), 7u);
  EXPECT_EQ(sniff_id(R"({"id":12)"), std::nullopt);  // the digits may continue past the prefix
  EXPECT_EQ(sniff_id(R"({"x":1})"), std::nullopt);
  EXPECT_EQ(sniff_id(R"({"id":"3",)"), std::nullopt);
}

TEST(ProtocolCodec, BenchAnswers) {
  auto nanos = [](std::string_view text) { return parse_bench_answer(parsed(text)); };
  ASSERT_TRUE(nanos(R"({"id":1,"nanos":5000})").ok());
  EXPECT_EQ(nanos(R"({"id":1,"nanos":5000})").value(), std::optional<std::uint64_t>(5000));
  EXPECT_EQ(nanos(R"({"id":1,"nanos":null,"message":"no"})").value(), std::nullopt);
  EXPECT_EQ(nanos(R"({"id":1,"outcome":"error","message":"unknown op"})").value(), std::nullopt);
  EXPECT_FALSE(nanos(R"({"id":1,"nanos":-3})").ok());
  EXPECT_FALSE(nanos(R"({"id":1})").ok());
}

TEST(ProtocolCodec, ValidateAnswersAreJudgedAsTheirSchemaJudgesThem) {
  // parse_validate_answer checks plain answers by hand and leaves the rest to the schema: either
  // way it must take exactly what schemas/adapter-validate.schema.json #/$defs/reply takes.
  struct Case {
    const char* answer;
    bool conforms;
  };
  const Case cases[] = {
      {R"({"id":1,"outcome":"valid","errors":[],"message":null})", true},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/a/0","keyword":"type"},{"path":""}],"message":"x"})",
       true},
      {R"({"message":null,"errors":[{"path":"/a~0b~1c"}],"outcome":"invalid","id":7})", true},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/\u00e9/\ud800"}],"message":null})", true},
      {R"({"id":null,"outcome":"error","errors":[],"message":"bad request: no id"})", true},
      {R"({"id":1,"outcome":"unsupported","errors":[],"message":"no such document"})", true},
      {R"({"id":1.0,"outcome":"valid","errors":[],"message":null})", true},
      {R"({"id":1,"outcome":"valid","errors":[{"path":"/a"}],"message":null})", false},
      {R"({"id":1,"outcome":"error","errors":[],"message":null})", false},
      {R"({"id":null,"outcome":"error","errors":[],"message":"oops"})", false},
      {R"({"id":null,"outcome":"valid","errors":[],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"a"}],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/~2"}],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/a~"}],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/a","keyword":""}],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"path":"/a","line":3}],"message":null})", false},
      {R"({"id":1,"outcome":"invalid","errors":[{"keyword":"type"}],"message":null})", false},
      {R"({"id":1,"outcome":"valid","errors":[],"message":null,"extra":1})", false},
      {R"({"id":1,"outcome":"valid","errors":[]})", false},
      {R"({"id":"1","outcome":"valid","errors":[],"message":null})", false},
      {R"({"id":-1,"outcome":"valid","errors":[],"message":null})", true},
      {R"({"id":1,"outcome":"maybe","errors":[],"message":null})", false},
      {R"({"id":1,"outcome":"valid","errors":{},"message":null})", false},
      {R"({"id":1,"outcome":"valid","errors":[],"message":5})", false},
  };
  for (const Case& c : cases) {
    json::Value v = parsed(c.answer);
    auto problem = schema_problem(Line::kValidateAnswer, v);
    EXPECT_EQ(!problem.has_value(), c.conforms) << c.answer << ": " << problem.value_or("(conforms)");
    auto r = parse_validate_answer(v);
    EXPECT_EQ(r.ok(), c.conforms) << c.answer << ": " << (r.ok() ? std::string("(accepted)") : r.error());
    if (!r.ok() && problem) {
      EXPECT_EQ(r.error(), "breaks its schema " + *problem);
    }
  }
}

TEST(ProtocolCodec, ExcerptEscapesAndCuts) {
  EXPECT_EQ(excerpt("a\x01\xff", 10), "a\\x01\\xff");
  EXPECT_EQ(excerpt(std::string(200, 'x'), 5), "xxxxx... (200 bytes)");
}

}  // namespace
}  // namespace crosscheck::exec::protocol
