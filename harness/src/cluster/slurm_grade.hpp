#pragma once
// `cugrade grade --slurm`: a class graded by a Slurm job array, one task per shard, each task a
// `cugrade grade --shard I/N` into the same out folder, then a collect job. The result files are
// the truth throughout: what to submit is what has no up-to-date result, progress is the results
// written, and a task that died leaves its students without one (listed, never 0 points).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "batch/batch_summary.hpp"
#include "batch/grading_settings.hpp"
#include "batch/leaderboard.hpp"
#include "batch/progress.hpp"
#include "core/result.hpp"
#include "process/process_runner.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What `--slurm` was asked.
struct SlurmGradeRequest {
  std::filesystem::path submissions;        ///< absolute
  std::filesystem::path out;                ///< absolute
  std::vector<std::string> grade_command;   ///< `cugrade grade ...` each task runs, without --shard
  std::vector<std::string> collect_command; ///< `cugrade grade ... --collect`
  std::string rerun_command;                ///< the whole `--slurm` command, for the messages
  bool gpu = false;                         ///< the CUDA backend: a GPU per task
  bool jobs_given = false;                  ///< -j given: not taken from SLURM_CPUS_PER_TASK
  std::size_t shards = 0;                   ///< 0: from the class size (default_shard_count)
  std::size_t max_running = 0;              ///< the arrays' %K throttle; 0: none
  std::vector<std::string> slurm_args;      ///< passed to sbatch before the script
  bool no_wait = false;                     ///< submit, print the job ids and the collect command
  std::optional<std::string> regrade;       ///< --regrade: these results are removed first
  std::optional<std::int64_t> deadline_unix;
  std::optional<LatePlan> late;             ///< --late-policy/--extensions, applied by the collect
  GradingSettings settings;                 ///< how the tasks grade (what a kept result must match)
  ProgressStyle style = ProgressStyle::lines;
  std::size_t columns = 0;                  ///< the terminal's width for the bar
  LeaderboardOptions leaderboard;           ///< how the collect names students on leaderboard.html
};

/// How it went.
struct SlurmGradeResult {
  std::vector<std::string> job_ids;     ///< the arrays', then the collect job's
  std::size_t shards = 1;               ///< N of the class's shards
  std::optional<BatchSummary> summary;  ///< once collected (not with no_wait)
};

/// Shards for a class of `students`: one per 40 (a few minutes of one GPU or a few CPU cores
/// each; sites count every array task against a user's limits), at least 1.
std::size_t default_shard_count(std::size_t students);

/// Submits what needs grading (nothing when every result is up to date; jobs of an earlier run
/// still queued are waited for, not submitted twice), waits, and collects. Progress and notes go
/// to `log`. Fails when Slurm refuses or cannot be reached, or the out folder cannot be written.
Result<SlurmGradeResult> grade_on_slurm(ProcessRunner& processes, const Spec& spec, const SlurmGradeRequest& request,
                                        std::ostream& log);

}  // namespace cugrade
