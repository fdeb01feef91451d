#pragma once
// Slurm's own commands as cugrade calls them: sbatch to submit, squeue for what still runs,
// scontrol for the configuration. Each runs with this process's environment (Slurm's variables,
// SLURM_CONF, PATH), never the course secret's variable: a job's environment is visible to
// other users (`scontrol show job`).
#include <map>
#include <string>
#include <vector>

#include "cluster/squeue_states.hpp"
#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// This process's environment without CUGRADE_COURSE_SECRET: what sbatch (and so each task) gets.
std::map<std::string, std::string> environment_for_slurm();

/// The job id in `sbatch --parsable`'s output ("1234" or "1234;cluster"); an error quoting the
/// output when it holds none.
Result<std::string> parse_job_id(const std::string& sbatch_output);

/// Runs `sbatch --parsable ARGS...` and returns the job id; an error with sbatch's message.
Result<std::string> submit_job(ProcessRunner& processes, const std::vector<std::string>& args);

/// MaxArraySize from `scontrol show config` (Slurm's default 1001 where the output does not say);
/// an error when scontrol cannot be run or reach the controller.
Result<std::size_t> read_max_array_size(ProcessRunner& processes);

/// What `squeue` lists of `job_ids` that may still write results (empty: all have ended); an
/// error when squeue cannot be run or reach the controller.
Result<std::vector<QueuedTask>> queued_tasks(ProcessRunner& processes, const std::vector<std::string>& job_ids);

/// Whether Slurm's client commands are on PATH (sbatch, squeue, scontrol); an error naming the missing.
Result<bool> slurm_commands_present();

}  // namespace cugrade
