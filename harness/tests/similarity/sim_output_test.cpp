#include "similarity/sim_output.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

// Verbatim output of Debian's sim_c++ 3.0.2 (similarity-tester 3.0.2-1+b1).
TEST_CASE("similarity::parse_sim_output") {
  SUBCASE("-n: sizes, totals and runs, a long name's bracket right after it") {
    const std::string text =
        "File given/00000.cu: 1110 tokens, 76 lines\n"
        "File given/00001.cu: 439 tokens, 68 lines\n"
        "File /: new/old separator\n"
        "File base/template.cu: 231 tokens, 65 lines\n"
        "Total input: 3 files (2 new, 1 old), 1780 tokens\n"
        "\n"
        "given/00000.cu: line 30-35           |base/template.cu: line 47-52               [60]\n"
        "\n"
        "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01.cu: line 16-68|b.cu: line 16-68                  [439]\n";
    auto out = parse_sim_output(text);
    REQUIRE_MESSAGE(out.has_value(), out.error().message);
    REQUIRE(out->files.size() == 3);
    CHECK(out->files[0].file == "given/00000.cu");
    CHECK(out->files[0].tokens == 1110);
    CHECK(out->files[0].lines == 76);
    CHECK(out->files[2].file == "base/template.cu");
    REQUIRE(out->runs.size() == 2);
    CHECK(out->runs[0].file_a == "given/00000.cu");
    CHECK(out->runs[0].a == LineSpan{30, 35});
    CHECK(out->runs[0].file_b == "base/template.cu");
    CHECK(out->runs[0].b == LineSpan{47, 52});
    CHECK(out->runs[0].tokens == 60);
    CHECK(out->runs[1].file_a == "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01.cu");
    CHECK(out->runs[1].b == LineSpan{16, 68});
    CHECK(out->runs[1].tokens == 439);
    CHECK(out->percentages.empty());
  }
  SUBCASE("-p: percentages, each direction on its own line") {
    auto out = parse_sim_output(
        "File own/00000.cu: 439 tokens, 68 lines\n"
        "Total input: 2 files (2 new, 0 old), 878 tokens\n\n"
        "own/00000.cu consists for 100 % of own/00001.cu material\n"
        "own/00001.cu consists for 47 % of own/00000.cu material\n");
    REQUIRE_MESSAGE(out.has_value(), out.error().message);
    REQUIRE(out->percentages.size() == 2);
    CHECK(out->percentages[0].file == "own/00000.cu");
    CHECK(out->percentages[0].of == "own/00001.cu");
    CHECK(out->percentages[0].percent == 100);
    CHECK(out->percentages[1].percent == 47);
  }
  SUBCASE("a line sim prints when it cannot open a file is not read as no similarity") {
    auto out = parse_sim_output("File b.cu: 439 tokens, 68 lines\nFile nonexist.cu: >>>> cannot open <<<<\n");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message.find("line 2") != std::string::npos);
    CHECK(out.error().message.find("cannot open") != std::string::npos);
  }
  SUBCASE("CRLF and an empty output") {
    auto out = parse_sim_output("File a.cu: 1 token, 1 line\r\n");
    REQUIRE(out.has_value());
    CHECK(out->files.size() == 1);
    CHECK(parse_sim_output("").has_value());
  }
}
