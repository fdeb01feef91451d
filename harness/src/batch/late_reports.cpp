#include "batch/late_reports.hpp"

#include <set>
#include <sstream>
#include <string>

#include "batch/student_paths.hpp"
#include "batch/student_reports.hpp"
#include "core/atomic_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

fs::path late_noted_file(const fs::path& out) { return out / ".late-noted"; }

Result<bool> write_lateness_notes(const fs::path& out, const std::vector<StudentRecord>& records, const LatePlan* plan) {
  std::set<std::string> noted_before;
  std::error_code ec;
  if (fs::exists(late_noted_file(out), ec)) {
    auto text = read_whole_file(late_noted_file(out));
    if (!text) return std::unexpected(text.error());
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty()) noted_before.insert(line);
  }
  if (!plan && noted_before.empty()) return true;  // the common case: nothing to write, nothing to undo
  std::string noted_now;
  for (const StudentRecord& record : records) {
    const std::string name = student_path_name(record.student);
    const std::string note =
        plan ? lateness_note(*plan, assess_student(*plan, record), record.report.max_score) : std::string();
    if (note.empty() && !noted_before.contains(name)) continue;
    StudentRecord shown = record;
    if (!note.empty()) {
      shown.report.notes.push_back(note);
      noted_now += name + "\n";
    }
    if (auto written = write_student_reports(out, shown); !written) return written;
  }
  if (noted_now.empty()) {
    fs::remove(late_noted_file(out), ec);
    if (ec) return fail("cannot remove " + late_noted_file(out).string() + ": " + ec.message());
    return true;
  }
  return write_file_atomically(late_noted_file(out), noted_now);
}

}  // namespace cugrade
