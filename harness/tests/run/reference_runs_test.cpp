// run_job_with_reference(): a reference-only step's cases go to the reference runner, the rest to
// the student's; and a `fatal` event of the student's runner is believed only when the reference
// runner is refused the same case too.
#include "run/reference_runs.hpp"
#include "start_gate.hpp"

#include <doctest/doctest.h>

#include "run/run_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// A task script that ends the runner with a fatal event inside task `victim` (exit 2).
TaskScript fatal_in(std::string victim) {
  return [victim](const Job& job, const std::string& task, const ProcessRequest&) -> std::optional<ProcessResult> {
    if (task != victim) return std::nullopt;
    Event e = event("fatal", task);
    e.error = "cannot read the inputs: bad magic";
    emit(job, e);
    return fake_exit(2);
  };
}

}  // namespace

TEST_CASE("run::run_job_with_reference") {
  RunFixture fixture;
  RunRequest& request = fixture.request;
  const fs::path reference_runner = fixture.dir / "reference-runner";
  const fs::path reference_dir = fixture.dir / "reference";
  fs::create_directories(reference_dir);
  FakeProcessRunner processes;
  std::vector<Job> jobs;

  SUBCASE("cases that call the reference run in the reference runner, in its own folder") {
    request.job.checks[1].reference = true;
    processes.expect(scripted_runner(all_done, &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job_with_reference(processes, request, reference_runner, reference_dir);
    REQUIRE(processes.requests().size() == 2);
    CHECK(processes.requests()[0].argv[0] == request.runner.string());
    CHECK(processes.requests()[1].argv[0] == reference_runner.string());
    CHECK(processes.requests()[1].working_dir == reference_dir);
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].checks.size() == 3);
    REQUIRE(jobs[1].checks.size() == 1);
    CHECK(jobs[1].checks[0].id == request.job.checks[1].id);
    REQUIRE(outcome.tasks.size() == 4);
    for (const auto& [id, status] : outcome.tasks) CHECK(status.outcome == Outcome::passed);
  }

  SUBCASE("the student's start gate goes to the student's runner only: the reference's cannot see it") {
    request.job.checks[1].reference = true;
    request.start_gate = fixture.dir / "start-gate";
    processes.expect(scripted_runner(all_done, &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    run_job_with_reference(processes, request, reference_runner, reference_dir);
    REQUIRE(processes.requests().size() == 2);
    CHECK(processes.requests()[0].environment.at(start_gate_variable) == (fixture.dir / "start-gate").string());
    CHECK_FALSE(processes.requests()[1].environment.contains(start_gate_variable));
  }

  SUBCASE("a fatal event the reference does not reproduce is the student's protocol_error") {
    const std::string victim = request.job.checks[0].id;
    processes.expect(scripted_runner(fatal_in(victim), &jobs));  // the student's runner
    processes.expect(scripted_runner(all_done, &jobs));          // a fresh one for the rest
    processes.expect(scripted_runner(all_done, &jobs));          // the reference, on the victim
    const RunOutcome outcome = run_job_with_reference(processes, request, reference_runner, reference_dir);
    REQUIRE(processes.requests().size() == 3);
    CHECK(processes.requests()[2].argv[0] == reference_runner.string());
    REQUIRE(jobs.size() == 3);
    REQUIRE(jobs[2].checks.size() == 1);
    CHECK(jobs[2].checks[0].reference);
    CHECK(jobs[2].checks[0].inputs_file == request.job.checks[0].inputs_file);
    const TaskStatus& status = outcome.tasks.at(victim);
    CHECK(status.outcome == Outcome::protocol_error);
    CHECK(status.message.find("the reference runner ran the same case without trouble") != std::string::npos);
  }

  SUBCASE("a fatal event the reference runner reproduces stays cugrade's fault") {
    const std::string victim = request.job.checks[0].id;
    processes.expect(scripted_runner(fatal_in(victim), &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    processes.expect(scripted_runner(fatal_in(victim), &jobs));
    const RunOutcome outcome = run_job_with_reference(processes, request, reference_runner, reference_dir);
    const TaskStatus& status = outcome.tasks.at(victim);
    CHECK(status.outcome == Outcome::harness_error);
    CHECK(status.message.find("no points lost") != std::string::npos);
  }
}
