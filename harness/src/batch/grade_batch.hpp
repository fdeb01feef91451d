#pragma once
// `cugrade grade`: a whole class at once. Lists the submissions, keeps what an earlier run
// already graded, builds the rest in parallel and runs them one at a time per GPU (or in
// parallel on the CPU backend), writes each student's result as soon as it is known, and
// finally the gradebook and the class summary. Killed at any point, a second run picks up where
// the first stopped: results are written atomically, and only a written result counts as done.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/archive.hpp"
#include "batch/late_plan.hpp"
#include "batch/shard.hpp"
#include "batch/student_record.hpp"
#include "core/result.hpp"
#include "pipeline/check_submission.hpp"
#include "pipeline/gpu_turns.hpp"

namespace cugrade {

/// What a batch is asked to do.
struct BatchOptions {
  std::filesystem::path submissions;  ///< one folder or archive per student
  std::filesystem::path out;          ///< gradebook.csv, summary.html, results/, students/, work/
  /// Backend, architecture, secret, performance: as for one check (submission and work folder
  /// are set per student).
  CheckOptions check;
  std::size_t jobs = 0;               ///< parallel builds (and CPU-backend runs); 0: the core count
  /// CUDA_VISIBLE_DEVICES of each GPU lane (one lane runs one submission at a time). Empty: no
  /// lanes; each worker runs what it built (the CPU backend, or a GPU-less test).
  std::vector<std::string> gpu_lanes;
  /// Submissions whose cases and sanitizer passes share each GPU (`--runs-per-gpu`; the lanes
  /// take turns: pipeline/gpu_turns.hpp): each timed and profiled with the GPU alone, and every
  /// case that did not pass beside others run again alone before it counts. 1: one at a time.
  std::size_t runs_per_gpu = 1;
  std::optional<std::string> regrade;        ///< `--regrade` (empty: everyone) or `--regrade alice,bob`
  std::optional<std::int64_t> deadline_unix; ///< adds the late flag to the gradebook
  /// `--late-policy`/`--extensions` (with the deadline): penalties and final scores in the class files
  std::optional<LatePlan> late;
  bool keep_work = false;                    ///< keep work/<student>/ (unpacked files, build, runner files)
  UnpackLimits unpack;                       ///< for archives
  const std::atomic<bool>* stop = nullptr;   ///< set (e.g. by SIGINT) to stop starting new submissions
  /// `--shard I/N`: only this part of the class (batch/shard.hpp), beside other parts' processes
  /// writing the same out folder; the gradebook and summary are then left to `--collect`.
  std::optional<Shard> shard;
  /// `--leaderboard-names`: leaderboard.html names students by their ids, not by pseudonyms
  /// keyed by `check.course_secret`.
  bool leaderboard_names = false;
};

/// What a batch tells while it works; each callback may be empty and is never called
/// concurrently with another.
struct BatchCallbacks {
  std::function<void(const std::string& line)> log;  ///< why a student is graded again, skipped entries
  /// Once the plan is known: students in all, how many are graded now.
  std::function<void(std::size_t students, std::size_t to_grade)> planned;
  std::function<void(const StudentRecord& record)> finished;  ///< a student's result was written
};

/// Where the time of a batch went (seconds; stages summed over the submissions graded now).
struct BatchTimes {
  double wall = 0.0;        ///< from the first listing to the gradebook
  double unpack = 0.0;      ///< unpacking archives and hashing submissions
  StageSeconds stages;      ///< build, inputs, run, timing
  double lane_busy = 0.0;   ///< GPU lanes: time spent running (summed over lanes)
  /// GPU lanes: time spent waiting for a GPU another cugrade process was using (device/gpu_claim.hpp)
  double gpu_waited = 0.0;
  std::size_t builders = 0; ///< builds at a time
  std::size_t lanes = 0;    ///< GPU lanes; 0: runs inline in the builders (CPU backend)
  std::size_t gpus = 0;     ///< GPUs the lanes run on
  std::size_t runs_per_gpu = 1;  ///< submissions side by side on each GPU (BatchOptions::runs_per_gpu)
  std::size_t shards = 0;   ///< shards graded by other processes (Slurm's array tasks); 0: this one graded
  GpuTurnTimes turns;       ///< GPUs shared by lanes (runs_per_gpu > 1): where their time went
};

/// How a batch went.
struct BatchSummary {
  std::filesystem::path gradebook;             ///< <out>/gradebook.csv
  std::size_t students = 0;                    ///< students with a result (the gradebook's graded rows)
  std::size_t graded_now = 0;                  ///< graded by this run
  std::size_t up_to_date = 0;                  ///< kept from an earlier run
  std::size_t not_finished = 0;                ///< left for the next run (stopped early): a row each, "not graded yet"
  std::map<Outcome, std::size_t> outcomes;     ///< over the gradebook's rows
  std::vector<std::string> harness_errors;     ///< "alice: <why>", one per student
  std::vector<std::string> skipped;            ///< entries of the submissions folder that are not submissions
  double mean_score = 0.0;                     ///< over gradable submissions
  double max_score = 0.0;                      ///< the most any student could have had
  std::size_t gradable = 0;                    ///< rows whose submission built
  /// "alice (compile_error)", one per student whose submission did not build or was refused.
  std::vector<std::string> not_gradable = {};
  BatchTimes times;                            ///< where the time went
  bool stopped = false;                        ///< `stop` was set before everyone was graded
  /// Most of the class failed to build with the same message: likely the set-up, not the
  /// students (common_build_failure); empty otherwise.
  std::string setup_problem;
  /// Under a late plan: the policy, how many were penalised, and who has no trustworthy hand-in
  /// time (lateness_summary); empty otherwise.
  std::string late_note = {};
  /// Graded again: whose score changed, and where regrade.csv lists them (regrade_diff.hpp); empty
  /// when no one with an earlier result was graded again.
  std::string regrade_note = {};
};

/// Grades every submission under `options.submissions` that has no up-to-date result under
/// `options.out`. Fails only when the batch itself cannot go on (no submissions folder, an out
/// folder that cannot be written); a submission that cannot be graded is a result like any other.
Result<BatchSummary> grade_batch(const CheckContext& context, const Spec& spec, const Grader& grader,
                                 const BatchOptions& options, const BatchCallbacks& callbacks = {});

}  // namespace cugrade
