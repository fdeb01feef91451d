#include "cluster/slurm_commands.hpp"

#include <cstdlib>

#include "cluster/array_chunks.hpp"
#include "core/program_path.hpp"

extern char** environ;

namespace cugrade {

namespace {

ProcessRequest slurm_request(std::vector<std::string> argv) {
  ProcessRequest request;
  request.argv = std::move(argv);
  request.environment = environment_for_slurm();
  request.timeout_s = 120.0;  // a busy controller answers slowly, but it answers
  return request;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string failure_text(const std::string& command, const ProcessResult& result) {
  if (!result.started) return command + " could not be started: " + result.launch_error;
  if (result.timed_out) return command + " gave no answer within 120 s";
  std::string why = trimmed(result.stderr_text.empty() ? result.stdout_text : result.stderr_text);
  return command + " failed (exit " + std::to_string(result.exit_code) + ")" + (why.empty() ? "" : ": " + why);
}

}  // namespace

std::map<std::string, std::string> environment_for_slurm() {
  std::map<std::string, std::string> environment;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals == std::string::npos) continue;
    const std::string name = text.substr(0, equals);
    if (name == "CUGRADE_COURSE_SECRET") continue;
    environment[name] = text.substr(equals + 1);
  }
  return environment;
}

Result<std::string> parse_job_id(const std::string& sbatch_output) {
  const std::string text = trimmed(sbatch_output);
  const std::string id = text.substr(0, text.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    return fail("sbatch --parsable printed no job id: '" + text.substr(0, 200) + "'");
  return id;
}

Result<std::string> submit_job(ProcessRunner& processes, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult result = processes.run(slurm_request(argv));
  if (!result.started || result.timed_out || result.exit_code != 0) return fail(failure_text("sbatch", result));
  return parse_job_id(result.stdout_text);
}

Result<std::size_t> read_max_array_size(ProcessRunner& processes) {
  const ProcessResult result = processes.run(slurm_request({"scontrol", "show", "config"}));
  if (!result.started || result.timed_out || result.exit_code != 0)
    return fail(failure_text("scontrol show config", result));
  return max_array_size(result.stdout_text).value_or(default_max_array_size);
}

Result<std::vector<QueuedTask>> queued_tasks(ProcessRunner& processes, const std::vector<std::string>& job_ids) {
  if (job_ids.empty()) return std::vector<QueuedTask>{};
  std::string ids;
  for (const auto& id : job_ids) ids += (ids.empty() ? "" : ",") + id;
  const ProcessResult result = processes.run(
      // --me: a job id of an earlier run that Slurm has since given to someone else is not ours to wait for.
      slurm_request({"squeue", "--me", "--noheader", "--array", "--jobs=" + ids, std::string("--format=") + squeue_format}));
  if (result.started && !result.timed_out && result.exit_code != 0 && squeue_knows_none(result.stderr_text))
    return std::vector<QueuedTask>{};
  if (!result.started || result.timed_out || result.exit_code != 0) return fail(failure_text("squeue", result));
  return still_queued(parse_squeue(result.stdout_text));
}

Result<bool> slurm_commands_present() {
  const char* path = std::getenv("PATH");
  std::string missing;
  for (const char* name : {"sbatch", "squeue", "scontrol"})
    if (find_program(name, path ? path : "").empty()) missing += std::string(missing.empty() ? "" : ", ") + name;
  if (!missing.empty())
    return fail("--slurm needs Slurm's commands on PATH (" + missing +
                " not found): run it on a login node of the cluster (docs/cluster.md)");
  return true;
}

}  // namespace cugrade
