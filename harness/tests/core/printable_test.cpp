// Names from students on one line, whatever bytes they hold.
#include "core/printable.hpp"

#include <doctest/doctest.h>

#include <string>

using cugrade::is_valid_utf8;
using cugrade::printable;
using cugrade::terminal_text;

TEST_CASE("core::printable") {
  SUBCASE("plain text and UTF-8 are unchanged") {
    CHECK(printable("alice") == "alice");
    CHECK(printable("o'brien \"x\" $(rm -rf ~) `id`") == "o'brien \"x\" $(rm -rf ~) `id`");
    CHECK(printable("ünal 日本") == "ünal 日本");
  }
  SUBCASE("control characters are escaped, so a name stays on one line") {
    CHECK(printable("a\nb") == "a\\nb");
    CHECK(printable("a\tb\r") == "a\\tb\\r");
    CHECK(printable("\x1b[31mred") == "\\x1b[31mred");
    CHECK(printable(std::string("nul\0", 4)) == "nul\\x00");
    CHECK(printable("del\x7f") == "del\\x7f");
    CHECK(printable("c1 \xc2\x9b") == "c1 \\xc2\\x9b");  // U+009B, a terminal's CSI
  }
  SUBCASE("a backslash is doubled, so an escape in the output is never ambiguous") {
    CHECK(printable("a\\nb") == "a\\\\nb");
  }
  SUBCASE("bytes that are not UTF-8 are shown as \\xNN") {
    CHECK(printable("\xff\xfe") == "\\xff\\xfe");
    CHECK(printable("\xc3") == "\\xc3");          // cut short
    CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");  // overlong '/'
    CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
  }
}

TEST_CASE("core::terminal_text") {
  CHECK(terminal_text("a line\n\tindented \\n kept") == "a line\n\tindented \\n kept");
  CHECK(terminal_text("int x = \x1b[31mRED\x1b[0m;") == "int x = \\x1b[31mRED\\x1b[0m;");
  CHECK(terminal_text("\r\x07\x7f") == "\\r\\x07\\x7f");
  CHECK(terminal_text("\xc2\x9b" "2J ±") == "\\xc2\\x9b" "2J ±");  // a C1 CSI, then valid UTF-8
}

TEST_CASE("core::is_valid_utf8") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("alice"));
  CHECK(is_valid_utf8("ünal 日本 😀"));
  CHECK(is_valid_utf8("a\nb"));
  CHECK_FALSE(is_valid_utf8("\xff"));
  CHECK_FALSE(is_valid_utf8("\xc3"));
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));
}
