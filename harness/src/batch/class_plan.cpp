#include "batch/class_plan.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "batch/submission_fingerprint.hpp"
#include "core/printable.hpp"
#include "pipeline/stage_progress.hpp"

namespace cugrade {

Result<SubmissionListing> list_class(const BatchOptions& options, const std::string& assignment, const BatchLog& log) {
  auto listing = list_submissions(options.submissions, options.out);
  if (!listing) return std::unexpected(listing.error());
  for (const auto& line : listing->skipped) log("skipped " + line);
  const auto of_kind = [&](SourceKind kind) {
    return std::count_if(listing->submissions.begin(), listing->submissions.end(),
                         [&](const SubmissionSource& s) { return s.kind == kind; });
  };
  if (const auto canvas = of_kind(SourceKind::canvas))
    log(fmt::format("Canvas's download: the files of {} student{}, each student's together by name and user id; "
                    "late as Canvas marked it",
                    canvas, canvas == 1 ? "" : "s"));
  if (const auto blackboard = of_kind(SourceKind::blackboard))
    log(fmt::format("Blackboard's download: the files of {} student{}, each student's last attempt together by user "
                    "name; handed in at the attempt's time in the names (Blackboard's, read as this machine's local time)",
                    blackboard, blackboard == 1 ? "" : "s"));
  if (listing->submissions.empty()) return fail(no_submission_message(options.submissions, *listing, assignment));
  return listing;
}

ClassPlan plan_class(const std::vector<SubmissionSource>& submissions, const BatchOptions& options,
                     const RegradeSelection& regrade, const GradingSettings& settings, const BatchLog& log,
                     RegradeDiff& regrade_diff) {
  if (regrade.all) log("--regrade: every submission is graded again");
  ClassPlan plan;
  for (const auto& source : submissions) {
    if (options.shard && !in_shard(source.student, *options.shard)) continue;  // another part's
    plan.students.push_back(source.student);
    const auto hashing = std::chrono::steady_clock::now();
    Result<SubmissionFingerprint> print = fingerprint_submission(source);
    const auto previous = load_record(options.out, source.student);
    const GradeDecision decision = decide_grading(source.student, print, previous, regrade, settings);
    if (!decision.grade) {
      ++plan.up_to_date;
      continue;
    }
    regrade_diff.remember(previous);  // to compare with once graded again (regrade.csv)
    // One line for --regrade of everyone, not one per student.
    if (decision.again && !(regrade.all && decision.reason == "--regrade"))
      log(printable(source.student) + ": graded again: " + decision.reason);
    StudentSlot slot;
    slot.source = source;
    slot.print = std::move(print);
    slot.reason = decision.reason;
    slot.options = options.check;
    slot.options.progress = nullptr;  // one line per student comes from the batch instead
    slot.options.runner_environment = {};
    slot.unpack_seconds = seconds_since(hashing);
    plan.slots.push_back(std::move(slot));
  }
  return plan;
}

}  // namespace cugrade
