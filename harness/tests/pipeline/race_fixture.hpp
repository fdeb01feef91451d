#pragma once
// The test student of the schedule-race tests: "twice" with FP32 tolerances, run 1 through a
// fake runner whose outputs change with the schedule and the poison as a test says, and the runs
// the code under test starts after it.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <mutex>

#include "launch_tracking.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/twice_fixture.hpp"
#include "pipeline/verdicts.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade::test {

/// What the fake student's runner writes: y = 2·x, changed by `twist` as the run's schedule and
/// poison say; `log`, when set, is what the executor would write to the shared-memory log.
struct RacyStudent {
  std::function<void(const std::string& schedule, const std::string& poison, Array& y)> twist;
  std::string log;
  std::string shared_memory = "yes";  ///< what a GPU runner asked to note it says of the kernels
};

/// The spec of "twice" with FP32 tolerances (as a sum of floats would have), its plan, and
/// run 1 (forward, 0xFF) through the fake runner, judged; on the GPU (`gpu`), with run 2 (0x00)
/// riding in run 1's runner as the pipeline runs it.
struct RaceFixture {
  fs::path root;
  Spec spec;
  CasePlan plan;
  RunRequest first;
  RunOutcome ran, second;
  std::vector<CaseResult> cases;
  FakeProcessRunner processes;
  std::vector<ProcessRequest> requests;  ///< every runner process, run 1 included
  std::vector<Job> jobs;
  std::mutex mutex;

  explicit RaceFixture(RacyStudent student, bool gpu = false) {
    std::string pattern = (fs::temp_directory_path() / "cugrade-race-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
    REQUIRE(loaded.has_value());
    spec = *loaded;
    for (Step& step : spec.steps) step.tolerance = Tolerance{1e-6, 1e-5, "a float sum"};
    plan = plan_cases(spec, twice_grader, expand_cases(spec, std::nullopt), {}, root);
    first.runner = root / "runner";
    first.work_dir = root;
    first.job = plan.job;
    first.environment = {{"PATH", "/usr/bin"}, {schedule_variable, "forward"}, {poison_variable, "ff"}};
    for (int i = 0; i < 8; ++i) expect(student);  // run 1 and up to seven more (runs 3 and 4 per step)
    RunRequest run = first;
    if (gpu)
      for (CheckTask& repeat : zero_poison_repeats(first.job, root / "poison-00")) run.job.checks.push_back(repeat);
    ran = run_job(processes, run);
    second = take_repeats(ran);
    for (std::size_t i = 0; i < plan.cases.size(); ++i)
      cases.push_back(judge_case(spec, plan.cases[i], plan.job.checks[i], ran.tasks.at(plan.job.checks[i].id)));
  }
  ~RaceFixture() { fs::remove_all(root); }

  void expect(const RacyStudent& student) {
    auto script = scripted_runner(
        [this, student](const Job& job, const std::string& id, const ProcessRequest& request) -> std::optional<ProcessResult> {
          const std::string schedule = request.environment.at(schedule_variable);
          for (const auto& t : job.checks) {
            if (t.id != id) continue;
            const std::string poison = t.shared_poison.empty() ? request.environment.at(poison_variable) : t.shared_poison;
            ArraySet outputs = doubled(t.inputs_file);
            if (student.twist) student.twist(schedule, poison, outputs.at("y"));
            REQUIRE(write_array_file(t.output_file, outputs));
            REQUIRE(write_array_file(t.readback_file, *read_array_file(t.inputs_file)));
          }
          if (auto log = request.environment.find(shared_log_variable); log != request.environment.end())
            std::ofstream(log->second) << student.log;
          return std::nullopt;
        },
        &jobs, [student](const ProcessRequest& request, Event& done) {
          const auto asked = request.environment.find(runner::note_shared_memory_variable);
          if (asked != request.environment.end() && asked->second == "1") done.shared_memory = student.shared_memory;
        });
    processes.expect([this, script](const ProcessRequest& request) {
      std::lock_guard lock(mutex);  // the GPU's two reruns run side by side
      requests.push_back(request);
      return script(request);
    });
  }

  std::size_t check() { return check_schedule_races(processes, spec, plan, first, ran, cases); }
  std::size_t check_on_gpu() {
    return check_uninitialised_shared_on_gpu(processes, spec, plan, first, ran, second, cases);
  }
  const CaseResult& result(const std::string& id) const {
    return *std::ranges::find(cases, id, &CaseResult::id);
  }
  /// How many runner processes ran after run 1.
  std::size_t reruns() const { return requests.size() - 1; }
};

inline const std::string shared_log =
    "reduce3<int>\t__shared__ sdata in reduce3, bad.cu:14\nreduce3<long long>\t__shared__ sdata in reduce3, bad.cu:14\n";


}  // namespace cugrade::test
