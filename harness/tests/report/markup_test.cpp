#include "report/markup.hpp"

#include <doctest/doctest.h>

namespace cugrade {

TEST_CASE("report::clean_text") {
  SUBCASE("valid UTF-8 and tab, newline, carriage return stay as they are") {
    CHECK(clean_text("µs ± 0.5 × 2\t\r\n") == "µs ± 0.5 × 2\t\r\n");
  }
  SUBCASE("a byte that does not start a valid sequence becomes U+FFFD") {
    CHECK(clean_text("caf\xe9 ok") == "caf\xef\xbf\xbd ok");
    CHECK(clean_text("\xc3") == "\xef\xbf\xbd");              // cut short
    CHECK(clean_text("\xc0\xaf") == "\xef\xbf\xbd\xef\xbf\xbd");  // overlong '/'
    CHECK(clean_text("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
  }
  SUBCASE("control characters XML forbids become U+FFFD") {
    CHECK(clean_text("\x1b[31mred\x1b[0m") == "\xef\xbf\xbd[31mred\xef\xbf\xbd[0m");
    CHECK(clean_text(std::string_view("a\0b", 3)) == "a\xef\xbf\xbd" "b");
  }
}

TEST_CASE("report::escape_markup") {
  CHECK(escape_markup("<script>alert('x' & \"y\")</script>") ==
        "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;");
  CHECK(escape_markup("plain") == "plain");
  CHECK(escape_markup("\x01") == "\xef\xbf\xbd");
}

}  // namespace cugrade
