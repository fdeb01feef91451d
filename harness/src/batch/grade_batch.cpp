#include "batch/grade_batch.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "batch/batch_lock.hpp"
#include "batch/batch_summary.hpp"
#include "batch/class_plan.hpp"
#include "batch/gradebook.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/lane_claims.hpp"
#include "batch/regrade_diff.hpp"
#include "batch/regrade_parts.hpp"
#include "batch/student_paths.hpp"
#include "batch/student_reports.hpp"
#include "batch/student_slot.hpp"
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

  Result<BatchSummary> run();

 private:
  void log(const std::string& line) {
    std::lock_guard lock(events_);
    if (callbacks_.log) callbacks_.log(line);
  }
  fs::path work_of(const StudentSlot& slot) const { return student_work_dir(options_.out, slot.source.student); }
  /// The batch's own folders under work/ are its shard's alone: shards of one class run side by
  /// side (other nodes, one folder) and each removes its folders when it starts and ends.
  std::string shared_suffix() const {
    return options_.shard ? fmt::format("-shard-{}-of-{}", options_.shard->index, options_.shard->count) : "";
  }
  /// Makes the inputs and gold of the class's cases once, into a folder every student's links to.
  Result<void> share_case_materials();
  /// Probes the GPU once for the class; picks the backend, the workers and the lanes.
  void choose_backend();
  /// While the first files build, each GPU is idle and no student's process can use it: the
  /// reference's timing baselines are taken then (take_lane_baselines), where anyone is timed.
  void take_baselines_ahead(bool anyone_graded);
  void run_on_lane(StudentSlot& slot, std::size_t lane);
  /// Takes the reference's timing baselines on `lane`'s GPU into context_.baselines (take_baselines_now).
  void take_lane_baselines(std::size_t lane);
  void score_and_record(StudentSlot& slot);
  void record(StudentSlot& slot, GradeReport report, const StageSeconds& seconds);
  /// The summary, and (for a whole class) the gradebook and class summary from every current
  /// student's record, whenever it was written.
  Result<BatchSummary> finish(const std::vector<std::string>& students, Clock::time_point started,
                              const RegradeDiff& regrade_diff);

  CheckContext context_;  ///< with the device probed once for the whole batch
  const Spec& spec_;
  const Grader& grader_;
  const BatchOptions& options_;
  const BatchCallbacks& callbacks_;
  bool use_cuda_ = false;
  std::size_t builders_ = 1, gpus_ = 0, lanes_ = 0;  ///< builds at a time; GPUs; run lanes (of all GPUs)
  GradingSettings settings_;  ///< how this batch grades, kept in every record (grading_settings.hpp)
  std::size_t cpu_threads_per_run_ = 1;
  std::mutex events_;   ///< serializes callbacks
  std::mutex totals_;   ///< guards summary_
  BatchSummary summary_;
  /// Per lane: ready once its baselines were taken ahead (take_lane_baselines); empty: none taken.
  std::vector<std::shared_future<void>> lane_ready_;
  /// Each lane's GPU claimed against other cugrade processes for one submission's run or the
  /// baselines (batch/lane_claims.hpp); made once the backend is known.
  std::optional<LaneClaims> lane_claims_;
};

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

void Batch::run_on_lane(StudentSlot& slot, std::size_t lane) {
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

void Batch::score_and_record(StudentSlot& slot) {
  StageSeconds seconds;
  if (slot.early) {
    record(slot, std::move(*slot.early), seconds);
    return;
  }
  GradeReport report;
  try {
    report = score_submission(context_, spec_, slot.options, std::move(*slot.ran), &seconds);
  } catch (const std::exception& e) {
    report = harness_failure_report(spec_, slot.options, use_cuda_, e.what());
  }
  slot.ran.reset();
  record(slot, std::move(report), seconds);
}

void Batch::record(StudentSlot& slot, GradeReport report, const StageSeconds& seconds) {
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
  StudentRecord record = student_record(slot, std::move(report), seconds, settings_);
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
  const BatchLog say = [this](const std::string& line) { log(line); };
  auto listing = list_class(options_, spec_.id, say);
  if (!listing) return std::unexpected(listing.error());
  summary_.skipped = listing->skipped;
  auto regrade = parse_regrade(options_.regrade, listing->submissions);
  if (!regrade) return std::unexpected(regrade.error());
  const auto lock = BatchLock::take(options_.out, options_.shard, say);
  if (!lock) return std::unexpected(lock.error());
  if (auto shared = share_case_materials(); !shared) return std::unexpected(shared.error());
  choose_backend();
  RegradeDiff regrade_diff(spec_);  // who graded again changed their score (regrade.csv)
  ClassPlan plan = plan_class(listing->submissions, options_, *regrade, settings_, say, regrade_diff);
  summary_.up_to_date = plan.up_to_date;
  {
    std::lock_guard told(events_);
    if (callbacks_.planned) callbacks_.planned(plan.students.size(), plan.slots.size());
  }
  take_baselines_ahead(!plan.slots.empty());
  std::vector<StudentSlot>& slots = plan.slots;
  schedule_batch(
      slots.size(), WorkerPlan{builders_, lanes_, 0, gpus_},
      [&](std::size_t i) {
        prepare_and_build(slots[i], work_of(slots[i]), context_, spec_, grader_, options_.unpack, use_cuda_);
      },
      [&](std::size_t i, std::size_t lane) { run_on_lane(slots[i], lane); }, options_.stop,
      [&](std::size_t i) { score_and_record(slots[i]); });
  return finish(plan.students, started, regrade_diff);
}

Result<void> Batch::share_case_materials() {
  // Every student gets the same cases: their inputs and gold are made once for the class, and each
  // input file is written once, into a folder every student's work folder links to.
  const fs::path shared_inputs = options_.out / "work" / (".inputs" + shared_suffix());  // no student's folder starts with '.'
  if (context_.materials) return {};
  try {
    context_.materials = std::make_shared<CaseMaterials>(shared_inputs);
  } catch (const std::exception& e) {
    return fail("cannot create " + shared_inputs.string() + ": " + e.what());
  }
  return {};
}

void Batch::choose_backend() {
  // One probe for the whole class, not one per submission.
  if (options_.check.backend != Backend::cpu && !context_.device)
    context_.device = find_device(context_.processes, context_.locations);
  const DeviceInfo device = options_.check.backend == Backend::cpu ? DeviceInfo{} : *context_.device;
  use_cuda_ = options_.check.backend == Backend::cuda ||
              (options_.check.backend == Backend::automatic && device.present());
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  builders_ = options_.jobs ? options_.jobs : cores;
  gpus_ = use_cuda_ ? options_.gpu_lanes.size() : 0;
  cpu_threads_per_run_ = cpu_threads_per_worker(builders_);
  settings_ = grading_settings(spec_, options_.check, use_cuda_, context_.locations);
  lane_claims_.emplace(use_cuda_ ? context_.device : std::nullopt, options_.gpu_lanes,
                       [this](const std::string& line) { log(line); }, use_cuda_ ? options_.runs_per_gpu : 1);
  lanes_ = use_cuda_ ? lane_claims_->lanes() : 0;  // lanes_per_gpu of each GPU
}

void Batch::take_baselines_ahead(bool anyone_graded) {
  lane_ready_.clear();
  if (use_cuda_ && options_.check.performance && anyone_graded)
    for (std::size_t lane = 0; lane < gpus_; ++lane)  // one per GPU
      lane_ready_.push_back(std::async(std::launch::async, [this, lane] { take_lane_baselines(lane); }).share());
}

Result<BatchSummary> Batch::finish(const std::vector<std::string>& students, Clock::time_point started,
                                  const RegradeDiff& regrade_diff) {
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
  } else {
    auto gradebook = write_class_files(spec_, options_.out, records, not_graded, options_.deadline_unix, use_cuda_,
                                       summary_.setup_problem, {options_.check.course_secret, options_.leaderboard_names},
                                       options_.late ? &*options_.late : nullptr);
    if (!gradebook) return std::unexpected(gradebook.error());
    if (options_.late) summary_.late_note = lateness_summary(*options_.late, records);
    auto regraded = regrade_diff.write(options_.out, records);
    if (!regraded) return std::unexpected(regraded.error());
    summary_.regrade_note = *regraded;
    summary_.gradebook = *gradebook;
    summary_.times.gpus = gpus_;
    summary_.times.runs_per_gpu = use_cuda_ ? std::max<std::size_t>(1, options_.runs_per_gpu) : 1;
  }
  summary_.times.builders = builders_;
  summary_.times.lanes = lanes_;
  summary_.times.gpu_waited = lane_claims_->waited_s();
  summary_.times.turns = lane_claims_->turn_times();
  summary_.times.wall = seconds_since(started);
  return summary_;
}

}  // namespace

Result<BatchSummary> grade_batch(const CheckContext& context, const Spec& spec, const Grader& grader,
                                 const BatchOptions& options, const BatchCallbacks& callbacks) {
  return Batch(context, spec, grader, options, callbacks).run();
}

}  // namespace cugrade
