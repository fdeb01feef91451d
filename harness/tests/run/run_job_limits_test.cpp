// run_job()'s deadlines (should_kill), signal names, and what it must not trust or hide: a done
// event for a task it never gave, a step that already timed out, a limit as it was written; the
// runner's sandbox and environment.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "run/run_fixture.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("run::run_job should_kill") {
  RunFixture fixture;
  RunRequest& request = fixture.request;
  request.task_timeout_s = 0.05;
  request.job.checks.resize(2);
  FakeProcessRunner processes;

  SUBCASE("true once a started task runs past its deadline, and not before") {
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      answers.push_back(sent.should_kill());  // nothing started yet
      emit(job, event("start", "a/1"));
      answers.push_back(sent.should_kill());  // just started: the clock starts when it is seen
      emit(job, event("done", "a/1"));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      answers.push_back(sent.should_kill());  // a finished task is not on the clock
      emit(job, event("start", "a/2"));
      answers.push_back(sent.should_kill());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      answers.push_back(sent.should_kill());  // 0.1 s into a 0.05 s task
      return killed_by_watchdog();
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, false, false, false, true});
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::timeout);
  }

  SUBCASE("a start written again does not restart a case's clock") {
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      emit(job, event("start", "a/1"));
      answers.push_back(sent.should_kill());
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
      emit(job, event("start", "a/1"));  // forged: 40 ms into a 50 ms task
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
      answers.push_back(sent.should_kill());  // 80 ms since the first start
      return killed_by_watchdog();
    });
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, true});
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::timeout);
  }

  SUBCASE("a done written for the running case stops its clock for a second only") {
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      emit(job, event("start", "a/1"));
      emit(job, event("done", "a/1"));  // forged, to stop the clock of a slow case
      answers.push_back(sent.should_kill());
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));
      answers.push_back(sent.should_kill());  // no next start within the grace: ended
      return killed_by_watchdog();
    });
    processes.expect(scripted_runner(all_done));  // the rest, in a fresh runner
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, true});
    CHECK(outcome.runner_processes == 2);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("a runner whose every task is done gets a second to exit, then it is ended") {
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      for (const char* id : {"a/1", "a/2"}) {
        emit(job, event("start", id));
        emit(job, event("done", id));
      }
      answers.push_back(sent.should_kill());  // all done: the grace starts
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));
      answers.push_back(sent.should_kill());  // an atexit handler that sleeps is not waited for
      return killed_by_watchdog();
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, true});
    CHECK(outcome.runner_processes == 1);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("a line still being written is not read yet") {
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      std::ofstream(job.events_file, std::ios::app) << event_to_line(event("start", "a/1"));
      answers.push_back(sent.should_kill());
      // Had the half line been taken as a start, its clock would now be past the deadline.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      answers.push_back(sent.should_kill());
      std::ofstream(job.events_file, std::ios::app) << "\n" << event_to_line(event("done", "a/1")) << "\n";
      emit(job, event("start", "a/2"));
      emit(job, event("done", "a/2"));
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, false});
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }
}

// Work before the first case is bounded, and sees no case's inputs (run_job.hpp:
// startup_timeout_s, inputs_release_dir).
TEST_CASE("run::run_job before the first case") {
  RunFixture fixture;
  RunRequest& request = fixture.request;
  request.job.checks.resize(2);
  FakeProcessRunner processes;

  SUBCASE("a runner that reaches no case within its start-up time is ended, every case a timeout") {
    request.startup_timeout_s = 0.05;
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      answers.push_back(sent.should_kill());  // just started
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      answers.push_back(sent.should_kill());  // 0.1 s in a constructor
      return killed_by_watchdog();
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false, true});
    CHECK(outcome.runner_processes == 1);  // no fresh runner: it would only do the same
    for (const char* id : {"a/1", "a/2"}) {
      CHECK(outcome.tasks.at(id).outcome == Outcome::timeout);
      CHECK(outcome.tasks.at(id).message.starts_with("your program did not reach its first case within 0.05 s"));
    }
  }

  SUBCASE("once a case has started, the start-up time no longer counts") {
    request.startup_timeout_s = 0.05;
    request.task_timeout_s = 10.0;
    std::vector<bool> answers;
    processes.expect([&answers](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      emit(job, event("start", "a/1"));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      answers.push_back(sent.should_kill());
      emit(job, event("done", "a/1"));
      emit(job, event("start", "a/2"));
      emit(job, event("done", "a/2"));
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(answers == std::vector<bool>{false});
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("a case's inputs appear when it starts or the case before it ends, read-only in the sandbox") {
    const fs::path inputs = fixture.dir / "inputs";
    fs::create_directories(inputs);
    for (auto& task : request.job.checks) {
      task.inputs_file = (inputs / (task.id.substr(2) + ".in")).string();
      std::ofstream(task.inputs_file) << "inputs of " << task.id;
    }
    request.inputs_release_dir = fixture.dir / "released";
    request.work_dir = fixture.dir / "run";
    fs::create_directories(request.work_dir);
    request.sandboxed = true;
    std::vector<bool> seen;
    fs::path shown_dir;
    processes.expect([&](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      const fs::path first = job.checks[0].inputs_file, second = job.checks[1].inputs_file;
      shown_dir = first.parent_path();
      seen.push_back(fs::exists(first) || fs::exists(second));  // before any case: neither
      emit(job, event("start", "a/1"));
      sent.should_kill();
      seen.push_back(fs::exists(first));
      seen.push_back(fs::exists(second));  // not yet
      emit(job, event("done", "a/1"));
      sent.should_kill();
      seen.push_back(fs::exists(second));  // the next case's, once the one before ended
      std::ifstream in(second);
      std::string text;
      std::getline(in, text);
      CHECK(text == "inputs of a/2");
      emit(job, event("start", "a/2"));
      emit(job, event("done", "a/2"));
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(seen == std::vector<bool>{false, true, false, true});
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
    // The folder is the runner's own, outside its writable folder, shown read-only; removed after.
    CHECK(shown_dir.parent_path() == request.inputs_release_dir);
    REQUIRE(processes.requests().size() == 1);
    REQUIRE(processes.requests()[0].sandbox.has_value());
    bool read_only = false;
    for (const auto& mount : processes.requests()[0].sandbox->mounts)
      if (mount.source == shown_dir) read_only = !mount.writable;
    CHECK(read_only);
    CHECK_FALSE(fs::exists(shown_dir));
  }

  SUBCASE("starts forged for every case hand over only the first case's inputs, at its start") {
    const fs::path inputs = fixture.dir / "inputs";
    fs::create_directories(inputs);
    for (auto& task : request.job.checks) {
      task.inputs_file = (inputs / (task.id.substr(2) + ".in")).string();
      std::ofstream(task.inputs_file) << "inputs of " << task.id;
    }
    request.inputs_release_dir = fixture.dir / "released";
    std::vector<bool> seen;
    processes.expect([&](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      emit(job, event("start", "a/2"));  // out of order: nothing
      sent.should_kill();
      seen.push_back(fs::exists(job.checks[1].inputs_file) || fs::exists(job.checks[0].inputs_file));
      emit(job, event("start", "a/1"));
      emit(job, event("start", "a/2"));
      sent.should_kill();
      seen.push_back(fs::exists(job.checks[0].inputs_file));
      seen.push_back(fs::exists(job.checks[1].inputs_file));  // a/1 has not ended
      return killed_by_watchdog();
    });
    processes.expect(scripted_runner(all_done));
    run_job(processes, request);
    CHECK(seen == std::vector<bool>{false, true, false});
  }
}

// A done event is trusted only for a task of the job. The student's code can write to the event
// stream; a done line for an id the job does not hold must not count towards "every task
// finished", or a real task after it would never be charged for its crash.
TEST_CASE("run::run_job a done event for an unknown task") {
  RunFixture fixture;
  fixture.request.job.checks.resize(2);
  FakeProcessRunner processes;
  processes.expect(scripted_runner([](const Job& job, const std::string& id, const ProcessRequest&) {
    if (id == "a/1") emit(job, event("done", "not-a-task"));
    if (id == "a/2") return std::optional<ProcessResult>{died_from(SIGSEGV)};
    return std::optional<ProcessResult>{};
  }));
  const RunOutcome outcome = run_job(processes, fixture.request);
  CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
  CHECK(outcome.tasks.at("a/2").outcome == Outcome::crashed);
  CHECK(outcome.tasks.at("a/2").message ==
        "the program died from SIGSEGV (segmentation fault: a bad host pointer) during this case");
  CHECK_FALSE(outcome.tasks.contains("not-a-task"));
}

// After a check case of a step times out, the step's timing task is not run: the same code would
// hang for 3 x run_timeout_s + budget_s more, for a step that cannot earn performance points.
TEST_CASE("run::run_job a timed-out step is not timed") {
  RunFixture fixture;
  fixture.request.job.timings = {time_task("perf/a", "a", 3.0)};
  FakeProcessRunner processes;
  std::vector<Job> jobs;
  processes.expect(scripted_runner(ends_in("a/1", timed_out()), &jobs));
  processes.expect(scripted_runner(all_done, &jobs));
  const RunOutcome outcome = run_job(processes, fixture.request);
  REQUIRE(jobs.size() == 2);
  CHECK(task_ids_of(jobs[1]) == std::vector<std::string>{"b/1", "b/2"});
  CHECK(outcome.tasks.at("perf/a").outcome == Outcome::timeout);
  CHECK(outcome.tasks.at("perf/a").message == "not run: an earlier case of this step timed out (a/1)");
}

// The spec allows fractional limits (run_timeout_s: 2.5); the message states the limit as given.
TEST_CASE("run::run_job a fractional time limit is shown as it is") {
  RunFixture fixture;
  fixture.request.task_timeout_s = 2.5;
  FakeProcessRunner processes;
  processes.expect(scripted_runner(ends_in("a/1", timed_out())));
  processes.expect(scripted_runner(all_done));
  const RunOutcome outcome = run_job(processes, fixture.request);
  CHECK(outcome.tasks.at("a/1").message ==
        "did not finish within 2.5 s and was stopped (an endless loop, or far too slow)");
}

TEST_CASE("run::runner_sandbox limits a CPU runner's address space, not a CUDA runner's") {
  RunFixture fixture;
  RunRequest& request = fixture.request;
  request.host_memory_bytes = std::uint64_t{1} << 30;
  request.environment["CUGRADE_CPU_THREADS"] = "2";

  SUBCASE("CPU: its data, 384 MiB per worker thread and 256 MiB for the process") {
    const std::uint64_t expected = (std::uint64_t{1} << 30) + 2 * (std::uint64_t{384} << 20) + (std::uint64_t{256} << 20);
    CHECK(runner_sandbox(request).address_space_bytes == expected);
    request.environment["CUGRADE_CPU_THREADS"] = "4";
    CHECK(runner_sandbox(request).address_space_bytes == expected + 2 * (std::uint64_t{384} << 20));
  }
  SUBCASE("a CUDA runner: none (the driver maps all of the GPU's and the host's memory)") {
    request.gpu = true;
    CHECK(runner_sandbox(request).address_space_bytes == 0);
  }
  SUBCASE("no data budget given: none") {
    request.host_memory_bytes = 0;
    CHECK(runner_sandbox(request).address_space_bytes == 0);
  }
}

TEST_CASE("run::runner_environment") {
  const auto env = cugrade::runner_environment();
  CHECK(env.at("CUDA_MODULE_LOADING") == "EAGER");  // kernels load before the first timed sample
  for (const auto& [name, value] : cugrade::scrubbed_environment())
    if (name != "CUDA_MODULE_LOADING") CHECK(env.at(name) == value);
}

TEST_CASE("run::runner_environment passes on the switch of kept allocations, only when set") {
  unsetenv("CUGRADE_KEEP_ALLOCATIONS");
  CHECK(cugrade::runner_environment().count("CUGRADE_KEEP_ALLOCATIONS") == 0);
  setenv("CUGRADE_KEEP_ALLOCATIONS", "0", 1);  // a side-by-side measurement of the runtime's own
  CHECK(cugrade::runner_environment().at("CUGRADE_KEEP_ALLOCATIONS") == "0");
  unsetenv("CUGRADE_KEEP_ALLOCATIONS");
}
