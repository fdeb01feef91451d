#include "batch/resume.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "spec/suggest.hpp"

namespace cugrade {

Result<RegradeSelection> parse_regrade(const std::optional<std::string>& value,
                                       const std::vector<SubmissionSource>& submissions) {
  RegradeSelection selection;
  if (!value) return selection;
  std::vector<std::string> known;
  for (const auto& s : submissions) known.push_back(s.student);
  // An id may hold a comma ("smith, john"): the whole value naming one is that student.
  if (std::find(known.begin(), known.end(), *value) != known.end()) {
    selection.students.insert(*value);
    return selection;
  }
  std::size_t start = 0;
  bool any = false;
  while (start <= value->size()) {
    std::size_t end = value->find(',', start);
    if (end == std::string::npos) end = value->size();
    std::string name = value->substr(start, end - start);
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    start = end + 1;
    if (name.empty()) continue;
    any = true;
    if (std::find(known.begin(), known.end(), name) == known.end())
      return fail(fmt::format("--regrade: there is no submission of '{}'{}", name, did_you_mean(name, known)));
    selection.students.insert(name);
  }
  selection.all = !any;
  return selection;
}

GradeDecision decide_grading(const std::string& student, const Result<SubmissionFingerprint>& now,
                             const Result<std::optional<StudentRecord>>& previous, const RegradeSelection& regrade,
                             const GradingSettings& settings) {
  if (!previous) return {true, "its earlier result cannot be used (" + previous.error().message + ")", true};
  if (!previous->has_value()) return {true, "not graded yet", false};
  const StudentRecord& before = **previous;
  if (regrade.includes(student)) return {true, regrade.all ? "--regrade" : "--regrade " + student, true};
  if (!now) return {true, "its files cannot be read", true};
  if (before.source_sha256.empty()) return {true, "its files could not be read last time", true};
  if (before.source_sha256 != now->sha256) return {true, "its files changed since it was graded", true};
  if (const std::string changed = settings_changed(before.settings, settings); !changed.empty())
    return {true, "it was graded with other settings: " + changed, true};
  if (before.report.outcome == Outcome::harness_error)
    return {true, "the last attempt ended in a harness error", true};
  return {false, "up to date", false};
}

}  // namespace cugrade
