// Writes the sample HTML reports the browser tests render: a student's page, a compile error's
// page, an empty template's page (every case failing alike) and a class summary, from the same made-up reports as the golden tests.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "report/class_summary_html.hpp"
#include "report/html_report.hpp"
#include "report/sample_class.hpp"
#include "report/sample_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cugrade_report_samples OUT_DIR\n";
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const std::string& html) {
    std::ofstream(dir / name, std::ios::binary) << html;
  };
  write("student.html", cugrade::render_html(cugrade::test::sample_report()));
  write("compile_error.html", cugrade::render_html(cugrade::test::compile_error_report()));
  write("empty_template.html", cugrade::render_html(cugrade::test::empty_template_report()));
  write("class_summary.html",
        cugrade::render_class_summary_html(cugrade::test::sample_class(),
                                           {.subtitle = "a made-up class of twelve"}));
  return 0;
}
