#include "batch/collect_class.hpp"

#include "batch/batch_summary.hpp"
#include "batch/gradebook.hpp"
#include "batch/regrade_parts.hpp"
#include "batch/student_reports.hpp"
#include "batch/submission_source.hpp"
#include "core/atomic_file.hpp"
#include "core/printable.hpp"

namespace cugrade {

Result<std::vector<std::string>> students_without_result(const CollectOptions& options) {
  auto listing = list_submissions(options.submissions, options.out);
  if (!listing) return std::unexpected(listing.error());
  std::vector<std::string> missing;
  for (const auto& source : listing->submissions) {
    auto loaded = load_record(options.out, source.student);
    if (!loaded || !loaded->has_value()) missing.push_back(source.student);
  }
  return missing;
}

Result<BatchSummary> collect_class(const Spec& spec, const CollectOptions& options) {
  auto listing = list_submissions(options.submissions, options.out);
  if (!listing) return std::unexpected(listing.error());
  if (listing->submissions.empty()) return fail(no_submission_message(options.submissions, *listing, spec.id));
  BatchSummary summary;
  summary.skipped = listing->skipped;
  std::vector<StudentRecord> records;
  std::vector<std::string> not_graded;
  for (const auto& source : listing->submissions) {
    auto loaded = load_record(options.out, source.student);
    if (!loaded || !loaded->has_value()) {
      not_graded.push_back(source.student);
      continue;
    }
    StudentRecord& record = **loaded;
    if (options.graded_now.contains(record.student)) {
      ++summary.graded_now;
      summary.times.unpack += record.unpack_seconds;
      summary.times.stages.build += record.seconds.build;
      summary.times.stages.inputs += record.seconds.inputs;
      summary.times.stages.run += record.seconds.run;
      summary.times.stages.timing += record.seconds.timing;
      summary.times.stages.diagnosis += record.seconds.diagnosis;
    } else {
      ++summary.up_to_date;
    }
    records.push_back(std::move(record));
  }
  count_records(records, summary);
  // Each one a harness error of its own: no points lost, listed, and the exit code says so.
  for (const auto& student : not_graded) summary.harness_errors.push_back(printable(student) + ": " + no_result_written);
  summary.not_finished = not_graded.size();
  const bool cuda = std::any_of(records.begin(), records.end(),
                                [](const StudentRecord& r) { return r.report.environment.backend == "cuda"; });
  auto gradebook = write_class_files(spec, options.out, records, not_graded, options.deadline_unix, cuda,
                                     summary.setup_problem, options.leaderboard, options.late ? &*options.late : nullptr);
  if (!gradebook) return std::unexpected(gradebook.error());
  if (options.late) summary.late_note = lateness_summary(*options.late, records);
  auto regraded = collect_regrade_parts(options.out);  // what the parts graded again
  if (!regraded) return std::unexpected(regraded.error());
  summary.regrade_note = *regraded;
  summary.gradebook = *gradebook;
  return summary;
}

}  // namespace cugrade
