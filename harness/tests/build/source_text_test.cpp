// The text layer under scan_source: line splices removed with each character's line kept, and
// literal escapes decoded, so that a file cannot hide `#include` or `.incbin` by spelling.
#include "build/source_text.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("build::splice_lines") {
  SUBCASE("a backslash-newline joins two lines; the characters after it keep their own line") {
    const SplicedSource s = splice_lines("#inc\\\nlude \"x.h\"\nint a;\n");
    CHECK(s.text == "#include \"x.h\"\nint a;\n");
    REQUIRE(s.line.size() == s.text.size());
    CHECK(s.line[0] == 1);                         // '#'
    CHECK(s.line[s.text.find('l')] == 2);          // "lude" came from line 2
    CHECK(s.line[s.text.find("int")] == 3);
  }
  SUBCASE("CR-LF, and blanks between the backslash and the newline, splice too (as GCC does)") {
    CHECK(splice_lines("a\\\r\nb").text == "ab");
    CHECK(splice_lines("a\\  \t\nb").text == "ab");
  }
  SUBCASE("a backslash not before a newline stays, and so does one at the end of the file") {
    CHECK(splice_lines("\"a\\nb\"").text == "\"a\\nb\"");
    CHECK(splice_lines("a\\ b").text == "a\\ b");
    CHECK(splice_lines("a\\").text == "a\\");
  }
  SUBCASE("an empty file is empty") {
    CHECK(splice_lines("").text.empty());
    CHECK(splice_lines("").line.empty());
  }
}

TEST_CASE("build::decode_escapes") {
  CHECK(decode_escapes("plain") == "plain");
  CHECK(decode_escapes("a\\tb\\n") == "a\tb\n");
  // The spellings of ".incbin" an inline-assembly string could hide behind.
  CHECK(decode_escapes("\\x2eincbin") == ".incbin");
  CHECK(decode_escapes("\\056incbin") == ".incbin");
  CHECK(decode_escapes("\\u002eincbin") == ".incbin");
  CHECK(decode_escapes("\\U0000002e\\151ncbin") == ".incbin");
  // Octal stops after three digits; hex runs on while digits follow.
  CHECK(decode_escapes("\\1011") == "A1");
  CHECK(decode_escapes("\\x41g") == "Ag");
  // Code points past ASCII come out as UTF-8.
  CHECK(decode_escapes("\\u00e9") == "\xC3\xA9");
  CHECK(decode_escapes("\\U0001F600") == "\xF0\x9F\x98\x80");
  // Quotes, backslashes and unknown escapes stand for the character itself; a lone backslash at
  // the end stays.
  CHECK(decode_escapes("\\\"\\\\\\q") == "\"\\q");
  CHECK(decode_escapes("a\\") == "a\\");
}
