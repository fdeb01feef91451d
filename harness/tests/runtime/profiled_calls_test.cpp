// The runner's profiled calls under Nsight Compute (the diagnosis's way: harness/src/diagnose/):
// each begins with the runner's marker, and past the cap its kernels run outside the profiled
// NVTX range. Need a GPU and ncu; skipped visibly without them.
#include "runner_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;
namespace fs = std::filesystem;

namespace {

/// Nsight Compute as the CUDA toolkit installs it (diagnose/ncu_command.cpp finds it the same
/// way); without it, ends the test as skipped.
fs::path ncu_or_skip() {
  for (const char* candidate : {"/usr/local/cuda/bin/ncu", "/usr/bin/ncu"})
    if (fs::exists(candidate)) return candidate;
  std::printf("SKIPPED: no ncu on this machine\n");
  std::fflush(stdout);
  std::_Exit(77);
}

/// Two profiled calls of "scale" on 1000 elements (no files asked for), ids p1 and p2.
void add_profiled_calls(const fs::path& dir, Job& job) {
  for (const char* id : {"p1", "p2"}) {
    job.checks.push_back(check_task(dir, id, "scale", 1000));
    job.checks.back().output_file.clear();
    job.checks.back().readback_file.clear();
  }
}

/// Runs `student`'s fixture runner on `job` under ncu with the diagnosis's NVTX filter
/// (`environment` set for it) and returns the launches ncu profiled, in its order: "marker" for
/// the runner's marker, "scale" and "keep" for relaunch.cu's two kernels, "kernel" for another.
std::vector<std::string> profiled_launches(const fs::path& dir, const std::string& student, const Job& job,
                                           const std::string& environment = "") {
  const fs::path ncu = ncu_or_skip();
  const fs::path job_file = write_job(dir, job);
  const fs::path log = dir / "ncu.csv";
  const std::string command = environment + " " + ncu.string() +
                              " --csv --page details --metrics gpu__time_duration.sum --nvtx " +
                              "--nvtx-include cugrade_entry/ --log-file " + log.string() + " " +
                              CUGRADE_FIXTURE_RUNNERS + "/runtime_fixture_" + student + " " + job_file.string() +
                              " >" + (dir / "stdout").string() + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::vector<std::string> launches;
  std::string last_id;
  std::istringstream lines(read_text(log));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("\"", 0) != 0 || line.rfind("\"ID\"", 0) == 0) continue;
    const std::string id = line.substr(0, line.find(','));
    if (id == last_id) continue;  // one row per metric of the same launch
    last_id = id;
    const auto has = [&](const char* name) { return line.find(name) != std::string::npos; };
    launches.push_back(has("cugrade_call_marker(")     ? "marker"
                       : has("relaunch_scale_kernel(") ? "scale"
                       : has("relaunch_keep_kernel(")  ? "keep"
                                                       : "kernel");
  }
  return launches;
}

}  // namespace

TEST_CASE("runtime::profiled_calls_under_ncu") {
  skip_without_gpu();
  TempDir dir;
  Job job;
  // Two profiled calls (no files) and a graded one: the profiled ones each begin with the marker.
  add_profiled_calls(dir.path, job);
  job.checks.push_back(check_task(dir.path, "graded", "scale", 1000));
  CHECK(profiled_launches(dir.path, "good", job) ==
        std::vector<std::string>{"marker", "kernel", "marker", "kernel", "kernel"});
}

TEST_CASE("runtime::a profiled call's kernels past the cap run outside the range") {
  skip_without_gpu();
  TempDir dir;
  Job job;
  // Two profiled calls of five launches each, the cap at two: ncu sees each marker and the first
  // two kernels of its call; the done events count all five.
  add_profiled_calls(dir.path, job);
  CHECK(profiled_launches(dir.path, "relaunch", job, "CUGRADE_PROFILED_KERNELS=2") ==
        std::vector<std::string>{"marker", "scale", "keep", "marker", "scale", "keep"});
  std::vector<long> counted;
  for (const Event& e : events_of(dir.path))
    if (e.kind == "done") counted.push_back(e.launches);
  CHECK(counted == std::vector<long>{5, 5});
}
