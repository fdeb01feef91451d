// Writes the Classroom 50 results that classroom50_schema_test.sh validates against Classroom 50's
// published schema: a perfect submission, a compile error, a mixed one (passes, wrong answers, a
// crash, hidden cases, timed steps), an empty template, a harness fault and one with hostile text,
// each with the identity Classroom 50's runner sets in the environment.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "report/classroom50_report.hpp"
#include "report/sample_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cugrade_classroom50_samples OUT_DIR (with Classroom 50's variables set)\n";
    return 1;
  }
  using namespace cugrade;
  auto identity = classroom50_identity_from_environment();
  if (!identity) {
    std::cerr << identity.error().message << "\n";
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const GradeReport& report) {
    std::ofstream(dir / name, std::ios::binary) << report_to_classroom50(report, *identity).dump(2) << "\n";
  };
  write("perfect.json", test::perfect_report());
  write("compile_error.json", test::compile_error_report());
  write("mixed.json", test::sample_report());
  write("empty_template.json", test::empty_template_report());

  GradeReport fault = test::sample_report();
  fault.cases[3].outcome = Outcome::harness_error;
  fault.cases[0].outcome = Outcome::not_run;
  fault.performance[0].outcome = Outcome::not_run;
  write("harness_fault.json", fault);

  GradeReport hostile = test::sample_report();
  hostile.cases[3].message = "a ]]> <b>&amp; \x1b[31mred\x1b[0m \xff\xfe and \"quotes\"";
  hostile.build.diagnostics[0].file = "a<b>.cu";
  hostile.started_at = "not a time";
  std::ofstream(dir / "hostile_text.json", std::ios::binary)
      << report_to_classroom50(hostile, *identity).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}
