// ReadableFolders and the dependency lists of gcc, nvcc and GNU as (samples as they print them).
#include "build/dependency_check.hpp"

#include <doctest/doctest.h>

using namespace cugrade;
using Files = std::vector<std::string>;

TEST_CASE("build::parse_dependency_file") {
  SUBCASE("gcc's form, with escapes") {
    CHECK(parse_dependency_file("obj/submission_0.o: src/submission_0.cu /usr/include/stdc-predef.h \\\n"
                                " src/interface.cuh /x/a\\ b.h /x/c$$d.h /x/e\\#f.h\n") ==
          Files{"src/submission_0.cu", "/usr/include/stdc-predef.h", "src/interface.cuh", "/x/a b.h",
                "/x/c$d.h", "/x/e#f.h"});
  }
  SUBCASE("nvcc's form (a space before the colon) and GNU as's") {
    CHECK(parse_dependency_file("obj/b.o : bad1.cu \\\n    /usr/include/stdc-predef.h \\\n"
                                "    /tmp/course/secret.h\n") ==
          Files{"bad1.cu", "/usr/include/stdc-predef.h", "/tmp/course/secret.h"});
    CHECK(parse_dependency_file("obj/x5.o: /tmp/course/secret.h \\\n tmpxft_1-6_x.cudafe1.cpp tmp/ccLQumYM.s\n") ==
          Files{"/tmp/course/secret.h", "tmpxft_1-6_x.cudafe1.cpp", "tmp/ccLQumYM.s"});
  }
  SUBCASE("nothing to list") { CHECK(parse_dependency_file("").empty()); }
}

TEST_CASE("build::ReadableFolders::contains") {
  const ReadableFolders folders{"/scratch/w", {"/usr/include", "/usr/local/cuda/targets/x86_64-linux/include"}};
  for (const char* file : {"src/submission_0.cu", "src/common/util.cuh", "tmp/cc1.s", "tmpxft_x.cudafe1.cpp",
                           "/scratch/w/src/a.cu", "/usr/include/stdio.h", "/usr/include/c++/12/../12/vector",
                           "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_runtime.h",
                           "<built-in>", "<command-line>"})
    CHECK_MESSAGE(folders.contains(file), file);
  for (const char* file : {"/etc/passwd", "/dev/zero", "../../reference/matmul/tiled.cu", "src/../../x.h",
                           "/scratch/other/a.cu", "/usr/include/../../etc/passwd", "/usr/includes.h", ""})
    CHECK_MESSAGE(!folders.contains(file), file);
}

TEST_CASE("build::files_outside") {
  const ReadableFolders folders{"/scratch/w", {"/usr/include"}};
  CHECK(files_outside({"src/a.cu", "/etc/passwd", "/usr/include/x.h", "/etc/passwd", "/course/ref.cu"}, folders) ==
        Files{"/etc/passwd", "/course/ref.cu"});
}
