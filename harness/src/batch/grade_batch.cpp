#include "batch/grade_batch.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/printable.hpp"
#include "batch/batch_summary.hpp"
#include "batch/gradebook.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/lane_claims.hpp"
#include "batch/regrade_diff.hpp"
#include "batch/regrade_parts.hpp"
#include "batch/resume.hpp"
#include "batch/student_paths.hpp"
#include "batch/student_reports.hpp"
#include "batch/submission_fingerprint.hpp"
#include "batch/submission_source.hpp"
#include "batch/submission_time.hpp"
#include "batch/ungraded_report.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/scheduler.hpp"
#include "run/run_job.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// One student on its way through the batch.
struct Slot {
  SubmissionSource source;
  Result<SubmissionFingerprint> print = fail("not read yet");
  std::string reason;                   ///< why it is graded now
  CheckOptions options;                 ///< its own submission and work folder
  std::optional<BuiltSubmission> built; ///< after a build
  std::optional<RanSubmission> ran;     ///< after its run, until it is scored
  std::optional<GradeReport> early;     ///< a result known without running (nothing to build, a fault)
  std::optional<SubmissionTime> submitted;  ///< when it was handed in, once its files are found
  double unpack_seconds = 0.0;
};

/// The whole state of one batch run.
class Batch {
 public:
  Batch(const CheckContext& context, const Spec& spec, const Grader& grader, const BatchOptions& options,
        const BatchCallbacks& callbacks)
      : context_(context), spec_(spec), grader_(grader), options_(options), callbacks_(callbacks) {
    if (!context_.baselines) context_.baselines = std::make_shared<BaselineCache>();
    if (!context_.counters) context_.counters = kept_counters(context_.device);
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;
  ~Batch() {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    if (shard_lock_fd_ >= 0) ::close(shard_lock_fd_);
  }

  Result<BatchSummary> run();

 private:
  void log(const std::string& line) {
    std::lock_guard lock(events_);
    if (callbacks_.log) callbacks_.log(line);
  }
  fs::path work_of(const Slot& slot) const { return student_work_dir(options_.out, slot.source.student); }
  /// The batch's own folders under work/ are its shard's alone: shards of one class run side by
  /// side (other nodes, one folder) and each removes its folders when it starts and ends.
  std::string shared_suffix() const {
    return options_.shard ? fmt::format("-shard-{}-of-{}", options_.shard->index, options_.shard->count) : "";
  }
  void prepare_and_build(Slot& slot);
  void run_on_lane(Slot& slot, std::size_t lane);
  /// Takes the reference's timing baselines on `lane`'s GPU into context_.baselines (take_baselines_now).
  void take_lane_baselines(std::size_t lane);
  void score_and_record(Slot& slot);
  void record(Slot& slot, GradeReport report, const StageSeconds& seconds);

  CheckContext context_;  ///< with the device probed once for the whole batch
  const Spec& spec_;
  const Grader& grader_;
  const BatchOptions& options_;
  const BatchCallbacks& callbacks_;
  bool use_cuda_ = false;
  GradingSettings settings_;  ///< how this batch grades, kept in every record (grading_settings.hpp)
  std::size_t cpu_threads_per_run_ = 1;
  int lock_fd_ = -1;    ///< OUT/.lock, held while the batch runs
  int shard_lock_fd_ = -1;  ///< OUT/.lock-shard-I-of-N, held while a shard runs
  std::mutex events_;   ///< serializes callbacks
  std::mutex totals_;   ///< guards summary_
  BatchSummary summary_;
  /// Per lane: ready once its baselines were taken ahead (take_lane_baselines); empty: none taken.
  std::vector<std::shared_future<void>> lane_ready_;
  /// Each lane's GPU claimed against other cugrade processes for one submission's run or the
  /// baselines (batch/lane_claims.hpp); made once the backend is known.
  std::optional<LaneClaims> lane_claims_;
};

void Batch::prepare_and_build(Slot& slot) {
  const auto started = Clock::now();
  const fs::path work = work_of(slot);
  try {
    std::error_code ec;
    fs::remove_all(work, ec);  // what a killed run left behind
    fs::create_directories(work, ec);
    if (ec) {
      slot.early = harness_failure_report(spec_, slot.options, use_cuda_, "cannot create " + work.string() + ": " + ec.message());
      return;
    }
    // What could not be fingerprinted (a link, a pipe, past the size limit) is not unpacked or
    // read either: the reason is the student's result.
    if (!slot.print || !slot.print->refused.empty()) {
      slot.early = unbuildable_report(spec_, slot.options, use_cuda_,
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
    auto prepared = submission_root(slot.source, work, options_.unpack);
    if (!prepared) {
      slot.early = unbuildable_report(spec_, slot.options, use_cuda_, prepared.error().message);
      return;
    }
    const fs::path root = prepared->folder;
    const bool archive = prepared->from_archive;
    // Without better evidence in the files (a commit, the LMS's metadata): the archive's entry
    // times, else the files' modification times.
    SubmissionTime fallback{slot.print->submitted_unix, archive ? "archive file" : "files"};
    if (prepared->newest_file_unix > 0) fallback = {prepared->newest_file_unix, "archive"};
    auto files = find_submission_files(root, spec_.limits);
    if (!loose)
      slot.submitted = submission_time(context_.processes, root, files ? *files : std::vector<fs::path>{}, fallback, archive);
    slot.unpack_seconds += seconds_since(started);
    if (!files) {
      slot.early = unbuildable_report(spec_, slot.options, use_cuda_, files.error().message);
      return;
    }
    slot.options.submission = *files;
    slot.options.work_dir = work / "build";
    slot.options.keep_work_dir = true;  // the batch removes work/<student> as a whole
    slot.built = build_for_check(context_, spec_, grader_, slot.options);
  } catch (const std::exception& e) {
    // A harness bug on one submission must not end the batch: it is recorded as ours.
    slot.early = harness_failure_report(spec_, slot.options, use_cuda_, e.what());
  }
}

void Batch::take_lane_baselines(std::size_t lane) {
  CheckOptions base = options_.check;
  base.runner_environment.clear();
  const CheckOptions options = options_on_gpu(std::move(base), options_.gpu_lanes, lane);
  const fs::path work = options_.out / "work" / fmt::format(".baselines{}-{}", shared_suffix(), lane);  // no student's folder starts with '.'
  try {
    std::error_code ec;
    fs::remove_all(work, ec);
    fs::create_directories(work, ec);
    const LaneClaim claim = lane_claims_->claim_gpu(lane);  // `lane` is a GPU here
    const double seconds = take_baselines_now(context_, spec_, grader_, options, work);
    if (seconds > 0.0) log(fmt::format("took the reference's timing baselines on GPU {} in {:.1f} s while the first files built",
                                       options_.gpu_lanes[lane], seconds));
  } catch (const std::exception& e) {  // the lane's first check takes them, and says what failed
    log(fmt::format("the reference's timing baselines could not be taken ahead ({}); each check takes its own", e.what()));
  }
  std::error_code ignored;
  fs::remove_all(work, ignored);
}

void Batch::run_on_lane(Slot& slot, std::size_t lane) {
  if (slot.early) return;
  const std::size_t gpu = lane_claims_->gpu_of(lane);  // lanes sharing a GPU take turns on it
  if (gpu < lane_ready_.size()) lane_ready_[gpu].wait();  // the baselines taken ahead, before any student's run
  const LaneClaim claim = lane_claims_->claim(lane);
  const auto started = Clock::now();
  try {
    CheckOptions options = options_on_gpu(slot.options, use_cuda_ ? options_.gpu_lanes : std::vector<std::string>{}, gpu);
    options.lanes = std::max<std::size_t>(1, options_.gpu_lanes.size());
    if (!use_cuda_) options.runner_environment[cpu_threads_variable] = std::to_string(cpu_threads_per_run_);
    CheckContext context = context_;
    context.gpu_turns = use_cuda_ ? lane_claims_->turns_of(lane) : nullptr;
    context.failures_again_alone = true;  // a neighbour never costs a point (pipeline/alone_rerun.hpp)
    slot.ran = run_submission(context, spec_, grader_, options, std::move(*slot.built));
  } catch (const std::exception& e) {
    slot.early = harness_failure_report(spec_, slot.options, use_cuda_, e.what());
  }
  slot.built.reset();
  if (!options_.gpu_lanes.empty()) {
    std::lock_guard lock(totals_);
    summary_.times.lane_busy += seconds_since(started);
  }
}

void Batch::score_and_record(Slot& slot) {
  StageSeconds seconds;
  if (slot.early) {
    record(slot, std::move(*slot.early), seconds);
    return;
  }
  GradeReport report;
  try {
    report = score_submission(spec_, slot.options, std::move(*slot.ran), &seconds);
  } catch (const std::exception& e) {
    report = harness_failure_report(spec_, slot.options, use_cuda_, e.what());
  }
  slot.ran.reset();
  record(slot, std::move(report), seconds);
}

void Batch::record(Slot& slot, GradeReport report, const StageSeconds& seconds) {
  // A shard runs as one task of a Slurm job, which is ended by a signal to every process of it
  // (scancel, a node failure, the time limit, preemption): a build or run in flight may have died
  // of that signal rather than of the student's code, so nothing finished after it is kept as a
  // grade. The student stays without a result, for the requeued task or the next run.
  // Slurm signals the task's processes one by one, so a compiler or runner may die of it a moment
  // before this process's own handler sets the flag: a result that did not pass waits for it briefly.
  if (options_.shard && options_.stop && report.outcome != Outcome::passed)
    for (int waited_ms = 0; waited_ms < 1000 && !options_.stop->load(); waited_ms += 50)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (options_.shard && options_.stop && options_.stop->load()) {
    log(printable(slot.source.student) + ": not recorded: the shard was told to stop while grading it (graded again later)");
    return;
  }
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
  record.settings = settings_;
  record.seconds = seconds;
  record.unpack_seconds = slot.unpack_seconds;
  record.report = std::move(report);
  // The reports first, the record last: the record is what says "done", so a run killed in
  // between grades this student again rather than keeping a result without its reports.
  auto written = write_student_reports(options_.out, record);
  if (written) written = save_record(options_.out, record);
  if (!written) {
    log(printable(record.student) + ": cannot write the result: " + written.error().message);
    std::lock_guard lock(totals_);
    summary_.harness_errors.push_back(printable(record.student) + ": cannot write the result: " + written.error().message);
    return;
  }
  if (!options_.keep_work) {
    std::error_code ec;
    fs::remove_all(work_of(slot), ec);
  }
  {
    std::lock_guard lock(totals_);
    ++summary_.graded_now;
    summary_.times.unpack += record.unpack_seconds;
    summary_.times.stages.build += seconds.build;
    summary_.times.stages.inputs += seconds.inputs;
    summary_.times.stages.run += seconds.run;
    summary_.times.stages.timing += seconds.timing;
    summary_.times.stages.diagnosis += seconds.diagnosis;
  }
  std::lock_guard lock(events_);
  if (callbacks_.finished) callbacks_.finished(record);
}

Result<BatchSummary> Batch::run() {
  const auto started = Clock::now();
  // `--out` inside the submissions folder is not graded as a student.
  auto listing = list_submissions(options_.submissions, options_.out);
  if (!listing) return std::unexpected(listing.error());
  summary_.skipped = listing->skipped;
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
  // A folder with no submission is the wrong folder (one student's, the class's parent), never an
  // empty class to write a gradebook for: nothing is written, and the message says what to give.
  if (listing->submissions.empty()) return fail(no_submission_message(options_.submissions, *listing, spec_.id));
  auto regrade = parse_regrade(options_.regrade, listing->submissions);
  if (!regrade) return std::unexpected(regrade.error());
  std::error_code ec;
  fs::create_directories(options_.out / "results", ec);
  if (ec) return fail("cannot create the output folder " + options_.out.string() + ": " + ec.message());
  // Two batches writing one folder would grade students twice and race on their files. The lock
  // goes with the process, so a batch that was killed never leaves it behind.
  lock_fd_ = ::open((options_.out / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // The parts of a sharded class share the folder (each holds .lock shared, its own part's lock
  // alone); a whole class holds it alone.
  if (lock_fd_ < 0 || ::flock(lock_fd_, (options_.shard ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0)
    return fail("another `cugrade grade` is writing to " + options_.out.string() + "; wait for it to end");
  if (options_.shard) {
    shard_lock_fd_ = ::open((options_.out / fmt::format(".lock-shard-{}-of-{}", options_.shard->index, options_.shard->count)).c_str(),
                            O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (shard_lock_fd_ < 0) return fail("cannot create a lock file in " + options_.out.string());
    // A requeued task may start while its killed predecessor still finishes the student it was
    // grading: it waits for it, then grades what is still missing.
    if (::flock(shard_lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      log("another `cugrade grade --shard " + shard_text(*options_.shard) + "` is writing to " + options_.out.string() +
          "; waiting for it to end");
      if (::flock(shard_lock_fd_, LOCK_EX) != 0) return fail("cannot lock " + options_.out.string());
    }
  }

  // Every student gets the same cases: their inputs and gold are made once for the class, and each
  // input file is written once, into a folder every student's work folder links to.
  const fs::path shared_inputs = options_.out / "work" / (".inputs" + shared_suffix());  // no student's folder starts with '.'
  if (!context_.materials) {
    try {
      context_.materials = std::make_shared<CaseMaterials>(shared_inputs);
    } catch (const std::exception& e) {
      return fail("cannot create " + shared_inputs.string() + ": " + e.what());
    }
  }

  // One probe for the whole class, not one per submission.
  if (options_.check.backend != Backend::cpu && !context_.device)
    context_.device = find_device(context_.processes, context_.locations);
  const DeviceInfo device = options_.check.backend == Backend::cpu ? DeviceInfo{} : *context_.device;
  use_cuda_ = options_.check.backend == Backend::cuda ||
              (options_.check.backend == Backend::automatic && device.present());
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t builders = options_.jobs ? options_.jobs : cores;
  const std::size_t gpus = use_cuda_ ? options_.gpu_lanes.size() : 0;
  cpu_threads_per_run_ = cpu_threads_per_worker(builders);
  settings_ = grading_settings(spec_, options_.check, use_cuda_);
  lane_claims_.emplace(use_cuda_ ? context_.device : std::nullopt, options_.gpu_lanes,
                       [this](const std::string& line) { log(line); }, use_cuda_ ? options_.runs_per_gpu : 1);
  const std::size_t lanes = use_cuda_ ? lane_claims_->lanes() : 0;  // lanes_per_gpu of each GPU

  if (regrade->all) log("--regrade: every submission is graded again");
  RegradeDiff regrade_diff(spec_);
  // Decide who is graded now, from what an earlier run left.
  std::vector<Slot> slots;
  std::vector<std::string> students;
  for (const auto& source : listing->submissions) {
    if (options_.shard && !in_shard(source.student, *options_.shard)) continue;  // another part's
    students.push_back(source.student);
    const auto hashing = Clock::now();
    Result<SubmissionFingerprint> print = fingerprint_submission(source);
    const auto previous = load_record(options_.out, source.student);
    const GradeDecision decision = decide_grading(source.student, print, previous, *regrade, settings_);
    if (!decision.grade) {
      ++summary_.up_to_date;
      continue;
    }
    regrade_diff.remember(previous);  // to compare with once graded again (regrade.csv)
    // One line for --regrade of everyone, not one per student.
    if (decision.again && !(regrade->all && decision.reason == "--regrade"))
      log(printable(source.student) + ": graded again: " + decision.reason);
    Slot slot;
    slot.source = source;
    slot.print = std::move(print);
    slot.reason = decision.reason;
    slot.options = options_.check;
    slot.options.progress = nullptr;  // one line per student comes from the batch instead
    slot.options.runner_environment = {};
    slot.unpack_seconds = seconds_since(hashing);
    slots.push_back(std::move(slot));
  }
  {
    std::lock_guard lock(events_);
    if (callbacks_.planned) callbacks_.planned(students.size(), slots.size());
  }

  // While the first files build, each lane's GPU is idle and no student's process can use it:
  // the reference's timing baselines are taken then, and its first submission finds them kept.
  lane_ready_.clear();
  if (use_cuda_ && options_.check.performance && !slots.empty())
    for (std::size_t lane = 0; lane < gpus; ++lane)  // one per GPU
      lane_ready_.push_back(std::async(std::launch::async, [this, lane] { take_lane_baselines(lane); }).share());

  schedule_batch(slots.size(), WorkerPlan{builders, lanes, 0, gpus},
                 [&](std::size_t i) { prepare_and_build(slots[i]); },
                 [&](std::size_t i, std::size_t lane) { run_on_lane(slots[i], lane); }, options_.stop,
                 [&](std::size_t i) { score_and_record(slots[i]); });

  // The gradebook: every current student's record, whenever it was written.
  std::vector<StudentRecord> records;
  std::vector<std::string> not_graded;
  for (const auto& student : students) {
    auto loaded = load_record(options_.out, student);
    if (loaded && loaded->has_value()) records.push_back(std::move(**loaded));
    else not_graded.push_back(student);
  }
  summary_.not_finished = not_graded.size();
  summary_.stopped = summary_.not_finished > 0 && options_.stop && options_.stop->load();
  count_records(records, summary_);
  if (!summary_.setup_problem.empty()) log("warning: " + summary_.setup_problem);
  // A part of the class writes no gradebook: the others' rows are not its to know (`--collect`).
  if (options_.shard) {
    const std::string part = fmt::format("{}-of-{}", options_.shard->index, options_.shard->count);
    if (auto kept = save_regrade_part(options_.out, part, regrade_diff.find(records)); !kept)
      return std::unexpected(kept.error());
    summary_.times.builders = builders;
    summary_.times.lanes = lanes;
    summary_.times.gpu_waited = lane_claims_->waited_s();
    summary_.times.wall = seconds_since(started);
    return summary_;
  }
  auto gradebook = write_class_files(spec_, options_.out, records, not_graded, options_.deadline_unix, use_cuda_,
                                     summary_.setup_problem, {options_.check.course_secret, options_.leaderboard_names},
                                     options_.late ? &*options_.late : nullptr);
  if (!gradebook) return std::unexpected(gradebook.error());
  if (options_.late) summary_.late_note = lateness_summary(*options_.late, records);
  auto regraded = regrade_diff.write(options_.out, records);
  if (!regraded) return std::unexpected(regraded.error());
  summary_.regrade_note = *regraded;
  summary_.gradebook = *gradebook;
  summary_.times.builders = builders;
  summary_.times.lanes = lanes;
  summary_.times.gpus = gpus;
  summary_.times.runs_per_gpu = use_cuda_ ? std::max<std::size_t>(1, options_.runs_per_gpu) : 1;
  summary_.times.gpu_waited = lane_claims_->waited_s();
  summary_.times.wall = seconds_since(started);
  return summary_;
}

}  // namespace

Result<BatchSummary> grade_batch(const CheckContext& context, const Spec& spec, const Grader& grader,
                                 const BatchOptions& options, const BatchCallbacks& callbacks) {
  return Batch(context, spec, grader, options, callbacks).run();
}

}  // namespace cugrade
