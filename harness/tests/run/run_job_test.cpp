// run_job() with a scripted runner process: every way a runner can end, and the rule that a bad
// task costs only itself (the tasks after it run again in a fresh runner).
#include "run/run_job.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "global_race.hpp"
#include "run/run_fixture.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("run::run_job") {
  RunFixture fixture;
  RunRequest& request = fixture.request;
  FakeProcessRunner processes;
  std::vector<Job> jobs;

  SUBCASE("every task done in one runner process") {
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    REQUIRE(outcome.tasks.size() == 4);
    for (const auto& [id, status] : outcome.tasks) {
      CAPTURE(id);
      CHECK(status.outcome == Outcome::passed);
      CHECK(status.message.empty());
      CHECK(status.seconds == 0.25);
    }
    // The runner is started on a job file naming its own event stream, under the limits asked.
    REQUIRE(processes.requests().size() == 1);
    const ProcessRequest& sent = processes.requests()[0];
    CHECK(sent.argv == std::vector<std::string>{request.runner.string(), (fixture.dir / "job-1.json").string()});
    CHECK(sent.working_dir == fixture.dir);
    CHECK(sent.environment == request.environment);
    CHECK(sent.output_limit_bytes == 4096);
    CHECK(sent.timeout_s == doctest::Approx(5.0 + 4 * 10.0));  // start-up + each task's deadline
    CHECK(sent.should_kill);
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0].events_file == (fixture.dir / "events-1.jsonl").string());
    CHECK(task_ids_of(jobs[0]) == std::vector<std::string>{"a/1", "a/2", "b/1", "b/2"});
  }

  SUBCASE("the start of what the student's code printed is kept") {
    processes.expect([](const ProcessRequest& sent) {
      scripted_runner(all_done)(sent);
      return fake_exit(0, std::string(3000, 'o'), "err");
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.output_excerpt == std::string(2048, 'o'));
  }

  SUBCASE("a crash in task 2 of 4 costs task 2 only: the rest run in a fresh runner") {
    request.job.checks[2].step = "a";  // four cases of one step: a crash does not skip the step
    request.job.checks[3].step = "a";
    processes.expect(scripted_runner(ends_in("a/2", died_from(SIGSEGV)), &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 2);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::crashed);
    CHECK(outcome.tasks.at("a/2").message ==
          "the program died from SIGSEGV (segmentation fault: a bad host pointer) during this case");
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::passed);
    REQUIRE(jobs.size() == 2);
    CHECK(task_ids_of(jobs[1]) == std::vector<std::string>{"b/1", "b/2"});
    CHECK(jobs[1].events_file == (fixture.dir / "events-2.jsonl").string());
    CHECK(processes.requests()[1].argv[1] == (fixture.dir / "job-2.json").string());
    CHECK(processes.requests()[1].timeout_s == doctest::Approx(5.0 + 2 * 10.0));
  }

  SUBCASE("a link the runner planted for the next job file is removed, not written through") {
    request.job.checks[2].step = "a";
    request.job.checks[3].step = "a";
    const fs::path outside = fixture.dir.parent_path() / ("cugrade-outside-" + std::to_string(::getpid()));
    { std::ofstream(outside) << "precious"; }
    processes.expect([&](const ProcessRequest& sent) {
      fs::create_symlink(outside, fixture.dir / "job-2.json");  // where the fresh runner's job goes
      fs::create_directory(fixture.dir / "later");
      fs::create_symlink(outside, fixture.dir / "later" / "events.jsonl");
      return scripted_runner(ends_in("a/2", died_from(SIGSEGV)), &jobs)(sent);
    });
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::passed);
    std::ifstream kept(outside);
    CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == "precious");
    CHECK_FALSE(fs::is_symlink(fs::symlink_status(fixture.dir / "job-2.json")));
    CHECK_FALSE(fs::exists(fs::symlink_status(fixture.dir / "later" / "events.jsonl")));
    fs::remove(outside);
  }

  SUBCASE("an event stream the runner swapped for a link is not read through it") {
    const fs::path forged = fixture.dir.parent_path() / ("cugrade-forged-events-" + std::to_string(::getpid()));
    {
      std::ofstream out(forged);
      for (const char* task : {"a/1", "a/2", "b/1", "b/2"}) {
        Event start, done;
        start.kind = "start";
        start.task = task;
        done.kind = "done";
        done.task = task;
        out << event_to_line(start) << "\n" << event_to_line(done) << "\n";
      }
    }
    processes.expect([&](const ProcessRequest&) {
      fs::create_symlink(forged, fixture.dir / "events-1.jsonl");
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    for (const auto& [id, status] : outcome.tasks) {
      CAPTURE(id);
      CHECK(status.outcome != Outcome::passed);
    }
    fs::remove(forged);
  }

  SUBCASE("a failed assert() is named: what failed and where, not only SIGABRT") {
    ProcessResult aborted = died_from(SIGABRT);
    aborted.stderr_text = "runner: src/submission_0.cu:12: void k(float*, int): Assertion `i < n' failed.\n";
    processes.expect(scripted_runner(ends_in("a/2", aborted), &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::crashed);
    CHECK(outcome.tasks.at("a/2").message ==
          "the program died from SIGABRT (abort) during this case: src/submission_0.cu:12: void k(float*, int): "
          "Assertion `i < n' failed. (an assert() that failed; in a kernel, a GPU stops there with cudaErrorAssert)");
  }

  SUBCASE("what a done event says of shared memory reaches the task's status") {
    processes.expect([](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      for (const auto& id : task_ids_of(job)) {
        emit(job, event("start", id));
        Event done = event("done", id);
        done.shared_memory = id == "a/1" ? "yes" : "no";
        emit(job, done);
      }
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/1").shared_memory == "yes");
    CHECK(outcome.tasks.at("b/2").shared_memory == "no");
  }

  SUBCASE("a task that repeats a crashed one is not run: the crash would only repeat") {
    for (std::size_t i = 0; i < 2; ++i) {  // a/1 and a/2 again, as the GPU's second run asks
      CheckTask again = request.job.checks[i];
      again.id += "@00";
      again.shared_poison = "00";
      again.repeats = request.job.checks[i].id;
      request.job.checks.push_back(again);
    }
    processes.expect(scripted_runner(ends_in("a/2", died_from(SIGSEGV)), &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::crashed);
    CHECK_FALSE(outcome.tasks.at("a/2").skipped);
    CHECK(outcome.tasks.at("a/1@00").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2@00").outcome == Outcome::not_run);
    CHECK(outcome.tasks.at("a/2@00").skipped);
    CHECK(outcome.tasks.at("a/2@00").message == "not run: the case it repeats did not finish (a/2)");
    REQUIRE(jobs.size() == 2);
    CHECK(task_ids_of(jobs[1]) == std::vector<std::string>{"b/1", "b/2", "a/1@00"});
    CHECK(jobs[1].checks.back().shared_poison == "00");  // the job file carries it to the runner
    CHECK(jobs[1].checks.back().repeats == "a/1");
  }

  SUBCASE("a task the runner refuses ends alone: the same runner goes on, a task repeating it is not run") {
    for (std::size_t i = 0; i < 2; ++i) {  // a/1 and a/2 again, as the GPU's second run asks
      CheckTask again = request.job.checks[i];
      again.id += "@00";
      again.repeats = request.job.checks[i].id;
      request.job.checks.push_back(again);
    }
    // As the runner does with a job rewritten to ask for the reference (TaskRefused): a fatal
    // event for the task, then the next task, and exit 2 at the end.
    processes.expect(runner_going_on(
        [](const std::string& id) -> std::optional<Event> {
          if (id != "a/1" && id != "a/1@00") return std::nullopt;
          Event fatal = event("fatal", id);
          fatal.error = "step 'a': this is the student's runner, which holds no reference";
          return fatal;
        },
        2, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::harness_error);
    CHECK(outcome.tasks.at("a/1").fatal);  // for reproduce_fatal: the reference runner decides
    CHECK(outcome.tasks.at("a/1").message ==
          "the runner could not run this case: step 'a': this is the student's runner, which holds no reference");
    for (const char* id : {"a/2", "b/1", "b/2", "a/2@00"}) {
      CAPTURE(id);
      CHECK(outcome.tasks.at(id).outcome == Outcome::passed);
    }
    CHECK(outcome.tasks.at("a/1@00").outcome == Outcome::not_run);
    CHECK(outcome.tasks.at("a/1@00").skipped);
  }

  SUBCASE("a done written after a task's fatal does not make it pass") {
    processes.expect([](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      for (const auto& id : task_ids_of(job)) {
        emit(job, event("start", id));
        if (id == "a/2") {
          Event fatal = event("fatal", id);
          fatal.error = "unknown step 'a'";
          emit(job, fatal);
        }
        emit(job, event("done", id));
      }
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::harness_error);
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
  }

  SUBCASE("a timeout charges the task and skips the rest of its step, not other steps") {
    processes.expect(scripted_runner(ends_in("a/1", timed_out()), &jobs));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 2);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::timeout);
    CHECK(outcome.tasks.at("a/1").message ==
          "did not finish within 10 s and was stopped (an endless loop, or far too slow)");
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::timeout);
    CHECK(outcome.tasks.at("a/2").message == "not run: an earlier case of this step timed out (a/1)");
    CHECK(outcome.tasks.at("a/2").skipped);
    CHECK_FALSE(outcome.tasks.at("a/1").skipped);
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::passed);
    REQUIRE(jobs.size() == 2);
    CHECK(task_ids_of(jobs[1]) == std::vector<std::string>{"b/1", "b/2"});
  }

  SUBCASE("a task the watchdog killed is a timeout too, and skips the rest of its step") {
    processes.expect(scripted_runner(ends_in("b/1", killed_by_watchdog()), &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);  // nothing was left to run
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::timeout);
    CHECK(outcome.tasks.at("b/1").message ==
          "did not finish within 10 s and was stopped (an endless loop, or far too slow)");
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::timeout);
    CHECK(outcome.tasks.at("b/2").message == "not run: an earlier case of this step timed out (b/1)");
  }

  SUBCASE("printing past the limit is output_limit, and the next task still runs") {
    processes.expect(scripted_runner(ends_in("a/2", flooded())));
    processes.expect(scripted_runner(all_done, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::output_limit);
    CHECK(outcome.tasks.at("a/2").message ==
          "your code printed more than the output limit; it was stopped (remove debug printing)");
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
    REQUIRE(jobs.size() == 1);
    CHECK(task_ids_of(jobs[0]) == std::vector<std::string>{"b/1", "b/2"});
    CHECK(outcome.output_excerpt == std::string(1000, 'x'));
  }

  SUBCASE("a CUDA error names the call, the error and the last kernel") {
    processes.expect(scripted_runner([](const Job& job, const std::string& id, const ProcessRequest&) {
      if (id != "a/2") return std::optional<ProcessResult>{};
      Event e = event("cuda_error", id);
      e.call = "cudaDeviceSynchronize";
      e.error = "an illegal memory access was encountered";
      e.kernel = "scale_kernel";
      emit(job, e);
      return std::optional<ProcessResult>{fake_exit(3)};
    }));
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 2);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::cuda_error);
    CHECK(outcome.tasks.at("a/2").message ==
          "CUDA error in cudaDeviceSynchronize: an illegal memory access was encountered (last "
          "kernel launched: scale_kernel)");
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
  }

  SUBCASE("a CUDA error the context survived ends its case alone: the same runner goes on") {
    // As the runner does after a launch refused for its configuration: the case's cuda_error
    // event, no done for it, the next task, and exit 3 at the end.
    processes.expect(runner_going_on(
        [](const std::string& id) -> std::optional<Event> {
          if (id != "a/1" && id != "b/2") return std::nullopt;
          Event e = event("cuda_error", id);
          e.call = "scale() → cudaGetLastError";
          e.error = "invalid configuration argument";
          e.kernel = "scale_kernel";
          return e;
        },
        3, &jobs));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::cuda_error);
    CHECK(outcome.tasks.at("a/1").message ==
          "CUDA error in scale() → cudaGetLastError: invalid configuration argument (last kernel launched: scale_kernel)");
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::cuda_error);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
    CHECK(processes.pending() == 0);
  }

  SUBCASE("a race on global memory (the CPU backend's) is a wrong answer, as a GPU's lost updates are") {
    const std::string race = std::string(global_race_message_start) +
                             " in kernel `reduce`: thread (0,0,0) of block (1,0,0) and thread (0,0,0) of block "
                             "(0,0,0) both update the same address ...; use atomicAdd";
    processes.expect(scripted_runner([&race](const Job& job, const std::string& id, const ProcessRequest&) {
      if (id != "a/2") return std::optional<ProcessResult>{};
      Event e = event("cuda_error", id);
      e.call = "reduce_entry";
      e.error = race;
      e.kernel = "reduce";
      emit(job, e);
      return std::optional<ProcessResult>{fake_exit(3)};
    }));
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::wrong_answer);
    CHECK(outcome.tasks.at("a/2").message == race);
    CHECK(outcome.tasks.at("b/1").outcome == Outcome::passed);
  }

  SUBCASE("a CUDA error before any kernel says no kernel") {
    processes.expect(scripted_runner([](const Job& job, const std::string& id, const ProcessRequest&) {
      Event e = event("cuda_error", id);
      e.call = "cudaMalloc";
      e.error = "out of memory";
      emit(job, e);
      return std::optional<ProcessResult>{fake_exit(3)};
    }));
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/1").message == "CUDA error in cudaMalloc: out of memory");
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("a fatal event before any start makes every task a harness error") {
    processes.expect([](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      Event fatal = event("fatal", "");
      fatal.error = "no CUDA device: no CUDA-capable device is detected";
      emit(job, fatal);
      return fake_exit(2);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    REQUIRE(outcome.tasks.size() == 4);
    for (const auto& [id, status] : outcome.tasks) {
      CAPTURE(id);
      CHECK(status.outcome == Outcome::harness_error);
      CHECK(status.message == "no CUDA device: no CUDA-capable device is detected");
    }
  }

  SUBCASE("a fatal event inside a task is charged to the harness, and the rest still run") {
    processes.expect(scripted_runner([](const Job& job, const std::string& id, const ProcessRequest&) {
      if (id != "a/1") return std::optional<ProcessResult>{};
      Event fatal = event("fatal", id);
      fatal.error = "cannot read the inputs file case-0.in";
      emit(job, fatal);
      return std::optional<ProcessResult>{fake_exit(2)};
    }));
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::harness_error);
    CHECK(outcome.tasks.at("a/1").message ==
          "the runner could not run this case: cannot read the inputs file case-0.in");
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("a runner that cannot be started is a harness error for every task") {
    processes.expect([](const ProcessRequest&) {
      ProcessResult result;
      result.launch_error = "permission denied";
      return result;
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    REQUIRE(outcome.tasks.size() == 4);
    for (const auto& [id, status] : outcome.tasks) {
      CAPTURE(id);
      CHECK(status.outcome == Outcome::harness_error);
      CHECK(status.message == "could not start the runner: permission denied");
    }
  }

  SUBCASE("exit(0) inside a task is a crash that asks about exit()") {
    processes.expect(scripted_runner(ends_in("a/1", fake_exit(0))));
    processes.expect(scripted_runner(all_done));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::crashed);
    CHECK(outcome.tasks.at("a/1").message ==
          "the program exited (code 0) before finishing this case: does your code call exit() or abort()?");
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::passed);
  }

  SUBCASE("exit(1) inside a task names its exit code") {
    processes.expect(scripted_runner(ends_in("b/2", fake_exit(1))));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::crashed);
    CHECK(outcome.tasks.at("b/2").message.starts_with("the program exited (code 1) before finishing"));
    CHECK(outcome.runner_processes == 1);
  }

  SUBCASE("a runner that dies before its first task: every task is charged, no endless restarts") {
    processes.expect([](const ProcessRequest&) { return died_from(SIGABRT); });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 1);
    for (const auto& [id, status] : outcome.tasks) {
      CAPTURE(id);
      CHECK(status.outcome == Outcome::crashed);
      CHECK(status.message == "the runner stopped before running any case (SIGABRT (abort))");
    }
  }

  SUBCASE("a runner that exits 0 having skipped a task gets one more runner for it") {
    // The protocol: a task neither done nor in progress is run again in a fresh runner; a runner
    // that again starts nothing ends the retries, and the task is charged as a crash.
    processes.expect([&jobs](const ProcessRequest& sent) {
      const Job job = job_of(sent);
      jobs.push_back(job);
      for (const auto& id : task_ids_of(job)) {
        if (id == "a/2") continue;  // skipped without a word
        emit(job, event("start", id));
        emit(job, event("done", id));
      }
      return fake_exit(0);
    });
    processes.expect([&jobs](const ProcessRequest& sent) {
      jobs.push_back(job_of(sent));
      return fake_exit(0);
    });
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.runner_processes == 2);
    REQUIRE(jobs.size() == 2);
    CHECK(task_ids_of(jobs[1]) == std::vector<std::string>{"a/2"});
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("b/2").outcome == Outcome::passed);
    CHECK(outcome.tasks.at("a/2").outcome == Outcome::crashed);
    CHECK(outcome.tasks.at("a/2").message == "the runner stopped before running any case");
    CHECK(processes.pending() == 0);
  }

  SUBCASE("a timing task: its samples are kept and its deadline includes its budget") {
    request.job.checks.resize(1);
    request.job.timings = {time_task("perf/a", "a", 3.0)};
    processes.expect(scripted_runner([](const Job& job, const std::string& id, const ProcessRequest&) {
      if (id == "perf/a") {
        Event samples = event("samples", id);
        samples.student_ms = {2.0, 2.1};
        samples.reference_ms = {1.0, 1.1};
        emit(job, samples);
      }
      return std::optional<ProcessResult>{};
    }));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(processes.requests()[0].timeout_s == doctest::Approx(5.0 + 10.0 + (3 * 10.0 + 3.0)));
    const TaskStatus& timed = outcome.tasks.at("perf/a");
    CHECK(timed.outcome == Outcome::passed);
    CHECK(timed.samples.student_ms == std::vector<double>{2.0, 2.1});
    CHECK(timed.samples.reference_ms == std::vector<double>{1.0, 1.1});
  }

  SUBCASE("a timing task that hangs is stopped at 3x the limit plus its budget") {
    request.job.timings = {time_task("perf/a", "a", 3.0)};
    processes.expect(scripted_runner(ends_in("perf/a", killed_by_watchdog())));
    const RunOutcome outcome = run_job(processes, request);
    CHECK(outcome.tasks.at("perf/a").outcome == Outcome::timeout);
    CHECK(outcome.tasks.at("perf/a").message ==
          "did not finish within 33 s and was stopped (an endless loop, or far too slow)");
    CHECK(outcome.tasks.at("a/1").outcome == Outcome::passed);  // already done: not re-marked
  }

  SUBCASE("junk the student's code writes to the event stream is ignored") {
    processes.expect(scripted_runner([](const Job& job, const std::string&, const ProcessRequest&) {
      std::ofstream(job.events_file, std::ios::app) << "hello from printf\n{\"kind\": 3}\n";
      return std::optional<ProcessResult>{};
    }));
    const RunOutcome outcome = run_job(processes, request);
    for (const auto& [id, status] : outcome.tasks) CHECK(status.outcome == Outcome::passed);
  }
}
