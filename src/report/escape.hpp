// escape.hpp: showing hostile bytes (payloads, SDK messages, names from a run folder) safely in a
// report. Two steps, always both: display_text() turns any bytes into printable, valid UTF-8 text
// (invalid UTF-8 as \xNN, control, invisible and bidi-override characters as \uNNNN), then a
// format-specific escape (HTML, XML, Markdown) makes that text inert in its target language.
// Because of the first step nothing XML 1.0 forbids, no lone surrogate and no terminal escape ever
// reaches an output file.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "run/replay.hpp"

namespace crosscheck::report {

struct DisplayOptions {
  bool keep_newlines = true;  ///< LF stays a line break (payload blocks); false: shown as \n
  bool keep_tabs = true;      ///< TAB stays; false: shown as \t
  /// 0: everything. Otherwise the text stops at a character boundary after about this many bytes
  /// and ends with " … (N more bytes)", N counted in the input.
  std::size_t max_chars = 0;
};

/// Calls `out(text, is_escape)` for each run of plain text and each escape sequence ("\xff",
/// "\u0000", "\u202e") in order. Plain runs are valid UTF-8 without the characters escaped.
void for_each_display_segment(std::string_view bytes, const DisplayOptions& options,
                              const std::function<void(std::string_view, bool)>& out);
/// The concatenation of the segments.
std::string display_text(std::string_view bytes, const DisplayOptions& options = {});
/// display_text on one line (newlines and tabs escaped too), cut after about `max_chars` bytes.
std::string display_line(std::string_view bytes, std::size_t max_chars = 0);

/// & < > " ' as character references; the input must already be display text.
std::string html_escape(std::string_view text);
/// Display text, then HTML-escaped; escape sequences wrapped in <span class="esc">.
std::string html_text(std::string_view bytes, const DisplayOptions& options = {});
/// Display text, then escaped for XML 1.0 element content or a double-quoted attribute value
/// (& < > " ' and, for attributes, TAB/LF/CR as character references).
std::string xml_text(std::string_view bytes, const DisplayOptions& options = {});
std::string xml_attribute(std::string_view bytes);

/// A Markdown code span holding display_line(bytes): fenced by more backticks than the longest run
/// inside, so no emphasis, link, image, HTML tag or autolink can form. `in_table`: '|' written as
/// '\|' (GFM ends a table cell at any other pipe, even inside a code span). Empty text: "(empty)".
std::string markdown_code(std::string_view bytes, bool in_table = false, std::size_t max_chars = 0);
/// A fenced code block holding display_text(bytes): the fence is one backtick longer than the
/// longest run of backticks in the content (at least three), so the content cannot close it.
std::string markdown_fence(std::string_view bytes, std::string_view info = "", std::size_t max_chars = 0);

/// A word a POSIX shell reads back as `word` (run/replay.hpp, where the replay command is built).
using run::shell_quote;

/// A string safe as an HTML id fragment, one-to-one: [A-Za-z0-9-] kept, any other byte as _xx.
std::string identifier(std::string_view text);

}  // namespace crosscheck::report
