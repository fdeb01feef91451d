// A message naming the student's line also shows it (harness/src/pipeline/source_quotes.cpp).
#include "pipeline/source_quotes.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("pipeline::with_quoted_lines") {
  test::TempDir dir("quotes");
  write(dir.path / "vecadd.cu", "__global__ void add(float* c) {\n  int i = threadIdx.x;\n    c[i + 1] = 2.0f;\n}\n");
  const std::map<std::string, fs::path> files{{"vecadd.cu", dir.path / "vecadd.cu"}};
  CHECK(with_quoted_lines("out-of-bounds write ..., just past its end; the write is at vecadd.cu:3", files) ==
        "out-of-bounds write ..., just past its end; the write is at vecadd.cu:3: `c[i + 1] = 2.0f;`");
  SUBCASE("quoted once, wherever the message goes next") {
    const std::string once = with_quoted_lines("the read is at vecadd.cu:2 — and more", files);
    CHECK(once == "the read is at vecadd.cu:2: `int i = threadIdx.x;` — and more");
    CHECK(with_quoted_lines(once, files) == once);
  }
  SUBCASE("a line past the end, another file, or no line: left as it is") {
    CHECK(with_quoted_lines("the write is at vecadd.cu:99", files) == "the write is at vecadd.cu:99");
    CHECK(with_quoted_lines("the write is at cuda_runtime.h:3", files) == "the write is at cuda_runtime.h:3");
    CHECK(with_quoted_lines("the write is at vecadd.cu", files) == "the write is at vecadd.cu");
    CHECK(with_quoted_lines("cudaMemcpy (vecadd.cu:3) failed", files) == "cudaMemcpy (vecadd.cu:3) failed");
  }
  SUBCASE("two sites, each quoted") {
    CHECK(with_quoted_lines("the read is at vecadd.cu:2; the write is at vecadd.cu:3", files) ==
          "the read is at vecadd.cu:2: `int i = threadIdx.x;`; the write is at vecadd.cu:3: `c[i + 1] = 2.0f;`");
  }
}

TEST_CASE("pipeline::staged_student_files") {
  test::TempDir dir("staged");
  write(dir.path / "src" / "submission_0.cu", "a\n");
  write(dir.path / "src" / "submission_0.cpp", "pre-passed\n");
  write(dir.path / "src" / "helpers.cuh", "b\n");
  write(dir.path / "src" / "interface.cuh", "c\n");
  const auto files = staged_student_files({"hw/matmul.cu"}, dir.path);
  CHECK(files.size() == 2);
  CHECK(files.at("matmul.cu") == dir.path / "src" / "submission_0.cu");
  CHECK(files.at("helpers.cuh") == dir.path / "src" / "helpers.cuh");
}

TEST_CASE("pipeline::quote_student_lines") {
  test::TempDir dir("quote-report");
  write(dir.path / "src" / "submission_0.cu", "x\n  C[i] = s;\n");
  GradeReport report;
  report.submission = {"matmul.cu"};
  CaseResult c;
  c.message = "out-of-bounds global memory write in kernel `k`; the write is at matmul.cu:2";
  report.cases.push_back(c);
  quote_student_lines(report, dir.path);
  CHECK(report.cases[0].message == "out-of-bounds global memory write in kernel `k`; the write is at matmul.cu:2: `C[i] = s;`");
}
