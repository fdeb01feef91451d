// Writes the JUnit reports that junit_schema_test.sh validates against the published JUnit
// schema: a perfect submission, a compile error, a mixed one (passes, wrong answers, a crash,
// hidden cases, timed steps), an empty template, a harness fault and one with hostile text.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "report/junit_report.hpp"
#include "report/sample_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cugrade_junit_samples OUT_DIR\n";
    return 1;
  }
  using namespace cugrade;
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const GradeReport& report) {
    std::ofstream(dir / name, std::ios::binary) << render_junit(report);
  };
  write("perfect.xml", test::perfect_report());
  write("compile_error.xml", test::compile_error_report());
  write("mixed.xml", test::sample_report());
  write("empty_template.xml", test::empty_template_report());

  GradeReport fault = test::sample_report();
  fault.cases[3].outcome = Outcome::harness_error;  // an <error>, not a failure
  fault.cases[0].outcome = Outcome::not_run;        // a <skipped>
  fault.performance[0].outcome = Outcome::not_run;
  write("harness_fault.xml", fault);

  GradeReport hostile = test::sample_report();
  hostile.cases[3].message = "a ]]> <b>&amp; \x1b[31mred\x1b[0m \xff\xfe and \"quotes\"";
  hostile.build.diagnostics[0].file = "a<b>.cu";
  hostile.environment.host = "host\"name";
  write("hostile_text.xml", hostile);
  return 0;
}
