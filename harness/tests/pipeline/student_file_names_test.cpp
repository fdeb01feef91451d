// What the runner says of submission_<i>.cu is said of the student's own files
// (harness/src/pipeline/student_file_names.cpp).
#include "pipeline/student_file_names.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("pipeline::with_student_file_names") {
  const std::vector<std::string> one{"vecadd.cu"};
  CHECK(with_student_file_names("cudaMemcpy (submission_0.cu:29) failed", one) == "cudaMemcpy (vecadd.cu:29) failed");
  CHECK(with_student_file_names("at src/submission_0.cu:3 and submission_0.cu:4", one) == "at vecadd.cu:3 and vecadd.cu:4");
  CHECK(with_student_file_names("nothing to name here", one) == "nothing to name here");
  CHECK(with_student_file_names("submission_1.cu:5", one) == "submission_1.cu:5");  // not one of the student's
  std::vector<std::string> eleven;
  for (int i = 0; i < 11; ++i) eleven.push_back("f" + std::to_string(i) + ".cu");
  CHECK(with_student_file_names("submission_10.cu:1, submission_1.cu:2", eleven) == "f10.cu:1, f1.cu:2");
  CHECK(with_student_file_names("submission_0.cu", {"submission_0.cu"}) == "submission_0.cu");  // named so by the student
  // A name of the student's that ends so is theirs, not a staged one.
  CHECK(with_student_file_names("see mysubmission_0.cu:3 and submission_0.cu:4", {"mysubmission_0.cu"}) ==
        "see mysubmission_0.cu:3 and mysubmission_0.cu:4");
}

TEST_CASE("pipeline::show_student_file_names") {
  GradeReport report;
  report.submission = {"mine.cu"};
  CaseResult c;
  c.message = "__shared__ tile in transpose, submission_0.cu:14";
  report.cases.push_back(c);
  PerformanceResult p;
  p.message = "slower (submission_0.cu)";
  p.diagnosis = PerformanceDiagnosis{};
  p.diagnosis->message = "bank conflicts in k (submission_0.cu:7)";
  p.diagnosis->details = {"where: submission_0.cu:7"};
  report.performance.push_back(p);
  report.notes = {"see submission_0.cu:1"};
  show_student_file_names(report);
  CHECK(report.cases[0].message == "__shared__ tile in transpose, mine.cu:14");
  CHECK(report.performance[0].message == "slower (mine.cu)");
  CHECK(report.performance[0].diagnosis->message == "bank conflicts in k (mine.cu:7)");
  CHECK(report.performance[0].diagnosis->details[0] == "where: mine.cu:7");
  CHECK(report.notes[0] == "see mine.cu:1");
}
