// Golden files: render_github_annotations's output is compared with
// harness/tests/data/golden/github_*.txt (CUGRADE_UPDATE_GOLDEN=1 rewrites them).
#include "report/github_report.hpp"

#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {

TEST_CASE("report::escape_github_data") {
  CHECK(escape_github_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b");
  SUBCASE("student text cannot start a command of its own") {
    CHECK(escape_github_data("x\n::add-mask::secret") == "x%0A::add-mask::secret");
  }
}

TEST_CASE("report::escape_github_property") {
  CHECK(escape_github_property("tiled K=47,M=65: wrong%\n") == "tiled K=47%2CM=65%3A wrong%25%0A");
}

TEST_CASE("report::render_github_annotations") {
  SUBCASE("a graded report") {
    test::check_golden("github_sample.txt", render_github_annotations(test::sample_report()));
  }
  SUBCASE("a compile error: each diagnostic on its file, line and column") {
    const std::string text = render_github_annotations(test::compile_error_report());
    test::check_golden("github_compile_error.txt", text);
    CHECK(text.starts_with("::error file=matmul.cu,line=17,col=5,title=nvcc error::identifier "
                           "\"tile\" is undefined\n"));
  }
  SUBCASE("on the CPU backend, nvcc's check is nvcc's; the host compiler's is the CPU backend's") {
    GradeReport report = test::compile_error_report();
    report.environment.backend = "cpu";
    report.build.arch = "sm_75";  // nvcc checked the files first
    CHECK(render_github_annotations(report).starts_with("::error file=matmul.cu,line=17,col=5,title=nvcc error::"));
    report.build.arch = "cpu";
    CHECK(render_github_annotations(report).starts_with("::error file=matmul.cu,line=17,col=5,title=CPU backend error::"));
  }
  SUBCASE("files by their path from the repository's root, where GitHub puts annotations") {
    const std::string text =
        render_github_annotations(test::compile_error_report(), {{"matmul.cu", "hw2/src/matmul.cu"}});
    CHECK(text.starts_with("::error file=hw2/src/matmul.cu,line=17,col=5,title=nvcc error::"));
    CHECK(text.find("file=matmul.cu") == std::string::npos);
  }
  SUBCASE("every line is one command, whatever the student's text holds") {
    GradeReport report = test::sample_report();
    report.cases[3].message = "line one\n::error::forged\r\n100%";
    const std::string text = render_github_annotations(report);
    CHECK(text.find("line one%0A::error::forged%0D%0A100%25") != std::string::npos);
    std::size_t start = 0;
    while (start < text.size()) {
      CHECK(text.substr(start, 2) == "::");
      start = text.find('\n', start) + 1;
    }
  }
  SUBCASE("one annotation per failing step, not one per case") {
    const std::string text = render_github_annotations(test::empty_template_report());
    std::size_t errors = 0;
    for (std::size_t at = text.find("::error "); at != std::string::npos; at = text.find("::error ", at + 1))
      ++errors;
    CHECK(errors == 2);  // naive and grid_stride, 58 failed cases between them
    CHECK(text.find("::error file=vecadd.cu,title=naive%3A 0 of 29 cases passed::wrong_answer: every element "
                    "is NaN or Inf") != std::string::npos);
    CHECK(text.find("%0Awrong_answer in 28 cases (n = 1, 7, 31, 32, 33, 255, …): every element") != std::string::npos);
    CHECK(text.find("%0Awrong_answer in a hidden case") != std::string::npos);
  }
  SUBCASE("a step short only of performance points is a warning") {
    const std::string text = render_github_annotations(test::sample_report());
    CHECK(text.find("::warning file=matmul.cu,title=naive%3A 1 of 1 cases passed::all passed%0Aperformance "
                    "K=4096,M=4096,N=4096: your time 2.000 ± 0.250 µs") != std::string::npos);
    CHECK(text.find("::error file=matmul.cu,title=tiled%3A 1 of 5 cases passed::wrong_answer: check the bounds") !=
          std::string::npos);
  }
  SUBCASE("a failure that names a line of the student's file puts the step's annotation there") {
    GradeReport report = test::sample_report();
    for (CaseResult& c : report.cases)
      if (c.step == "tiled" && c.outcome == Outcome::wrong_answer)
        c.message = "out-of-bounds global memory read by thread (3,0,0) of block (1,0,0) at matmul.cu:27";
    const std::string text = render_github_annotations(report, {{"matmul.cu", "hw2/src/matmul.cu"}});
    CHECK(text.find("::error file=hw2/src/matmul.cu,line=27,title=tiled%3A 1 of 5 cases passed::") != std::string::npos);
    // A line of a file that is not the student's (a header of the toolkit's) is no place for it.
    for (CaseResult& c : report.cases)
      if (c.step == "tiled" && c.outcome == Outcome::wrong_answer) c.message = "failed in cuda_runtime.h:120";
    CHECK(render_github_annotations(report).find("::error file=matmul.cu,title=tiled") != std::string::npos);
  }
  SUBCASE("at most 10 errors, then a notice of how many were left out") {
    GradeReport report = test::sample_report();
    for (int i = 0; i < 12; ++i) {
      report.cases.push_back(test::sample_wrong_tile());
      report.cases.back().step = "step" + std::to_string(i);
    }
    const std::string text = render_github_annotations(report);
    std::size_t errors = 0;
    for (std::size_t at = text.find("::error "); at != std::string::npos; at = text.find("::error ", at + 1))
      ++errors;
    CHECK(errors == 10);
    CHECK(text.find("::notice title=more results::3 more annotations were left out") != std::string::npos);
  }
  SUBCASE("hidden cases show only their outcome") {
    const std::string text = render_github_annotations(test::sample_report());
    CHECK(text.find("K=77") == std::string::npos);
    CHECK(text.find("%0Awrong_answer in a hidden case%0A") != std::string::npos);
  }
}

}  // namespace cugrade
