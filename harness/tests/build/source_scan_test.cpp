// scan_source(): the includes of a file and the constructs refused before compiling, on the
// attacks of issue 9 ("Files are trusted") and on honest code that must pass.
#include "build/source_scan.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {

/// The constructs scan_source refuses in `text`, each as written.
std::vector<std::string> refused(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& r : scan_source(text).refused) out.push_back(r.construct);
  return out;
}

bool clean(const std::string& text) { return scan_source(text).refused.empty(); }

}  // namespace

TEST_CASE("build::is_plain_include_name") {
  for (const char* name : {"interface.cuh", "helpers.cuh", "common/util.h", "c++/12/vector",
                           "cuda/std/atomic", "my-header_2.cuh"})
    CHECK_MESSAGE(is_plain_include_name(name), name);
  for (const char* name : {"", "/etc/passwd", "../../reference/matmul/tiled.cu", "a/../b.h",
                           "./x.h", "a//b.h", "x.h/", "$(touch pwned).h", "a b.h", "`id`.h",
                           "a\"b.h", "a\\b.h", "x\n.h"})
    CHECK_MESSAGE(!is_plain_include_name(name), name);
}

TEST_CASE("build::scan_source") {
  SUBCASE("the includes of an honest file, with their lines") {
    const SourceScan scan = scan_source(
        "// a comment #include \"/etc/passwd\"\n"
        "#include \"interface.cuh\"\n"
        "  #  include <cuda_runtime.h>\n"
        "/* #include \"/etc/shadow\" */\n"
        "#include \"helpers.cuh\" // local\n"
        "#define HEADER \"other.cuh\"\n"
        "#include HEADER\n"
        "const char* s = \"#include </dev/zero>\";\n");
    CHECK(scan.refused.empty());
    REQUIRE(scan.includes.size() == 4);
    CHECK(scan.includes[0].name == "interface.cuh");
    CHECK(scan.includes[0].line == 2);
    CHECK_FALSE(scan.includes[0].angled);
    CHECK(scan.includes[1].name == "cuda_runtime.h");
    CHECK(scan.includes[1].angled);
    CHECK(scan.includes[2].name == "helpers.cuh");
    CHECK(scan.includes[2].line == 5);
    CHECK(scan.includes[3].name.empty());  // a macro names it: the dependency lists check it
  }

  SUBCASE("includes that leave the submission are refused, however written") {
    CHECK(refused("#include \"/etc/passwd\"\n") == std::vector<std::string>{"#include \"/etc/passwd\""});
    CHECK(refused("#include </dev/zero>\n") == std::vector<std::string>{"#include </dev/zero>"});
    CHECK(refused("#include \"../../reference/matmul/tiled.cu\"\n").size() == 1);
    CHECK(refused("#include \"/work/course/reference/matmul/tiled.cu\"\n").size() == 1);
    CHECK(refused("#include_next \"/etc/passwd\"\n").size() == 1);
    CHECK(refused("#import \"/etc/passwd\"\n").size() == 1);
    CHECK(refused("%:include \"/etc/passwd\"\n").size() == 1);           // a digraph for #
    CHECK(refused("#\\\ninclude \"/etc/passwd\"\n").size() == 1);         // a line splice
    CHECK(refused("# /* c */ include \"/etc/passwd\"\n").size() == 1);    // a comment inside
    CHECK(refused("int x; /*\n*/ #include \"/etc/passwd\"\n").size() == 1);
    CHECK(refused("#include \"$(touch pwned).h\"\n").size() == 1);
    const auto r = scan_source("\n\n#include \"/etc/passwd\"\n").refused;
    REQUIRE(r.size() == 1);
    CHECK(r[0].line == 3);
    CHECK(r[0].reason.find("includes must be your own files") != std::string::npos);
  }

  SUBCASE("#embed, #line, line markers and dependency pragmas are refused") {
    CHECK(refused("#embed \"/etc/passwd\"\n").size() == 1);
    CHECK(refused("#embed <interface.cuh>\n").size() == 1);
    CHECK(refused("#if __has_embed(\"x\")\n#endif\n").size() == 1);
    CHECK(refused("#line 1 \"/course/reference/tiled.cu\"\n") ==
          std::vector<std::string>{"#line 1 \"/course/reference/tiled.cu\""});
    CHECK(refused("# 1 \"/course/reference/tiled.cu\"\n").size() == 1);
    CHECK(refused("#pragma GCC dependency \"/course/secret\"\n").size() == 1);
    CHECK(refused("_Pragma(\"GCC dependency \\\"/course/secret\\\"\")\n").size() == 1);
    CHECK(clean("#pragma unroll\n#pragma once\n_Pragma(\"unroll 4\")\n#define P(x) _Pragma(#x)\n"));
  }

  SUBCASE("__has_include may only probe plain names") {
    CHECK(clean("#if __has_include(<cuda_runtime.h>) && __has_include(\"helpers.cuh\")\n#endif\n"));
    CHECK(refused("#if __has_include(\"/course/reference/matmul/tiled.cu\")\n#endif\n").size() == 1);
    CHECK(refused("#if __has_include_next(</etc/passwd>)\n#endif\n").size() == 1);
    CHECK(refused("#define P \"/x\"\n#if __has_include(P)\n#endif\n").size() == 1);
  }

  SUBCASE(".incbin and .include in inline assembly are refused, however the string is built") {
    CHECK(refused("asm(\".incbin \\\"/etc/passwd\\\"\");\n").size() == 1);
    CHECK(refused("__asm__(\".INCBIN \\\"/etc/passwd\\\"\");\n").size() == 1);
    CHECK(refused("asm(\".inc\" \"bin \\\"/etc/passwd\\\"\");\n").size() == 1);  // concatenated
    CHECK(refused("asm(\".inc\"\n  \"bin x\");\n").size() == 1);                 // across lines
    CHECK(refused("asm(\"\\x2eincbin x\");\n").size() == 1);                    // an escape
    CHECK(refused("asm(\"\\56incbin x\");\n").size() == 1);                     // octal
    CHECK(refused("asm(R\"(.incbin \"/etc/passwd\")\");\n").size() == 1);       // raw string
    CHECK(refused("asm(\".include \\\"/etc/passwd\\\"\");\n").size() == 1);
    CHECK(refused("#define S(x) #x\nasm(S(.incbin \"/etc/passwd\"));\n").size() == 1);  // stringified
  }

  SUBCASE("honest code: device asm, literals with quotes and apostrophes, digit separators") {
    CHECK(clean("__device__ unsigned lane() { unsigned r; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r; }\n"
                "int n = 1'000'000; char q = '\"'; const char* s = \"it's \\\"fine\\\"\";\n"
                "printf(\"%s\\n\", u8\"ok\"); auto r = R\"x(raw \" string)x\";\n"
                "#include \"interface.cuh\"\n"));
    CHECK(scan_source("char c = '#';\n#include \"a.cuh\"\n").includes.size() == 1);
  }
}
