// filter_compiler_output(): messages about outside files go, with the lines they quote; the
// student's own messages and the system headers' stay (samples as gcc, nvcc and as print them).
#include "build/output_filter.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {

const ReadableFolders folders{"/scratch/w", {"/usr/include", "/usr/local/cuda/targets/x86_64-linux/include"}};

}  // namespace

TEST_CASE("build::message_file") {
  CHECK(message_file("src/submission_0.cu:3:5: error: 'j' was not declared") == "src/submission_0.cu");
  CHECK(message_file("src/submission_0.cu(12): error: identifier \"j\" is undefined") == "src/submission_0.cu");
  CHECK(message_file("/course/secret.h: Assembler messages:") == "/course/secret.h");
  CHECK(message_file("/course/secret.h:1: Error: no such instruction: `secret line one'") == "/course/secret.h");
  CHECK(message_file("In file included from src/submission_0.cu:3:") == "src/submission_0.cu");
  CHECK(message_file("                 from /course/a b/x.h:4,") == "/course/a b/x.h");
  CHECK(message_file("src/submission_0.cu: In function 'void f()':") == "src/submission_0.cu");
  CHECK(message_file("/course/with space/x.h:2:1: error: x") == "/course/with space/x.h");
  CHECK(message_file("    5 | secret line") == "");
  CHECK(message_file("  secret line one") == "");
  CHECK(message_file("compilation terminated.") == "");
  CHECK(message_file("nvcc fatal   : Unsupported gpu architecture 'sm_999'") == "");
  CHECK(message_file("cc1plus: fatal error: x.h: No such file or directory") == "cc1plus");
}

TEST_CASE("build::filter_compiler_output") {
  SUBCASE("gcc quoting a file named by #line, and an included course file, is dropped") {
    const auto out = filter_compiler_output(
        "In file included from src/submission_0.cu:3:\n"
        "/tmp/course/secret.h:1:1: error: 'secret' does not name a type\n"
        "    1 | secret line one\n"
        "      | ^~~~~~\n"
        "src/submission_0.cu:7:3: error: 'j' was not declared in this scope\n"
        "    7 |   j = 1;\n"
        "      |   ^\n",
        folders);
    CHECK(out.text ==
          "In file included from src/submission_0.cu:3:\n"
          "[... a message about a file outside your submission was removed]\n"
          "src/submission_0.cu:7:3: error: 'j' was not declared in this scope\n"
          "    7 |   j = 1;\n"
          "      |   ^\n");
    CHECK(out.outside == std::vector<std::string>{"/tmp/course/secret.h"});
    CHECK(out.text.find("secret line") == std::string::npos);
  }
  SUBCASE("EDG (nvcc) quoting the lines it read") {
    const auto out = filter_compiler_output(
        "/tmp/course/secret.h(1): error: identifier \"secret\" is undefined\n"
        "  secret line one\n"
        "  ^\n\n"
        "2 errors detected in the compilation of \"src/submission_0.cu\".\n",
        folders);
    CHECK(out.text.find("secret line") == std::string::npos);
    CHECK(out.text.find("2 errors detected") != std::string::npos);
  }
  SUBCASE("the assembler quoting a file it was told to .include") {
    const auto out = filter_compiler_output(
        "/tmp/course/secret.h: Assembler messages:\n"
        "/tmp/course/secret.h:1: Error: no such instruction: `secret line one'\n"
        "/tmp/course/secret.h:2: Error: invalid character '=' in operand 1\n",
        folders);
    CHECK(out.text == "[... a message about a file outside your submission was removed]\n");
  }
  SUBCASE("system headers and the student's files stay") {
    const std::string text =
        "In file included from /usr/include/c++/12/vector:64,\n"
        "                 from src/submission_0.cu:2:\n"
        "/usr/include/c++/12/bits/stl_vector.h:5:3: note: candidate\n"
        "    5 | template <class T>\n"
        "src/submission_0.cu:9:1: warning: unused\n";
    CHECK(filter_compiler_output(text, folders).text == text);
  }
}
