#include "diagnose/profile_call.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "diagnose/ncu_command.hpp"
#include "process/sandbox.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// The first `limit` bytes of a file ("" when it cannot be read): ncu's log was written inside
/// the sandbox, where the student's code could have grown it.
std::string read_capped(const fs::path& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

/// True when `path` lies inside `folder` (both absolute and normal).
bool within(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

Result<CallCounters> profile_call(ProcessRunner& processes, const ProfileRequest& request) {
  if (request.ncu.empty())
    return fail("Nsight Compute (ncu) is not installed here (it comes with the CUDA toolkit; CUGRADE_NCU names it)");
  const RunRequest& run = request.run;
  std::error_code ec;
  fs::create_directories(run.work_dir, ec);
  if (ec) return fail("cannot make " + run.work_dir.string() + ": " + ec.message());
  Job job;
  job.events_file = (run.work_dir / "events.jsonl").string();
  job.checks = {request.task};
  const fs::path job_file = run.work_dir / "job.json";
  const fs::path log_file = run.work_dir / "ncu.csv";
  std::ofstream(job_file) << job_to_json(job);

  ProcessRequest process;
  process.argv = ncu_command(request.ncu, run.runner, job_file, log_file, request.max_kernels);
  process.working_dir = run.work_dir;
  process.environment = run.environment;
  process.timeout_s = request.timeout_s;
  // ncu's own lines come on top of what the student's code prints.
  process.output_limit_bytes = std::max<std::size_t>(run.output_limit_bytes, std::size_t{1} << 20);
  if (run.sandboxed) {
    process.sandbox = runner_sandbox(run);
    // ncu where the sandbox's system does not show it (an install of its own, /opt/nvidia/...).
    const fs::path home = fs::canonical(request.ncu, ec).parent_path();
    bool visible = !ec && within(home, "/usr");
    for (const auto& dir : sandbox_host().read_only) visible = visible || (!ec && within(home, dir));
    if (!ec && !visible) process.sandbox->mounts.push_back({home, {}, false});
  } else {
    // Unsealed, ncu still needs a HOME it can write (its configuration): the profile's folder.
    process.environment["HOME"] = run.work_dir.string();
  }
  const ProcessResult result = processes.run(process);
  if (!result.started) return fail("ncu could not be started: " + result.launch_error);
  if (result.timed_out) return fail(fmt::format("ncu took longer than {:g} s", request.timeout_s));
  const std::string log = read_capped(log_file, std::size_t{8} << 20);
  auto kernels = parse_ncu_csv(log);
  if (!kernels || kernels->empty())
    return fail(ncu_failure(log + "\n" + result.stdout_text + "\n" + result.stderr_text, result.exit_code));
  return summarize_call(*kernels);
}

}  // namespace cugrade
