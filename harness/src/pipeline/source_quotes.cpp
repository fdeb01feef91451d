#include "pipeline/source_quotes.hpp"

#include <cctype>
#include <fstream>
#include <optional>
#include <vector>

#include "build/staging.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// The files' lines, each file read once at its first quote: a report quotes the same line in
/// many cases. A file past 100,000 lines is read that far (no student's kernel is that large).
class FileLines {
 public:
  /// Line `number` (from 1) of `file`, without its newline; nothing past its end.
  std::optional<std::string> line(const fs::path& file, long number) {
    auto [it, fresh] = lines_.try_emplace(file);
    if (fresh) {
      std::ifstream in(file, std::ios::binary);
      for (std::string line; it->second.size() < 100000 && std::getline(in, line);) it->second.push_back(line);
    }
    if (number < 1 || number > static_cast<long>(it->second.size())) return std::nullopt;
    return it->second[static_cast<std::size_t>(number - 1)];
  }

 private:
  std::map<fs::path, std::vector<std::string>> lines_;
};

std::string quoted_in(std::string text, const std::map<std::string, fs::path>& files, FileLines& lines) {
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
    const auto line = lines.line(file->second, std::stol(text.substr(colon + 1, digits_end - colon - 1)));
    if (!line) continue;
    text.insert(digits_end, ": " + quoted_source_line(*line));
  }
  return text;
}

}  // namespace

std::string with_quoted_lines(std::string text, const std::map<std::string, fs::path>& files) {
  FileLines lines;
  return quoted_in(std::move(text), files, lines);
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
  FileLines lines;
  for (CaseResult& c : report.cases) c.message = quoted_in(std::move(c.message), files, lines);
}

}  // namespace cugrade
