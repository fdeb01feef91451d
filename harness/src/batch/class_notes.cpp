#include "batch/class_notes.hpp"

#include <set>
#include <sstream>
#include <string>

#include "batch/leaderboard.hpp"
#include "batch/student_paths.hpp"
#include "batch/student_reports.hpp"
#include "core/atomic_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// What an earlier cugrade called OUT/.noted when only late notes were written: read, then removed.
fs::path late_noted_file(const fs::path& out) { return out / ".late-noted"; }

Result<bool> read_noted(const fs::path& file, std::set<std::string>& noted) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return true;
  auto text = read_whole_file(file);
  if (!text) return std::unexpected(text.error());
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) noted.insert(line);
  return true;
}

}  // namespace

fs::path class_noted_file(const fs::path& out) { return out / ".noted"; }

std::vector<std::string> class_notes_of(const ClassNotes& notes, const StudentRecord& record) {
  std::vector<std::string> lines;
  if (notes.late)
    if (std::string note = lateness_note(*notes.late, assess_student(*notes.late, record), record.report.max_score);
        !note.empty())
      lines.push_back(std::move(note));
  if (const auto name = notes.pseudonyms.find(record.student); name != notes.pseudonyms.end())
    lines.push_back(leaderboard_note(name->second));
  return lines;
}

Result<bool> write_class_notes(const fs::path& out, const std::vector<StudentRecord>& records, const ClassNotes& notes) {
  std::set<std::string> noted_before;
  for (const fs::path& file : {class_noted_file(out), late_noted_file(out)})
    if (auto read = read_noted(file, noted_before); !read) return read;
  if (!notes.late && notes.pseudonyms.empty() && noted_before.empty()) return true;  // nothing to write or undo
  std::string noted_now;
  for (const StudentRecord& record : records) {
    const std::string name = student_path_name(record.student);
    const std::vector<std::string> lines = class_notes_of(notes, record);
    if (lines.empty() && !noted_before.contains(name)) continue;
    StudentRecord shown = record;
    shown.report.notes.insert(shown.report.notes.end(), lines.begin(), lines.end());
    if (!lines.empty()) noted_now += name + "\n";
    if (auto written = write_student_reports(out, shown); !written) return written;
  }
  std::error_code ec;
  fs::remove(late_noted_file(out), ec);
  if (ec) return fail("cannot remove " + late_noted_file(out).string() + ": " + ec.message());
  if (noted_now.empty()) {
    fs::remove(class_noted_file(out), ec);
    if (ec) return fail("cannot remove " + class_noted_file(out).string() + ": " + ec.message());
    return true;
  }
  return write_file_atomically(class_noted_file(out), noted_now);
}

}  // namespace cugrade
