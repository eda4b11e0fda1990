// Tests of strict parsing into the lossless tree: what is kept, what is rejected and where.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

Value ok(std::string_view text) {
  auto r = parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message());
  return r.ok() ? r.value() : Value();
}

ParseError bad(std::string_view text, const ParseLimits& limits = {}) {
  auto r = parse(text, limits);
  EXPECT_FALSE(r.ok()) << "accepted: " << text;
  return r.ok() ? ParseError{} : r.error();
}

TEST(JsonParse, KeepsMemberOrderAndDuplicateKeys) {
  Value v = ok(R"({"b":1,"a":2,"b":3})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.members().size(), 3u);
  EXPECT_EQ(v.members()[0].key, "b");
  EXPECT_EQ(v.members()[1].key, "a");
  EXPECT_EQ(v.members()[2].key, "b");
  EXPECT_EQ(v.find("b")->number_text(), "3");  // last wins on look-up
  EXPECT_EQ(write(v), R"({"b":1,"a":2,"b":3})");
}

TEST(JsonParse, KeepsNumberSpelling) {
  for (const char* n : {"0", "-0", "1.0", "1E0", "1e+2", "10E-1", "9007199254740993", "-1.50e-3", "1E400",
                        "123456789012345678901234567890"}) {
    Value v = ok(n);
    ASSERT_TRUE(v.is_number()) << n;
    EXPECT_EQ(v.number_text(), n);
  }
  Value v = ok("[1.0 , 2E3\n]");
  EXPECT_EQ(v.items()[0].number_text(), "1.0");
  EXPECT_EQ(v.items()[1].number_text(), "2E3");
}

TEST(JsonParse, RejectsBadNumbers) {
  for (const char* n : {"01", "1.", "+1", ".5", "-", "1e", "1e+", "NaN", "Infinity", "-Infinity", "0x10",
                        "1.e3", "[01]", "[1.]", "{\"a\":-}", "[2e]"}) {
    bad(n);
  }
}

TEST(JsonParse, DecodesEscapes) {
  Value v = ok(R"("a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20ac\ud83d\ude00")");
  EXPECT_EQ(v.string_value(), "a\"b\\c/d\b\f\n\r\tA\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(JsonParse, KeepsLoneSurrogatesAsWtf8) {
  Value v = ok(R"(["\ud800", "\udc00x", "\ud800\u0041"])");
  EXPECT_EQ(v.items()[0].string_value(), "\xED\xA0\x80");
  EXPECT_EQ(v.items()[1].string_value(), "\xED\xB0\x80x");
  EXPECT_EQ(v.items()[2].string_value(),
            "\xED\xA0\x80"
            "A");
  // And they are written back as escapes, never as raw (invalid UTF-8) bytes.
  EXPECT_EQ(write(v), R"(["\ud800","\udc00x","\ud800A"])");
}

TEST(JsonParse, KeepsRawNonAsciiAndLineSeparators) {
  Value v = ok("\"\xE2\x80\xA8\xC3\xA9\"");
  EXPECT_EQ(v.string_value(), "\xE2\x80\xA8\xC3\xA9");
}

TEST(JsonParse, RejectsBadStrings) {
  bad("\"a\nb\"");  // raw control character
  bad("\"a\tb\"");
  bad(std::string_view("\"a\0b\"", 5));
  bad(R"("\x41")");    // unknown escape
  bad(R"("\u12G4")");  // bad hex
  bad(R"("\u12")");
  bad(R"("abc)");       // unterminated
  bad(R"({"a\q":1})");  // bad escape in a key
}

TEST(JsonParse, RejectsInvalidUtf8WithItsOffset) {
  for (std::string s :
       {std::string("[\"a\xFF\"]"), std::string("[\"a\xC0\xAF\"]"), std::string("[\"a\xED\xA0\x80\"]"),
        std::string("[\"a\xF4\x90\x80\x80\"]"), std::string("[\"a\xE2\x82\"]")}) {
    ParseError e = bad(s);
    EXPECT_EQ(e.offset, 3u) << s;
    EXPECT_EQ(e.expected, "UTF-8 text");
  }
}

TEST(JsonParse, RejectsBomAndTrailingContent) {
  EXPECT_NE(bad("\xEF\xBB\xBF{}").expected.find("byte order mark"), std::string::npos);
  ParseError e = bad("{} x");
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(e.expected, "the end of the input");
  bad("1 2");
  bad("[1] [2]");
  bad("\"a\" \"b\"");
  bad("");
  bad("   ");
}

TEST(JsonParse, RejectsStructuralErrors) {
  for (const char* s : {"[1,]",  "[,1]",         "[1 2]",     "{\"a\":1,}", "{\"a\" 1}",
                        "{a:1}", "{\"a\":}",     "[",         "{",          "]",
                        "}",     "[1}",          "{\"a\":1]", "tru",        "nul",
                        "truex", "[true false]", "{'a':1}",   "\f1",        "1\v"}) {
    bad(s);
  }
}

TEST(JsonParse, AcceptsAllRfcWhitespaceOnly) {
  ok(" \t\r\n[ \t\r\n1 \t\r\n, 2 ] \t\r\n");
  bad("[1,\xC2\xA0"
      "2]");  // no-break space is not JSON whitespace
}

TEST(JsonParse, ReportsLineAndColumn) {
  ParseError e = bad("{\n  \"a\": 1,\n  \"b\": tru\n}");
  EXPECT_EQ(e.line, 3u);
  EXPECT_GE(e.column, 8u);
  EXPECT_NE(e.message().find("line 3"), std::string::npos);
}

TEST(JsonParse, TruncatedInputIsReportedAtTheEnd) {
  for (std::string s : {"{\"a\":", "[1,2", "{\"a\":1", "[", "{\"a\"", "[1,{\"b\":[2,3]"}) {
    ParseError e = bad(s);
    EXPECT_EQ(e.offset, s.size()) << s << ": " << e.message();
  }
}

// The error-position scans stop at the end of the input, also when a backslash ends it inside what
// they read as a string (an over-read the ASan fuzz smoke run found; the asan preset runs this).
TEST(JsonParse, ABackslashThatEndsTheInputIsReportedAtTheEnd) {
  for (std::string s :
       {std::string("{\\\"\\"), std::string("{\"a\":\"\"\\"), "{\\\"" + std::string(40, 'a') + "\\"}) {
    ParseError e = bad(s);
    EXPECT_EQ(e.offset, s.size()) << s << ": " << e.message();
    EXPECT_EQ(e.expected, "more input: an array or object is not closed") << s;
  }
}

TEST(JsonParse, EnforcesDepthLimit) {
  ParseLimits limits;
  limits.max_depth = 10;
  std::string ten(10, '[');
  ten += std::string(10, ']');
  EXPECT_TRUE(parse(ten, limits).ok());
  std::string eleven(11, '[');
  eleven += std::string(11, ']');
  EXPECT_NE(bad(eleven, limits).expected.find("nesting at most 10"), std::string::npos);
  // The default limit holds against a very deep document: an error, not a stack overflow.
  std::string deep(200000, '[');
  deep += std::string(200000, ']');
  bad(deep);
}

TEST(JsonParse, EnforcesSizeLimit) {
  ParseLimits limits;
  limits.max_bytes = 8;
  EXPECT_TRUE(parse("[1,2,3]", limits).ok());
  EXPECT_NE(bad("[1,2,3,4]", limits).expected.find("at most 8 bytes"), std::string::npos);
}

TEST(JsonParse, ParsesScalarDocuments) {
  EXPECT_TRUE(ok("null").is_null());
  EXPECT_TRUE(ok(" true ").as_bool());
  EXPECT_FALSE(ok("false").as_bool());
  EXPECT_EQ(ok("\"x\"").string_value(), "x");
  EXPECT_EQ(ok("-12.5e3").number_text(), "-12.5e3");
  EXPECT_TRUE(ok("{}").is_object());
  EXPECT_TRUE(ok("[]").is_array());
}

/// How often parse() gave the compact text (what the writer gives, without writing) and how often not.
struct CompactCounts {
  std::size_t given = 0, withheld = 0;
};

// parse() builds valid texts on its own fast path and hands everything else to the simdjson path:
// both must give the same tree (compared by the lossless compact spelling, which keeps order,
// duplicates, number spelling and lone surrogates) or the same error, message and position included.
// The compact text parse() gives beside the tree must be what the decoder's writer gives for it.
void expect_same_as_simdjson_path(std::string_view text, const ParseLimits& limits = {},
                                  CompactCounts* counts = nullptr) {
  std::string compact = "stale";
  auto fast = parse(text, limits, &compact);
  auto reference = detail::parse_with_simdjson(text, limits);
  ASSERT_EQ(fast.ok(), reference.ok())
      << "input: " << text
      << "\nsimdjson path: " << (reference.ok() ? "accepted" : reference.error().message());
  if (fast.ok()) {
    EXPECT_EQ(write(*fast), write(*reference)) << "input: " << text;
    WriteOptions decoder_write;
    decoder_write.collapse_duplicates = true;
    if (!compact.empty()) {
      EXPECT_EQ(compact, write(*fast, decoder_write)) << "input: " << text;
    }
    if (counts) ++(compact.empty() ? counts->withheld : counts->given);
  } else {
    EXPECT_EQ(compact, "") << "input: " << text;
    EXPECT_EQ(fast.error().message(), reference.error().message()) << "input: " << text;
    EXPECT_EQ(fast.error().offset, reference.error().offset) << "input: " << text;
  }
}

std::string compact_of(std::string_view text) {
  std::string compact = "stale";
  EXPECT_TRUE(parse(text, {}, &compact).ok()) << "input: " << text;
  return compact;
}

TEST(JsonParse, GivesTheCompactTextOnlyWhenTheWriterWouldSpellTheInputThatWay) {
  // Whitespace outside strings goes; inside strings it stays.
  EXPECT_EQ(compact_of("\t\r\n [ \t1 , \n2 ]\r\n"), "[1,2]");
  EXPECT_EQ(compact_of("{ \"a b\" : [ true , null , -1.50E+3 ] , \"c\" : { } }"),
            "{\"a b\":[true,null,-1.50E+3],\"c\":{}}");
  EXPECT_EQ(compact_of("7"), "7");
  // Escapes the writer spells the same way are kept.
  EXPECT_EQ(compact_of("[\"q\\\"b\\\\n\\nt\\tr\\rf\\fb\\b\"]"), "[\"q\\\"b\\\\n\\nt\\tr\\rf\\fb\\b\"]");
  EXPECT_EQ(compact_of("\"caf\xc3\xa9 \xe2\x80\xa8\""), "\"caf\xc3\xa9 \xe2\x80\xa8\"");
  // The writer would spell these otherwise, or collapse them: no compact text, the decoder writes.
  EXPECT_EQ(compact_of("\"\\/\""), "");
  EXPECT_EQ(compact_of("\"\\u0041\""), "");
  EXPECT_EQ(compact_of("\"\\u001f\""), "");
  EXPECT_EQ(compact_of("\"\\ud800\""), "");
  EXPECT_EQ(compact_of("{\"b\":1,\"a\":2,\"b\":3}"), "");
  EXPECT_EQ(compact_of("[{\"k\":[{\"x\":1,\"x\":1}]}]"), "");
  // Refused input: none, and a stale text is cleared.
  std::string compact = "stale";
  EXPECT_FALSE(parse("[1,]", {}, &compact).ok());
  EXPECT_EQ(compact, "");
  EXPECT_FALSE(parse("\xef\xbb\xbf{}", {}, &compact).ok());
  EXPECT_EQ(compact, "");
}

TEST(JsonParse, FastPathAgreesWithTheSimdjsonPathOnEdgeCases) {
  for (const char* text : {"",
                           " ",
                           "null",
                           " true ",
                           "false",
                           "nul",
                           "truex",
                           "[true,false,null]",
                           "[truefalse]",
                           "0",
                           "-0",
                           "-",
                           "01",
                           "1.",
                           ".5",
                           "1e",
                           "1e+",
                           "1E-7",
                           "-1.5e300",
                           "1a",
                           "[1 2]",
                           "[1,]",
                           "[,1]",
                           "[1]]",
                           "[[]",
                           "{}",
                           "{\"a\":1,}",
                           "{\"a\" 1}",
                           "{\"a\":}",
                           "{1:2}",
                           "{\"a\":1 \"b\":2}",
                           "{\"a\":1}x",
                           "1 2",
                           "\"abc\"",
                           "\"a\\u00e9\\ud83d\\ude00\\ud800\\udc00\\ud800x\\udc00\"",
                           "\"\\ud800\\u0041\"",
                           "\"\\ud83d\"",
                           "\"\\x\"",
                           "\"\\u12\"",
                           "\"\\u12g4\"",
                           "\"a\nb\"",
                           "\"a\tb\"",
                           "\"\x7f\"",
                           "\"unterminated",
                           "\"\\",
                           "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
                           "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"",
                           "\"\xc3\"",
                           "\xef\xbb\xbf{}",
                           "\t\r\n [ \t1 , \n2 ]\r\n",
                           "[\"0123456789abcdef0123456789abcdef\\n0123456789abcdef\"]",
                           "{\"b\":1,\"a\":2,\"b\":3}",
                           "[{\"k\":[{\"k\":[]}]}]",
                           "[1,[2,[3,[4]]]]",
                           "{\"a\":[1,{\"b\":null}]]}"}) {
    expect_same_as_simdjson_path(text);
  }
  ParseLimits shallow;
  shallow.max_depth = 3;
  for (const char* text : {"[[[]]]", "[[[[]]]]", "{\"a\":{\"b\":{}}}", "{\"a\":{\"b\":{\"c\":{}}}}",
                           "[[[1]]]", "[[{}]]", "[[[{}]]]"}) {
    expect_same_as_simdjson_path(text, shallow);
  }
  ParseLimits small;
  small.max_bytes = 8;
  expect_same_as_simdjson_path("[1,2,3,4,5]", small);
  expect_same_as_simdjson_path("[1,2,3]", small);
}

TEST(JsonParse, FastPathAgreesWithTheSimdjsonPathOnCorpusFilesAndTheirMutations) {
  std::vector<std::string> texts;
  for (const char* dir : {"/fuzz/corpus/fuzz_json", "/fuzz/corpus/fuzz_decode",
                          "/fuzz/corpus/fuzz_structured", "/corpus/examples", "/bench/payloads"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(CROSSCHECK_SOURCE_DIR) + dir)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      texts.push_back(ss.str());
      if (texts.back().size() > 1) texts.push_back(texts.back().substr(1));  // without the fuzz root byte
    }
  }
  ASSERT_GT(texts.size(), 100u);
  const std::string replacements = "\"\\,:[]{}0-e.tn \x01\xff";
  std::size_t accepted = 0, checked = 0;
  CompactCounts counts;
  for (const std::string& text : texts) {
    expect_same_as_simdjson_path(text, {}, &counts);
    if (text.empty()) continue;
    for (std::size_t k = 0; k < 48; ++k) {
      std::size_t at = (k * 7919 + text.size() / 2) % text.size();
      char replacement = replacements[(k + at) % replacements.size()];
      std::string replaced = text, removed = text, doubled = text;
      replaced[at] = replacement;
      removed.erase(at, 1);
      doubled.insert(at, 1, text[at]);
      for (const std::string& mutant : {text.substr(0, at), replaced, removed, doubled}) {
        expect_same_as_simdjson_path(mutant, {}, &counts);
        accepted += parse(mutant).ok();
        ++checked;
      }
      if (HasFailure()) return;
    }
  }
  // Both paths were exercised: some mutants stay valid JSON, most do not.
  EXPECT_GT(accepted, checked / 50);
  EXPECT_LT(accepted, checked / 2);
  // The compact text was checked against the writer both ways, and is given for most valid texts.
  EXPECT_GT(counts.withheld, 0u);
  EXPECT_GT(counts.given, 4 * counts.withheld);
}

}  // namespace
}  // namespace crosscheck::json
