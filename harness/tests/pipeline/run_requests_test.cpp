// run_requests: the student's runner's request for the cases (no timed task, shared memory's
// poison, the CPU backend's schedule and memory limit, the user's variables last), the timing
// runners' folder, the timing's two CPUs, CUGRADE_TIMING_AHEAD, and one hardware queue for the
// untimed runners on the GPU (CUGRADE_ONE_QUEUE), the GPU memory limit.
#include "pipeline/run_requests.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include "memory_ledger.hpp"
#include "pipeline/schedule_race.hpp"
#include "process/cpu_affinity.hpp"

using namespace cugrade;

TEST_CASE("pipeline::run_requests") {
  Spec spec;
  spec.limits.run_timeout_s = 12.0;
  spec.limits.host_memory_bytes = 1 << 30;
  CasePlan plan;
  plan.layout = {"/w/inputs", "/w/run", "/w/reference", "/w/timing", "/w/reference-timing"};
  plan.job.checks.resize(3);
  plan.job.timings.resize(2);
  CheckOptions options;

  SUBCASE("the cases' request: no timed task (they are timed in lock-step), the inputs one case at a time") {
    const RunRequest run = student_run_request(spec, plan, "/w/runner", true, options);
    CHECK(run.runner == "/w/runner");
    CHECK(run.work_dir == "/w/run");
    CHECK(run.job.checks.size() == 3);
    CHECK(run.job.timings.empty());
    CHECK(run.read_only.empty());  // the folder of every case's inputs is not shown
    CHECK(run.inputs_release_dir == "/w/released-inputs");
    CHECK(run.environment.at(poison_variable) == "ff");
    CHECK(run.gpu);
    CHECK(run.environment.count(schedule_variable) == 0);  // the GPU schedules itself
    const RunRequest timing = timing_run_request(run, plan);
    CHECK(timing.work_dir == "/w/timing");
    CHECK(timing.read_only == std::vector<std::filesystem::path>{"/w/inputs"});  // the timing's inputs
    CHECK(timing.inputs_release_dir.empty());
  }
  SUBCASE("on the GPU every runner of the check holds at most the assignment's GPU memory") {
    spec.limits.gpu_memory_bytes = std::uint64_t{6} << 30;
    const RunRequest run = student_run_request(spec, plan, "/w/runner", true, options);
    CHECK(run.environment.at(runner::gpu_memory_limit_variable) == "6144");
    CHECK(timing_run_request(run, plan).environment.at(runner::gpu_memory_limit_variable) == "6144");
    CHECK(student_run_request(spec, plan, "/w/runner", false, options).environment.count(
              runner::gpu_memory_limit_variable) == 0);  // the CPU backend's memory is host_memory_mb's
  }
  SUBCASE("on the GPU the cases' runner gets one hardware queue; the timing runners the driver's default") {
    unsetenv("CUGRADE_ONE_QUEUE");
    const RunRequest run = student_run_request(spec, plan, "/w/runner", true, options);
    CHECK(run.environment.at(one_queue_variable) == "1");
    const RunRequest timing = timing_run_request(run, plan);
    CHECK(timing.environment.count(one_queue_variable) == 0);
    CHECK(timing.environment.at(poison_variable) == "ff");  // the rest is the cases' request
    CHECK(student_run_request(spec, plan, "/w/runner", false, options).environment.count(one_queue_variable) == 0);
    setenv("CUGRADE_ONE_QUEUE", "0", 1);
    CHECK_FALSE(one_queue());
    CHECK(student_run_request(spec, plan, "/w/runner", true, options).environment.count(one_queue_variable) == 0);
    setenv("CUGRADE_ONE_QUEUE", "1", 1);
    CHECK(one_queue());
    unsetenv("CUGRADE_ONE_QUEUE");
  }
  SUBCASE("on the CPU backend: the forward schedule and the host memory limit; the user's variables last") {
    options.runner_environment[poison_variable] = "00";
    const RunRequest run = student_run_request(spec, plan, "/w/runner", false, options);
    CHECK_FALSE(run.gpu);
    CHECK(run.environment.at(schedule_variable) == "forward");
    CHECK(run.host_memory_bytes == spec.limits.host_memory_bytes);
    CHECK(run.environment.at(poison_variable) == "00");
  }
  SUBCASE("the timing keeps to two of the allowed CPUs, or to all of them where too few are left") {
    const cpu_set_t cpus = check_timing_cpus(options);
    const cpu_set_t allowed = allowed_cpus();
    const int count = CPU_COUNT(&cpus);
    CHECK((count == 2 || count == CPU_COUNT(&allowed)));
  }
  SUBCASE("CUGRADE_TIMING_AHEAD=0 turns the early start off; anything else leaves it on") {
    unsetenv("CUGRADE_TIMING_AHEAD");
    CHECK(timing_ahead());
    setenv("CUGRADE_TIMING_AHEAD", "0", 1);
    CHECK_FALSE(timing_ahead());
    setenv("CUGRADE_TIMING_AHEAD", "1", 1);
    CHECK(timing_ahead());
    unsetenv("CUGRADE_TIMING_AHEAD");
  }
}
