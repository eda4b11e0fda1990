// Tests of the report escapes with hostile payloads: display text, HTML, XML, Markdown fences and
// code spans, shell quoting.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "json/parse.hpp"
#include "report/escape.hpp"

namespace crosscheck::report {
namespace {

const std::string kScript = "</script><script>document.title='pwned'</script>";

/// True when `s` holds a code point XML 1.0 forbids (C0 controls other than TAB/LF/CR, U+FFFE/F).
bool has_xml_forbidden(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return true;
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xBE)
      return true;
  }
  return false;
}

/// The closing fence of a CommonMark fenced block opened by the first line of `md`: the index of
/// the first later line of only backticks (up to 3 leading spaces, trailing spaces) at least as long.
std::size_t closing_line(const std::string& md) {
  std::vector<std::string> lines;
  std::stringstream ss(md);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  std::size_t fence = std::min(lines.at(0).find_first_not_of('`'), lines.at(0).size());
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::string l = lines[i];
    std::size_t lead = l.find_first_not_of(' ');
    if (lead == std::string::npos || lead > 3) continue;
    std::size_t end = l.find_first_not_of('`', lead);
    std::size_t ticks = (end == std::string::npos ? l.size() : end) - lead;
    bool rest_blank = end == std::string::npos || l.find_first_not_of(" \t", end) == std::string::npos;
    if (ticks >= fence && rest_blank) return i;
  }
  return lines.size();
}

TEST(ReportEscape, DisplayTextEscapesInvalidUtf8ControlsAndBidi) {
  EXPECT_EQ(display_text(std::string("a\xff"
                                     "b",
                                     3)),
            "a\\xffb");
  EXPECT_EQ(display_text(std::string("\0x", 2)), "\\u0000x");
  EXPECT_EQ(display_text("\x1b[31mred"), "\\u001b[31mred");
  EXPECT_EQ(display_text("a\r\nb"), "a\\r\nb");
  EXPECT_EQ(display_line("a\nb\tc"), "a\\nb\\tc");
  EXPECT_EQ(display_text("\xe2\x80\xae"
                         "evil"),
            "\\u202eevil");  // right-to-left override
  EXPECT_EQ(display_text("\xef\xbb\xbf"
                         "x"),
            "\\ufeffx");                                                // BOM / zero-width no-break space
  EXPECT_EQ(display_text("\xef\xbf\xbe"), "\\ufffe");                   // not an XML character
  EXPECT_EQ(display_text("\xc2\x85"), "\\u0085");                       // C1 control (NEL)
  EXPECT_EQ(display_text("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(display_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // lone surrogate (WTF-8)
  EXPECT_EQ(display_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  EXPECT_EQ(display_text("\xe2\x82"), "\\xe2\\x82");                    // cut sequence at the end
  EXPECT_EQ(display_text("\xf3\xa0\x80\x81"), "\\u{e0001}");            // language tag
  EXPECT_EQ(display_text("h\xc3\xa9 \xf0\x9f\x98\x80 \\x41"),
            "h\xc3\xa9 \xf0\x9f\x98\x80 \\x41");  // kept as is
}

TEST(ReportEscape, DisplayTextCutsAtACharacterBoundaryAndSaysHowMuchIsLeft) {
  DisplayOptions o;
  o.max_chars = 4;
  std::string s = display_text("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", o);
  EXPECT_EQ(s, "\xc3\xa9\xc3\xa9 \xe2\x80\xa6 (4 more bytes)");
  EXPECT_TRUE(json::is_valid_utf8(s));
}

TEST(ReportEscape, RandomBytesBecomeValidInertText) {
  std::mt19937_64 rng(12345);
  for (int n = 0; n < 3000; ++n) {
    std::string bytes(rng() % 40, '\0');
    for (auto& c : bytes) {
      // Mostly the dangerous characters, so every escape path is hit.
      static const char pool[] = "<>&\"'`|\\\n\r\t\x1b\x7f\xc3\xa9\xed\xa0\x80\xef\xbf\xbe\xe2\x80\xae\xff";
      c = rng() % 3 ? pool[rng() % (sizeof pool - 1)] : static_cast<char>(rng());
    }
    std::string d = display_text(bytes);
    ASSERT_TRUE(json::is_valid_utf8(d)) << d;
    ASSERT_FALSE(has_xml_forbidden(d)) << d;
    ASSERT_EQ(d.find('\r'), std::string::npos);
    std::string x = xml_text(bytes);
    ASSERT_EQ(x.find('<'), std::string::npos);
    ASSERT_EQ(x.find('>'), std::string::npos);
    ASSERT_EQ(x.find('"'), std::string::npos);
    std::string a = xml_attribute(bytes);
    ASSERT_EQ(a.find('\n'), std::string::npos);
    ASSERT_EQ(a.find('\t'), std::string::npos);
    // Outside our own escape spans, HTML text has no markup character left.
    std::string h = html_text(bytes);
    for (const char* tag : {"<span class=\"esc\">", "</span>"}) {
      for (std::size_t p; (p = h.find(tag)) != std::string::npos;) h.erase(p, std::string(tag).size());
    }
    ASSERT_EQ(h.find_first_of("<>\"'"), std::string::npos) << h;
    std::string fenced = markdown_fence(bytes);
    ASSERT_EQ(closing_line(fenced),
              static_cast<std::size_t>(std::count(fenced.begin(), fenced.end(), '\n') - 1))
        << fenced;
  }
}

TEST(ReportEscape, HtmlNeutralisesScriptAndMarkup) {
  EXPECT_EQ(html_text(kScript), "&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;");
  EXPECT_EQ(html_text("<img src=x onerror=\"alert(1)\">"), "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  EXPECT_EQ(html_text(std::string("a\0\xff", 3)),
            "a<span class=\"esc\">\\u0000</span><span class=\"esc\">\\xff</span>");
  EXPECT_EQ(html_escape("&amp;"), "&amp;amp;");  // entities in a payload are shown, not decoded
}

TEST(ReportEscape, XmlEscapesAndDropsForbiddenCharacters) {
  EXPECT_EQ(xml_text("]]><a>&\x01"), "]]&gt;&lt;a&gt;&amp;\\u0001");
  EXPECT_EQ(xml_attribute("say \"hi\"\n"), "say &quot;hi&quot;\\n");
}

TEST(ReportEscape, MarkdownFenceIsLongerThanAnyBacktickRun) {
  std::string payload = "```\nnot closed\n````````\n</details><script>x</script>\n~~~\n";
  std::string md = markdown_fence(payload, "json");
  EXPECT_EQ(md.rfind("`````````json\n", 0), 0u) << md;  // 9 backticks: one more than the run of 8
  EXPECT_EQ(closing_line(md), static_cast<std::size_t>(std::count(md.begin(), md.end(), '\n') - 1)) << md;
  EXPECT_EQ(markdown_fence("x", "j`s\n<b>").substr(0, 7), "```jsb\n");  // info cannot carry a backtick
  EXPECT_EQ(markdown_fence("").substr(0, 4), "```\n");
}

TEST(ReportEscape, MarkdownCodeSpans) {
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x`"), "`` `x` ``");
  EXPECT_EQ(markdown_code("a|b", true), "`a\\|b`");
  EXPECT_EQ(markdown_code("a|b", false), "`a|b`");
  EXPECT_EQ(markdown_code("line\nbreak"), "`line\\nbreak`");
  EXPECT_EQ(markdown_code(""), "(empty)");
  EXPECT_EQ(markdown_code("[x](javascript:alert(1))"), "`[x](javascript:alert(1))`");
}

TEST(ReportEscape, ShellQuoteAndIdentifier) {
  EXPECT_EQ(shell_quote("out/findings/diverge-ab.json"), "out/findings/diverge-ab.json");
  EXPECT_EQ(shell_quote("my run/x.json"), "'my run/x.json'");
  EXPECT_EQ(shell_quote("it's;rm -rf ~"), "'it'\\''s;rm -rf ~'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(identifier("ab_c/d\"x"), "ab_5fc_2fd_22x");
}

}  // namespace
}  // namespace crosscheck::report
