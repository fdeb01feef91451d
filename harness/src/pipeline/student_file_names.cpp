#include "pipeline/student_file_names.hpp"

#include <cctype>

#include "build/staging.hpp"

namespace cugrade {

namespace {

/// Whether `c` may stand in a file name: the staged name is a name of its own only where the
/// character before it cannot (not inside "mysubmission_0.cu").
bool name_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }

}  // namespace

std::string with_student_file_names(std::string text, const std::vector<std::string>& names) {
  // From the last file to the first, so that submission_1.cu is never read inside submission_10.cu.
  for (std::size_t i = names.size(); i-- > 0;) {
    const std::string staged = staged_source_name(i);
    for (const std::string& form : {std::string(staging_folder) + "/" + staged, staged})
      for (std::size_t at = text.find(form); at != std::string::npos;) {
        if (at > 0 && name_character(text[at - 1])) {
          at = text.find(form, at + form.size());
          continue;
        }
        text.replace(at, form.size(), names[i]);
        at = text.find(form, at + names[i].size());
      }
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
