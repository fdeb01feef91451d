#include "diagnose/profile_call.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "call_marker.hpp"
#include "diagnose/ncu_command.hpp"
#include "process/sandbox.hpp"
#include "process/step_folder.hpp"

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

}  // namespace

namespace {

/// Runs `argv_for(job file, log file)` under ncu for `request`, its job the check `tasks`, and
/// returns ncu's log, or why not.
template <class ArgvFor>
Result<std::string> run_ncu(ProcessRunner& processes, const ProfileRequest& request, const std::vector<CheckTask>& tasks,
                            ArgvFor argv_for) {
  if (request.ncu.empty())
    return fail("Nsight Compute (ncu) is not installed here (it comes with the CUDA toolkit; CUGRADE_NCU names it)");
  const RunRequest& run = request.run;
  std::error_code ec;
  fs::create_directories(run.work_dir, ec);
  if (ec) return fail("cannot make " + run.work_dir.string() + ": " + ec.message());
  Job job;
  job.events_file = (run.work_dir / "events.jsonl").string();
  job.checks = tasks;
  const fs::path job_file = run.work_dir / "job.json";
  const fs::path log_file = run.work_dir / "ncu.csv";
  fs::remove(log_file, ec);
  fs::remove(job.events_file, ec);  // an earlier profile's events would count its launches
  std::ofstream(job_file) << job_to_json(job);

  ProcessRequest process;
  process.argv = argv_for(job_file, log_file);
  process.working_dir = run.work_dir;
  process.environment = run.environment;
  process.timeout_s = request.timeout_s;
  // ncu's own lines come on top of what the student's code prints.
  process.output_limit_bytes = std::max<std::size_t>(run.output_limit_bytes, std::size_t{1} << 20);
  if (run.sandboxed) {
    process.sandbox = runner_sandbox(run);
    // ncu and the runner it watches talk through shared memory, and ncu runs threads of its own.
    process.sandbox->shared_memory = true;
    process.sandbox->max_processes = 4096;
    // ncu where the sandbox's system does not show it (an install of its own, /opt/nvidia/...).
    const fs::path home = fs::canonical(request.ncu, ec).parent_path();
    if (!ec && !shown_by_system(home)) process.sandbox->mounts.push_back({home, {}, false});
    // The student's sources, where the build's -lineinfo says they are (absolute) and beside the
    // profile (relative to the build's folder, as nvcc was given them).
    if (!request.sources.empty() && fs::is_directory(request.sources, ec)) {
      process.sandbox->mounts.push_back({request.sources, {}, false});
      process.sandbox->mounts.push_back({request.sources, run.work_dir / request.sources.filename(), false});
    }
    for (const fs::path& folder : {request.sections.none, request.sections.source})
      if (!folder.empty()) process.sandbox->mounts.push_back({folder, {}, false});
  } else {
    // Unsealed, ncu still needs a HOME it can write (its configuration): the profile's folder.
    process.environment["HOME"] = run.work_dir.string();
  }
  const ProcessResult result = processes.run(process);
  remove_planted_links(run.work_dir);  // ncu's log is read next: never through a link the runner made
  if (!result.started) return fail("ncu could not be started: " + result.launch_error);
  if (result.timed_out) return fail(fmt::format("ncu took longer than {:g} s", request.timeout_s));
  std::string log = read_capped(log_file, std::size_t{8} << 20);
  // What ncu and the tools around it said, for the failure's explanation.
  log += "\n" + result.stdout_text + "\n" + result.stderr_text;
  if (result.exit_code != 0 && log.find("\"ID\"") == std::string::npos && log.find("\"Line No\"") == std::string::npos)
    return fail(ncu_failure(log, result.exit_code));
  return log;
}

}  // namespace

std::vector<std::vector<KernelProfile>> kernels_by_call(const std::vector<KernelProfile>& kernels, std::size_t calls,
                                                        int max_kernels) {
  std::vector<std::vector<KernelProfile>> out(calls);
  const auto is_marker = [](const KernelProfile& k) {
    return short_kernel_name(k.kernel) == runner::call_marker_name;
  };
  const bool marked = std::any_of(kernels.begin(), kernels.end(), is_marker);
  if (!marked) {
    if (calls == 1) out[0] = kernels;  // a runner without markers: one call's kernels
  } else {
    std::size_t call = 0;
    bool started = false;
    for (const KernelProfile& kernel : kernels) {
      if (is_marker(kernel)) {
        call += started ? 1 : 0;
        started = true;
      } else if (started && call < calls) {
        out[call].push_back(kernel);
      }
    }
  }
  for (auto& call : out)
    if (max_kernels >= 0 && call.size() > static_cast<std::size_t>(max_kernels)) call.resize(max_kernels);
  return out;
}

Result<std::vector<Result<CallCounters>>> profile_calls(ProcessRunner& processes, const ProfileRequest& request,
                                                        const std::vector<CheckTask>& tasks) {
  // Each call's marker and its first max_kernels kernels: the runner leaves the profiled range
  // after them (runtime/entry_range.hpp), so no call takes another's share of the launch count.
  ProfileRequest capped = request;
  capped.run.environment[runner::profiled_kernels_variable] = std::to_string(request.max_kernels);
  const int launches = static_cast<int>(tasks.size()) * (request.max_kernels + 1);
  const auto log = run_ncu(processes, capped, tasks, [&](const fs::path& job, const fs::path& out) {
    return ncu_command(request.ncu, request.run.runner, job, out, launches, request.sections.none);
  });
  if (!log) return fail(log.error().message);
  auto kernels = parse_ncu_csv(*log);
  if (!kernels) return fail(ncu_failure(*log, 0));
  // Each call's launches, profiled or not, from its done event.
  std::map<std::string, long> launched;
  for (const Event& e : read_events((request.run.work_dir / "events.jsonl").string()))
    if (e.kind == "done" && e.launches > 0 && !launched.contains(e.task)) launched[e.task] = e.launches;
  std::vector<Result<CallCounters>> out;
  const auto by_call = kernels_by_call(*kernels, tasks.size(), request.max_kernels);
  for (std::size_t k = 0; k < by_call.size(); ++k) {
    const auto& call = by_call[k];
    if (call.empty()) {
      out.push_back(fail(tasks.size() == 1 ? ncu_failure(*log, 0)
                                           : "ncu's run of several calls holds no kernel of this one"));
      continue;
    }
    // Untimed, a kernel's counters cannot be weighed against the others' (nor kept for other checks).
    if (const std::string untimed = untimed_kernel(call); !untimed.empty()) {
      out.push_back(fail("ncu gave no time for the kernel " + untimed + " (its counters cannot be weighed)"));
      continue;
    }
    CallCounters counters = summarize_call(call);
    if (const auto it = launched.find(tasks[k].id); it != launched.end()) scale_to_launches(counters, it->second);
    out.push_back(std::move(counters));
  }
  return out;
}

Result<CallCounters> profile_call(ProcessRunner& processes, const ProfileRequest& request) {
  auto calls = profile_calls(processes, request, {request.task});
  if (!calls) return fail(calls.error().message);
  return std::move(calls->front());
}

Result<std::vector<SourceLine>> profile_source_lines(ProcessRunner& processes, const ProfileRequest& request,
                                                     const std::string& kernel) {
  const auto log = run_ncu(processes, request, {request.task}, [&](const fs::path& job, const fs::path& out) {
    return ncu_source_command(request.ncu, request.run.runner, job, out, kernel, request.sections.source);
  });
  if (!log) return fail(log.error().message);
  return parse_source_page(*log);
}

}  // namespace cugrade
