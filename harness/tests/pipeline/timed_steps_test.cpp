// passing_step_tasks, time_passing_steps, set_aside_failed_steps and describe_phases
// (harness/src/pipeline/timed_steps.cpp): a step with a failed case is not timed, or its timing
// is set aside, and says why; where a timed target's seconds went.
#include "pipeline/timed_steps.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "process/fake_process_runner.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
CaseResult case_of(const std::string& step, Outcome outcome) {
  CaseResult c;
  c.id = step + "/n=4/seed=1";
  c.step = step;
  c.outcome = outcome;
  return c;
}

TimeTask task_of(const std::string& step) {
  TimeTask task;
  task.id = "perf/" + step;
  task.step = step;
  return task;
}
}  // namespace

TEST_CASE("pipeline::passing_step_tasks") {
  const std::vector<TimeTask> tasks{task_of("naive"), task_of("tiled"), task_of("padded")};
  const std::vector<CaseResult> cases{case_of("naive", Outcome::wrong_answer), case_of("tiled", Outcome::passed),
                                      case_of("padded", Outcome::harness_error)};
  // naive failed; a case the harness could not grade is no failure of the student's.
  CHECK(passing_step_tasks(tasks, cases) == std::vector<std::size_t>{1, 2});
  CHECK(passing_step_tasks(tasks, {}) == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("pipeline::time_passing_steps") {
  FakeProcessRunner processes;  // no runner scripted: starting one would be a failure
  RunRequest student;
  // Starting the reference's twin makes its folder beside the reference's: never in the cwd.
  const fs::path dir = fs::temp_directory_path() / ("cugrade-timed-steps-" + std::to_string(getpid()));
  fs::create_directories(dir);
  student.work_dir = dir / "run";
  const fs::path reference = dir / "ref";
  SUBCASE("a step with a failed case is not timed, and its outcome says how many failed") {
    const std::vector<CaseResult> cases{case_of("naive", Outcome::passed), case_of("naive", Outcome::wrong_answer),
                                        case_of("naive", Outcome::crashed), case_of("tiled", Outcome::timeout)};
    int sampled = 0;
    const auto outcomes = time_passing_steps(processes, student, {task_of("naive"), task_of("tiled")}, cases,
                                             "reference-runner", reference, {.sampled = [&] { ++sampled; }});
    REQUIRE(outcomes.size() == 2);
    CHECK(processes.requests().empty());
    CHECK(sampled == 0);  // nothing was timed: no GPU part to end
    CHECK(outcomes[0].status.outcome == Outcome::wrong_answer);
    CHECK(outcomes[0].status.message == "not timed: 2 of the 3 cases of step naive failed, and a step earns "
                                        "performance points only once every case passes");
    CHECK(outcomes[1].status.message.find("1 of the 1 cases of step tiled") != std::string::npos);
  }
  SUBCASE("a case the harness could not grade does not stop its step from being timed") {
    const std::vector<CaseResult> cases{case_of("naive", Outcome::harness_error)};
    int sampled = 0;
    const auto outcomes = time_passing_steps(processes, student, {task_of("naive")}, cases, "reference-runner",
                                             reference, {.sampled = [&] { ++sampled; }});
    REQUIRE(outcomes.size() == 1);
    CHECK(processes.requests().size() == 2);  // the reference runner and its twin were started (unscripted: failed)
    CHECK(outcomes[0].status.outcome == Outcome::harness_error);
    CHECK(sampled == 1);  // once, even though the target failed: the sanitizer's gate must open
  }
  fs::remove_all(dir);
}

TEST_CASE("pipeline::set_aside_failed_steps") {
  std::vector<TimingOutcome> outcomes(3);
  for (auto& timed : outcomes) {
    timed.status.outcome = Outcome::passed;
    timed.student_ms = timed.reference_ms = {1.0, 1.0};
    timed.phase_seconds = {{"sampling", 0.1}};
  }
  outcomes[2] = {};  // padded had failed before the timing: never timed
  outcomes[2].status.outcome = Outcome::wrong_answer;
  // The sanitizer's pass found a race in one of tiled's cases after both steps were timed, and
  // one more in padded's.
  const std::vector<CaseResult> cases{case_of("naive", Outcome::passed),       case_of("tiled", Outcome::passed),
                                      case_of("tiled", Outcome::wrong_answer), case_of("naive", Outcome::harness_error),
                                      case_of("padded", Outcome::crashed),     case_of("padded", Outcome::wrong_answer)};
  set_aside_failed_steps(outcomes, {task_of("naive"), task_of("tiled"), task_of("padded")}, cases);
  CHECK(outcomes[0].status.outcome == Outcome::passed);
  CHECK(outcomes[0].student_ms.size() == 2);
  CHECK(outcomes[1].status.outcome == Outcome::wrong_answer);
  CHECK(outcomes[1].status.message == "its timing set aside: 1 of the 2 cases of step tiled failed, and a step earns "
                                      "performance points only once every case passes");
  CHECK(outcomes[1].student_ms.empty());
  CHECK(outcomes[1].reference_ms.empty());
  CHECK(outcomes[2].status.message.starts_with("not timed: 2 of the 2 cases of step padded failed"));
}

TEST_CASE("pipeline::timing_bound_s") {
  TimeTask a = task_of("naive"), b = task_of("tiled");
  a.warmup_s = b.warmup_s = 0.5;
  a.budget_s = 2.0;
  b.budget_s = 1.0;
  // Each target: its start and loading (5 s each besides the exchange's timeout), warm-up, budget.
  CHECK(timing_bound_s({a, b}, 10.0) == doctest::Approx(2 * 10.0 + 2 * 40.0 + 1.0 + 3.0));
  CHECK(timing_bound_s({}, 10.0) == 0.0);
}

TEST_CASE("pipeline::describe_phases") {
  TimingOutcome timed;
  timed.phase_seconds = {{"reference start", 0.5}, {"sampling", 1.25}};
  CHECK(describe_phases("tiled", timed) == "timed tiled in 1.8 s: reference start 0.50 s, sampling 1.25 s");
}
