#include "batch/student_slot.hpp"

#include <chrono>
#include <exception>
#include <system_error>
#include <vector>

#include "batch/blackboard_download.hpp"
#include "batch/ungraded_report.hpp"
#include "pipeline/stage_progress.hpp"

namespace cugrade {
namespace fs = std::filesystem;

void prepare_and_build(StudentSlot& slot, const fs::path& work, const CheckContext& context, const Spec& spec,
                       const Grader& grader, const UnpackLimits& unpack, bool use_cuda) {
  const auto started = std::chrono::steady_clock::now();
  try {
    std::error_code ec;
    fs::remove_all(work, ec);  // what a killed run left behind
    fs::create_directories(work, ec);
    if (ec) {
      slot.early = harness_failure_report(spec, slot.options, use_cuda, "cannot create " + work.string() + ": " + ec.message());
      return;
    }
    // What could not be fingerprinted (a link, a pipe, past the size limit) is not unpacked or
    // read either: the reason is the student's result.
    if (!slot.print || !slot.print->refused.empty()) {
      slot.early = unbuildable_report(spec, slot.options, use_cuda,
                                      slot.print ? slot.print->refused : slot.print.error().message);
      return;
    }
    // The student's files from Canvas's or Blackboard's download, by their own names: then as a folder.
    const bool loose = slot.source.kind == SourceKind::canvas || slot.source.kind == SourceKind::blackboard;
    if (loose) {
      // Its time is the LMS's (the files' times are the download's), known before anything is
      // read: Canvas's own mark, Blackboard's attempt time.
      slot.submitted = slot.source.kind == SourceKind::canvas
                           ? SubmissionTime{0, slot.source.late ? canvas_late : canvas_on_time}
                           : SubmissionTime{blackboard_attempt_unix(slot.source.attempt).value_or(0), blackboard_attempt};
    }
    auto prepared = submission_root(slot.source, work, unpack);
    if (!prepared) {
      slot.early = unbuildable_report(spec, slot.options, use_cuda, prepared.error().message);
      return;
    }
    const fs::path root = prepared->folder;
    const bool archive = prepared->from_archive;
    // Without better evidence in the files (a commit, the LMS's metadata): the archive's entry
    // times, else the files' modification times.
    SubmissionTime fallback{slot.print->submitted_unix, archive ? "archive file" : "files"};
    if (prepared->newest_file_unix > 0) fallback = {prepared->newest_file_unix, "archive"};
    auto files = find_submission_files(root, spec.limits);
    if (!loose)
      slot.submitted = submission_time(context.processes, root, files ? *files : std::vector<fs::path>{}, fallback, archive);
    slot.unpack_seconds += seconds_since(started);
    if (!files) {
      slot.early = unbuildable_report(spec, slot.options, use_cuda, files.error().message);
      return;
    }
    slot.options.submission = *files;
    slot.options.work_dir = work / "build";
    slot.options.keep_work_dir = true;  // the batch removes work/<student> as a whole
    slot.built = build_for_check(context, spec, grader, slot.options);
  } catch (const std::exception& e) {
    // A harness bug on one submission must not end the batch: it is recorded as ours.
    slot.early = harness_failure_report(spec, slot.options, use_cuda, e.what());
  }
}

StudentRecord student_record(const StudentSlot& slot, GradeReport report, const StageSeconds& seconds,
                             const GradingSettings& settings) {
  StudentRecord record;
  record.student = slot.source.student;
  record.source = slot.source.path.filename().string();
  if (slot.print) {
    record.source_sha256 = slot.print->sha256;
    record.submitted_unix = slot.print->submitted_unix;
    record.submitted_from = slot.source.kind == SourceKind::folder ? "files" : "archive file";
  }
  if (slot.submitted) {
    record.submitted_unix = slot.submitted->unix_seconds;
    record.submitted_from = slot.submitted->source;
  }
  if (slot.print && slot.print->holds_nothing() && record.submitted_from != "gradescope") {  // the LMS's word stands
    record.submitted_unix = 0;
    record.submitted_from = nothing_handed_in;
  }
  record.settings = settings;
  record.seconds = seconds;
  record.unpack_seconds = slot.unpack_seconds;
  record.report = std::move(report);
  return record;
}

}  // namespace cugrade
