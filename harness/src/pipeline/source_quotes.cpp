#include "pipeline/source_quotes.hpp"

#include <cctype>
#include <fstream>
#include <optional>

#include "build/staging.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Line `number` (from 1) of `file`, without its newline; nothing past the end or the first
/// 100,000 lines (a file that large is no student's kernel).
std::optional<std::string> line_of(const fs::path& file, long number) {
  std::ifstream in(file, std::ios::binary);
  if (!in || number < 1 || number > 100000) return std::nullopt;
  std::string line;
  for (long n = 1; std::getline(in, line); ++n)
    if (n == number) return line;
  return std::nullopt;
}

}  // namespace

std::string with_quoted_lines(std::string text, const std::map<std::string, fs::path>& files) {
  static constexpr std::string_view anchor = "is at ";
  for (std::size_t at = text.find(anchor); at != std::string::npos; at = text.find(anchor, at + 1)) {
    const std::size_t name_begin = at + anchor.size();
    const std::size_t colon = text.find(':', name_begin);
    if (colon == std::string::npos) break;
    std::size_t digits_end = colon + 1;
    while (digits_end < text.size() && std::isdigit(static_cast<unsigned char>(text[digits_end]))) ++digits_end;
    if (digits_end == colon + 1 || digits_end - colon > 7) continue;
    if (text.compare(digits_end, 3, ": `") == 0) continue;  // quoted already
    const auto file = files.find(text.substr(name_begin, colon - name_begin));
    if (file == files.end()) continue;
    const auto line = line_of(file->second, std::stol(text.substr(colon + 1, digits_end - colon - 1)));
    if (!line) continue;
    text.insert(digits_end, ": " + quoted_source_line(*line));
  }
  return text;
}

std::map<std::string, fs::path> staged_student_files(const std::vector<std::string>& submission,
                                                     const fs::path& work_dir) {
  std::map<std::string, fs::path> files;
  const fs::path staged = work_dir / staging_folder;
  std::error_code ignored;
  // The student's headers, staged under their own names; the course's interface.cuh is not theirs.
  for (const auto& entry : fs::directory_iterator(staged, ignored)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file(ignored) && name != "interface.cuh" && !name.starts_with("submission_"))
      files[name] = entry.path();
  }
  for (std::size_t i = 0; i < submission.size(); ++i)
    files[fs::path(submission[i]).filename().string()] = staged / staged_source_name(i);
  return files;
}

void quote_student_lines(GradeReport& report, const fs::path& work_dir) {
  bool any = false;
  for (const CaseResult& c : report.cases) any = any || c.message.find("is at ") != std::string::npos;
  if (!any) return;  // the folder is listed only for a message that may need it
  const auto files = staged_student_files(report.submission, work_dir);
  for (CaseResult& c : report.cases) c.message = with_quoted_lines(std::move(c.message), files);
}

}  // namespace cugrade
