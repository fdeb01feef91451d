#include "cluster/sbatch_scripts.hpp"

#include <fmt/format.h>

namespace cugrade {
namespace fs = std::filesystem;

namespace {

std::string command_line(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words) line += (line.empty() ? "" : " ") + shell_quote(word);
  return line;
}

std::string logs_of(const SlurmJob& job) { return (job.out / "slurm" / "logs").string(); }

}  // namespace

std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789_-+=/.,:@%") == std::string::npos;
  if (safe) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

fs::path shard_log(const fs::path& out, std::size_t shard, std::size_t shards) {
  return out / "slurm" / "logs" / fmt::format("shard-{}-of-{}.log", shard, shards);
}

std::string render_grade_script(const SlurmJob& job) {
  const std::string logs = logs_of(job);
  std::string text = "#!/bin/bash\n";
  text += fmt::format(
      "# {}'s class graded on Slurm by cugrade: one array task per shard of {}.\n"
      "# Written by `cugrade grade --slurm` (again on each run) and submitted as\n"
      "#   sbatch --array=INDICES%K [--slurm-arg ...] grade.sbatch BASE\n"
      "# where task INDEX grades shard BASE+INDEX (MaxArraySize caps INDEX, so a large class is\n"
      "# several arrays). A task grades only what has no result yet, so a requeued task goes on\n"
      "# where it stopped; options given to sbatch override the #SBATCH lines below.\n",
      job.assignment, job.shards);
  text += fmt::format("#SBATCH --job-name=cugrade-{}\n", job.assignment);
  text += "#SBATCH --requeue\n";
  if (job.gpu) text += "#SBATCH --gres=gpu:1\n";
  text += fmt::format("#SBATCH --output={}/slurm-%A_%a.out\n", logs);
  text += "#SBATCH --open-mode=append\n";
  text += "set -u\n";
  text += "shard=$((SLURM_ARRAY_TASK_ID + ${1:?give the base shard as the first argument}))\n";
  text += fmt::format("log={}/shard-\"$shard\"-of-{}.log\n", shell_quote(logs), job.shards);
  text += "exec >>\"$log\" 2>&1\n";
  text += fmt::format(
      "echo \"=== $(date -u +%Y-%m-%dT%H:%M:%SZ) shard $shard/{}: job ${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}"
      " on ${{SLURMD_NODENAME:-$(hostname)}}, restart ${{SLURM_RESTART_COUNT:-0}},"
      " CUDA_VISIBLE_DEVICES=${{CUDA_VISIBLE_DEVICES:-}}\"\n",
      job.shards);
  std::string command = command_line(job.grade_command) + fmt::format(" --shard \"$shard/{}\"", job.shards);
  if (job.jobs_from_slurm) command += " ${SLURM_CPUS_PER_TASK:+-j \"$SLURM_CPUS_PER_TASK\"}";
  text += "exec " + command + "\n";
  return text;
}

std::string render_collect_script(const SlurmJob& job) {
  const std::string logs = logs_of(job);
  std::string text = "#!/bin/bash\n";
  text += fmt::format(
      "# The collect step of {}'s class on Slurm: once every array task has ended (afterany), the\n"
      "# gradebook and summary.html from the result files, without grading. Students whose task\n"
      "# ended before writing their result are listed as not graded, with the command that grades them.\n",
      job.assignment);
  text += fmt::format("#SBATCH --job-name=cugrade-{}-collect\n", job.assignment);
  text += fmt::format("#SBATCH --output={}/collect.log\n", logs);
  text += "#SBATCH --open-mode=append\n";
  text += "echo \"=== $(date -u +%Y-%m-%dT%H:%M:%SZ) collect: job ${SLURM_JOB_ID} on ${SLURMD_NODENAME:-$(hostname)}\"\n";
  text += "exec " + command_line(job.collect_command) + "\n";
  return text;
}

}  // namespace cugrade
