#pragma once
// The two batch scripts of a class graded on Slurm, written under OUT/slurm/ before anything is
// submitted, so that a TA or an admin can read what runs (and submit it by hand): the array, one
// task per shard, and the collect job that writes the gradebook once the array has ended.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cugrade {

/// What the scripts run.
struct SlurmJob {
  std::string assignment;
  std::filesystem::path out;                ///< the class's out folder (absolute)
  std::size_t shards = 1;                   ///< N of --shard I/N
  bool gpu = false;                         ///< the CUDA backend: --gres=gpu:1 per task
  /// `cugrade grade ...` with absolute paths, without --shard (added per task).
  std::vector<std::string> grade_command;
  /// Adds `-j $SLURM_CPUS_PER_TASK` where Slurm sets it (no -j given).
  bool jobs_from_slurm = true;
  /// `cugrade grade ... --collect` with absolute paths.
  std::vector<std::string> collect_command;
};

/// `word` for bash: as it is when it holds only safe characters, else in single quotes.
std::string shell_quote(const std::string& word);

/// OUT/slurm/grade.sbatch: `#SBATCH` lines (job name, requeue, a GPU on the CUDA backend, Slurm's
/// own output appended under OUT/slurm/logs/), then the task's shard (SLURM_ARRAY_TASK_ID plus
/// the base given as the script's first argument), a header line in the shard's own log
/// (appended: a requeued task adds to it) naming the job, node, restart count and GPUs, and
/// `cugrade grade ... --shard I/N`.
std::string render_grade_script(const SlurmJob& job);

/// OUT/slurm/collect.sbatch: `cugrade grade ... --collect`, its output appended to
/// OUT/slurm/logs/collect.log.
std::string render_collect_script(const SlurmJob& job);

/// The log of one shard: OUT/slurm/logs/shard-I-of-N.log.
std::filesystem::path shard_log(const std::filesystem::path& out, std::size_t shard, std::size_t shards);

}  // namespace cugrade
