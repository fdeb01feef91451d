#include "pipeline/student_file_names.hpp"

#include "build/staging.hpp"

namespace cugrade {

std::string with_student_file_names(std::string text, const std::vector<std::string>& names) {
  // From the last file to the first, so that submission_1.cu is never read inside submission_10.cu.
  for (std::size_t i = names.size(); i-- > 0;) {
    const std::string staged = staged_source_name(i);
    for (const std::string& form : {std::string(staging_folder) + "/" + staged, staged})
      for (std::size_t at = text.find(form); at != std::string::npos; at = text.find(form, at + names[i].size()))
        text.replace(at, form.size(), names[i]);
  }
  return text;
}

void show_student_file_names(GradeReport& report) {
  const std::vector<std::string>& names = report.submission;
  if (names.empty()) return;
  const auto name = [&](std::string& text) { text = with_student_file_names(std::move(text), names); };
  for (auto& c : report.cases) name(c.message);
  for (auto& p : report.performance) {
    name(p.message);
    if (p.diagnosis) {
      name(p.diagnosis->message);
      for (auto& d : p.diagnosis->details) name(d);
    }
  }
  for (auto& n : report.notes) name(n);
}

}  // namespace cugrade
