// check_submission() end to end on the CUDA backend, with every command scripted (probe, nvcc,
// nm, the runner, the calibrator): each outcome a report can have, as the student reads it. The
// stages after the cases (timing, calibration, diagnosis): check_stages_test.cpp.
#include "pipeline/check_submission.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <future>

#include "device/device_info.hpp"
#include "device/gpu_claim.hpp"
#include <thread>
#include <mutex>
#include <unistd.h>
#include "pipeline/twice_fixture.hpp"
#include "start_gate.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

const std::vector<std::string> visible_ids{"simple/n=5/seed=1", "simple/n=40/seed=1", "fast/n=5/seed=1",
                                           "fast/n=40/seed=1"};

/// Checks that the four visible cases, in order, have `outcome`, `message` and no points.
void check_every_case(const GradeReport& report, Outcome outcome, const std::string& message) {
  REQUIRE(report.cases.size() == visible_ids.size());
  for (std::size_t i = 0; i < visible_ids.size(); ++i) {
    CAPTURE(visible_ids[i]);
    CHECK(report.cases[i].id == visible_ids[i]);
    CHECK(report.cases[i].outcome == outcome);
    CHECK(report.cases[i].message == message);
    CHECK(report.cases[i].points == 0.0);
  }
}

/// nvcc exiting 1 with `stderr_text`.
ProcessResult nvcc_error(std::string stderr_text) { return fake_exit(1, "", std::move(stderr_text)); }

}  // namespace

TEST_CASE("pipeline::check_submission") {
  PipelineFixture fixture;
  CheckOptions& options = fixture.options;

  SUBCASE("passed: full marks, performance included, in the order the stages run") {
    options.performance = true;
    std::vector<std::string> progress;
    options.progress = [&progress](const std::string& line) { progress.push_back(line); };
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    fixture.expect_timing();
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);
    CHECK(report.gradable);
    CHECK(report.score == doctest::Approx(7.0));
    CHECK(report.max_score == doctest::Approx(7.0));
    CHECK(report.assignment == "twice");
    CHECK(report.title == "Doubling a vector");
    CHECK(report.submission == std::vector<std::string>{"twice.cu"});
    CHECK(report.submission_sha256.size() == 64);
    CHECK(report.seed == 1);
    CHECK(report.environment.backend == "cuda");
    CHECK(report.environment.gpu == "NVIDIA H100 80GB HBM3");
    CHECK(report.environment.compute_capability == "9.0");
    CHECK(report.environment.nvcc == "13.0.88");
    CHECK(report.environment.sm_clock_mhz == 1980);
    CHECK(report.build.outcome == Outcome::passed);
    CHECK(report.build.arch == "sm_90");
    CHECK(report.build.commands.size() == 4);  // compile, nm, seal, link
    REQUIRE(report.cases.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(visible_ids[i]);
      CHECK(report.cases[i].id == visible_ids[i]);
      CHECK(report.cases[i].outcome == Outcome::passed);
      CHECK(report.cases[i].points == 1.0);
      REQUIRE(report.cases[i].comparisons.size() == 1);
      CHECK(report.cases[i].comparisons[0].array == "y");
      CHECK(report.cases[i].comparisons[0].wrong == 0);
    }
    CHECK(report.cases[1].comparisons[0].checked == 40);
    REQUIRE(report.performance.size() == 1);
    const PerformanceResult& perf = report.performance[0];
    CHECK(perf.outcome == Outcome::passed);
    CHECK(perf.step == "fast");
    CHECK(perf.reference == "simple");
    CHECK(perf.ratio == doctest::Approx(1.0));
    CHECK(perf.points == doctest::Approx(3.0));
    CHECK(perf.rate_unit == "GB/s");
    CHECK(perf.percent_of_ceiling.has_value());  // calibrated once, now cached
    CHECK(fs::exists(fixture.root / "cache" / "cugrade" / "NVIDIA_H100_80GB_HBM3-13.0.json"));
    // The runner's job holds the cases under neutral ids; timing is lock-step (expect_timing).
    REQUIRE(fixture.jobs.size() == 1);
    REQUIRE(fixture.jobs[0].checks.size() == 4);
    CHECK(fixture.jobs[0].checks[0].id == "case-0");
    CHECK(fixture.jobs[0].timings.empty());
    REQUIRE(progress.size() == 5);
    CHECK(progress[0] == "building twice.cu ...");
    // The reference's baselines were taken while the file built (a lone check: nothing of the
    // student's is on the GPU yet).
    CHECK(progress[1].starts_with("took the reference's baselines in "));
    CHECK(progress[1].ends_with(" s while the file built"));
    CHECK(progress[2] == "running 4 cases and timing 1 steps ...");
    // Where the seconds went: the stages, then the timed step phase by phase (both runners were
    // started beside the cases' runner and were up before its gate opened, so the timing has no
    // baseline and no runner start of its own).
    CHECK(progress[3].starts_with("ran the cases in "));
    CHECK(progress[3].find(", inputs and gold ") != std::string::npos);
    CHECK(progress[4].starts_with("timed fast in "));
    CHECK(progress[4].find("start ") == std::string::npos);
    CHECK(progress[4].find("loading ") != std::string::npos);
    // The cases' runner waited at a start gate; no other process was given one.
    std::size_t gated = 0;
    for (const ProcessRequest& sent : fixture.processes.requests())
      if (const auto gate = sent.environment.find(start_gate_variable); gate != sent.environment.end()) {
        CHECK(sent.argv.back().ends_with("job-1.json"));
        CHECK(gate->second.ends_with("start-gate"));
        ++gated;
      }
    CHECK(gated == 1);
    CHECK(progress[4].find("baseline") == std::string::npos);
    // The step's tolerance is exact: its digests compared every element, no output was written in full.
    CHECK(progress[4].find(", outputs ") == std::string::npos);
  }

  SUBCASE("wrong_answer: the count and the pattern of the wrong elements") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.tamper = [](const CheckTask& task, ArraySet& outputs, ArraySet&) {
      Array& y = outputs.at("y");
      if (task.step == "simple") y.data<float>()[y.size() - 1] = 0.5f;  // never 2·x exactly
    };
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::wrong_answer);
    CHECK(report.gradable);
    CHECK(report.score == 2.0);
    CHECK(report.max_score == 4.0);
    for (const std::string id : {"simple/n=5/seed=1", "simple/n=40/seed=1"}) {
      CAPTURE(id);
      const CaseResult& wrong = case_of(report, id);
      CHECK(wrong.outcome == Outcome::wrong_answer);
      CHECK(wrong.points == 0.0);
      REQUIRE(wrong.comparisons.size() == 1);
      CHECK(wrong.comparisons[0].array == "y");
      CHECK(wrong.comparisons[0].wrong == 1);
      CHECK(wrong.comparisons[0].pattern == "only the last element is wrong");
      REQUIRE(wrong.comparisons[0].first.size() == 1);
      CHECK(wrong.comparisons[0].first[0].actual == 0.5);
      // The count and the pattern live in the comparison; the message adds only what it cannot
      // (both cases of the step fail, so no cross-case line either).
      CHECK(wrong.message.empty());
    }
    CHECK(case_of(report, "simple/n=5/seed=1").comparisons[0].checked == 5);
    CHECK(case_of(report, "fast/n=5/seed=1").outcome == Outcome::passed);
  }

  SUBCASE("wrong_answer at one size of two: the cross-case line") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.tamper = [id = fixture.task_id_of("simple/n=40/seed=1")](const CheckTask& task, ArraySet& outputs, ArraySet&) {
      if (task.id == id) outputs.at("y").data<float>()[39] = 0.5f;
    };
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    const CaseResult& wrong = case_of(report, "simple/n=40/seed=1");
    CHECK(wrong.outcome == Outcome::wrong_answer);
    CHECK(wrong.message ==
          "across the cases: wrong only at the largest sizes (n=40 and up): does the grid cover the "
          "whole input?");
    CHECK(case_of(report, "simple/n=5/seed=1").message.empty());
  }

  SUBCASE("wrong_answer: a const input the call modified") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.tamper = [id = fixture.task_id_of("fast/n=40/seed=1")](const CheckTask& task, ArraySet&, ArraySet& readback) {
      if (task.id == id) readback.at("x").data<float>()[3] = 7.0f;
    };
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::wrong_answer);
    CHECK(report.score == 3.0);
    const CaseResult& modified = case_of(report, "fast/n=40/seed=1");
    CHECK(modified.outcome == Outcome::wrong_answer);
    CHECK(modified.comparisons.at(0).wrong == 0);  // the output itself is right
    CHECK(modified.message.starts_with(
        "the call modified its const input x (1 of 40 elements changed, the first at index 3); inputs "
        "are declared const in interface.cuh and must be left unchanged"));
  }

  SUBCASE("compile_error: the first error, in the student's file; nothing runs") {
    options.performance = true;
    fixture.expect_gpu();
    fixture.expect_compile("sm_90", nvcc_error(std::string(staged_source) +
                                               "(3): error: identifier \"x\" is undefined\n\n"
                                               "1 error detected in the compilation of \"" +
                                               staged_source + "\".\n"));
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::compile_error);
    CHECK_FALSE(report.gradable);
    CHECK(report.build.outcome == Outcome::compile_error);
    CHECK(report.build.message == "your file does not compile: twice.cu:3: identifier \"x\" is undefined");
    CHECK(report.score == 0.0);
    CHECK(report.max_score == 7.0);  // what a build that worked could have earned in this run
    check_every_case(report, Outcome::not_run, "not run: the build failed");
    REQUIRE(report.performance.size() == 1);
    CHECK(report.performance[0].outcome == Outcome::not_run);
    CHECK(fixture.jobs.empty());
  }

  SUBCASE("a build that fails waits for no other cugrade's turn on the GPU: nothing of it would run") {
    options.performance = true;  // the reference's baselines wait for the GPU while the file builds
    fixture.expect_gpu();
    fixture.expect_compile("sm_90", nvcc_error(std::string(staged_source) + "(3): error: expected a \";\"\n"));
    auto held = std::make_unique<GpuClaim>(*GpuClaim::acquire("device-0", {}, fixture.locks()));
    std::vector<std::string> lines;
    fixture.options.progress = [&](const std::string& line) { lines.push_back(line); };
    auto checked = std::async(std::launch::async, [&] { return fixture.check(); });
    const bool ended = checked.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    held.reset();  // a check that waits after all ends now, and the test with it
    CHECK(ended);
    CHECK(checked.get().outcome == Outcome::compile_error);
    // The baselines said they wait (the build's outcome unknown then), and gave up: the GPU never came.
    CHECK(std::none_of(lines.begin(), lines.end(), [](const std::string& line) { return line.starts_with("got GPU"); }));
  }

  SUBCASE("link_error: an entry point of interface.cuh is missing") {
    fixture.expect_gpu();
    fixture.expect_compile();
    fixture.expect_nm();
    fixture.expect_seal();
    fixture.expect_link(nvcc_error(
        "/usr/bin/ld: /opt/cugrade/runners/twice/libcugrade_runner_twice.a(adapter.o): in function "
        "`cugrade_step_fast':\n"
        "tmpxft_0001-6_adapter.cudafe1.cpp:(.text+0x2a): undefined reference to "
        "`twice_fast(float const*, float*, int)'\n"
        "collect2: error: ld returned 1 exit status\n"));
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::link_error);
    CHECK_FALSE(report.gradable);
    CHECK(report.build.message ==
          "your file does not define twice_fast(float const*, ...), which interface.cuh declares: "
          "write this function (or keep the template's stub)");
    CHECK(report.score == 0.0);
    CHECK(report.max_score == 4.0);
    check_every_case(report, Outcome::not_run, "not run: the build failed");
  }

  SUBCASE("forbidden_symbol: the student's file defines main") {
    fixture.expect_gpu();
    fixture.expect_compile();
    fixture.expect_nm(std::string(clean_symbols) + "0000000000000200 T main\n");
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::forbidden_symbol);
    CHECK_FALSE(report.gradable);
    CHECK(report.build.message.starts_with("your file defines main, which it may not: "));
    CHECK(report.score == 0.0);
    check_every_case(report, Outcome::not_run, "not run: the build failed");
  }

  SUBCASE("timeout: the case that hung, and the rest of its step skipped") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.ends["fast/n=5/seed=1"] = timed_out();
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::timeout);
    CHECK(report.gradable);
    CHECK(report.score == 2.0);
    CHECK(report.max_score == 4.0);
    const CaseResult& hung = case_of(report, "fast/n=5/seed=1");
    CHECK(hung.outcome == Outcome::timeout);
    CHECK(hung.message == "did not finish within 10 s and was stopped (an endless loop, or far too slow)");
    CHECK(case_of(report, "fast/n=40/seed=1").outcome == Outcome::timeout);
    CHECK(case_of(report, "fast/n=40/seed=1").message ==
          "not run: an earlier case of this step timed out (fast/n=5/seed=1)");
    CHECK(case_of(report, "simple/n=40/seed=1").outcome == Outcome::passed);
    CHECK(fixture.jobs.size() == 1);  // nothing was left for a second runner
  }

  SUBCASE("crashed: the signal, and the cases after it still graded") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.ends["simple/n=40/seed=1"] = died_from(SIGSEGV);
    fixture.expect_runner(student);
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::crashed);
    CHECK(report.score == 3.0);
    CHECK(report.max_score == 4.0);
    // A crash says what happened; size patterns across cases are only for wrong answers.
    CHECK(case_of(report, "simple/n=40/seed=1").message ==
          "the program died from SIGSEGV (segmentation fault: a bad host pointer) during this case");
    CHECK(case_of(report, "fast/n=5/seed=1").outcome == Outcome::passed);
    CHECK(case_of(report, "fast/n=40/seed=1").outcome == Outcome::passed);
    REQUIRE(fixture.jobs.size() == 2);
    CHECK(task_ids_of(fixture.jobs[1]) ==
          std::vector<std::string>{fixture.task_id_of("fast/n=5/seed=1"), fixture.task_id_of("fast/n=40/seed=1")});
  }

  SUBCASE("cuda_error: the call, the error and the last kernel") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    Event error = event("cuda_error", "simple/n=5/seed=1");
    error.call = "twice_simple";
    error.error = "an illegal memory access was encountered";
    error.kernel = "twice_kernel";
    student.events[error.task] = error;
    student.ends[error.task] = fake_exit(3);
    fixture.expect_runner(student);
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::cuda_error);
    CHECK(report.score == 3.0);
    CHECK(case_of(report, "simple/n=5/seed=1").message.starts_with(
        "CUDA error in twice_simple: an illegal memory access was encountered (last kernel launched: "
        "twice_kernel)"));
  }

  SUBCASE("output_limit: the case that flooded the output") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.ends["fast/n=40/seed=1"] = flooded();
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::output_limit);
    CHECK(report.score == 3.0);
    CHECK(case_of(report, "fast/n=40/seed=1").message.starts_with(
        "your code printed more than the output limit; it was stopped (remove debug printing)"));
  }

  SUBCASE("protocol_error: an output file that is not an array file") {
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    student.garbage = {"fast/n=5/seed=1"};
    fixture.expect_runner(student);
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::protocol_error);
    CHECK(report.score == 3.0);
    CHECK(report.max_score == 4.0);
    const CaseResult& garbled = case_of(report, "fast/n=5/seed=1");
    CHECK(garbled.outcome == Outcome::protocol_error);
    CHECK(garbled.message.starts_with("the program's output could not be read ("));
    CHECK(garbled.comparisons.empty());
  }

  SUBCASE("not_run: no usable GPU, yet the file is built with nvcc") {
    fixture.expect_probe(test_data("device/probe_no_driver.json"));
    fixture.expect_nvcc_version();
    fixture.expect_build("sm_75");  // no GPU to ask: the oldest architecture CUDA 13 builds
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::not_run);
    CHECK(report.gradable);
    CHECK(report.build.outcome == Outcome::passed);
    CHECK(report.score == 0.0);
    CHECK(report.max_score == 0.0);
    CHECK(report.environment.backend == "cuda");
    CHECK(report.environment.gpu.empty());
    // Where no NVIDIA driver is loaded (this machine's /proc says), the probe's words say so
    // (explain_probe_error); CUDA's own stay in either case.
    check_every_case(report, Outcome::not_run,
                     "not run: no GPU is usable here (" +
                         explain_probe_error("CUDA driver version is insufficient for CUDA runtime version") +
                         "); the file compiled with nvcc. Run with --backend cpu to check correctness without a GPU");
    CHECK(fixture.jobs.empty());
    CHECK(fs::is_empty(fixture.locks()));  // no GPU, no claim: nothing for another cugrade to wait on
  }

  SUBCASE("harness_error: the runner cannot be started; no points lost") {
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_unstartable_runner();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::harness_error);
    CHECK(report.gradable);
    CHECK(report.score == 0.0);
    CHECK(report.max_score == 0.0);  // nothing graded: nothing the student could have lost
    check_every_case(report, Outcome::harness_error, "could not start the runner: exec format error");
    CHECK(std::find(report.notes.begin(), report.notes.end(),
                    "case simple/n=5/seed=1 not graded (harness_error): could not start the runner: exec "
                    "format error") != report.notes.end());
  }

  SUBCASE("hidden cases run only with the course secret, under a derived seed") {
    options.course_secret = CourseSecret("C0FFEE");
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);
    CHECK(report.score == 6.0);
    CHECK(report.max_score == 6.0);
    REQUIRE(report.cases.size() == 5);
    const CaseResult& hidden = case_of(report, "hidden/fast/1");
    CHECK(hidden.visibility == Visibility::hidden);
    CHECK(hidden.max_points == 2.0);
    CHECK(hidden.params == Params{{"n", 64}});
    CHECK(hidden.seed != 1);
    CHECK(hidden.seed == hidden_seed(CourseSecret("C0FFEE"), "twice/fast/n=64/1"));
  }

  SUBCASE("reference-only steps are neither run nor listed; asked for, they run as the reference") {
    Step exact = fixture.spec.steps.front();
    exact.name = "exact";
    exact.entry = "twice_exact";
    exact.reference_only = true;
    fixture.spec.steps.push_back(exact);  // the first case group covers every step
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const GradeReport student = fixture.check();
    CHECK(student.outcome == Outcome::passed);
    CHECK(student.max_score == 4.0);
    REQUIRE(student.cases.size() == 4);
    for (const auto& c : student.cases) CHECK(c.step != "exact");
    REQUIRE(fixture.jobs.size() == 1);
    for (const auto& task : fixture.jobs[0].checks) CHECK_FALSE(task.reference);

    // Asked for, the reference-only cases run in the reference runner, the rest in the student's.
    options.reference_only_steps = true;
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    fixture.expect_reference_runner();
    const GradeReport reference = fixture.check();
    CHECK(reference.outcome == Outcome::passed);
    CHECK(reference.max_score == 6.0);
    CHECK(case_of(reference, "exact/n=40/seed=1").outcome == Outcome::passed);
    REQUIRE(fixture.jobs.size() == 3);
    REQUIRE(fixture.jobs[1].checks.size() == 4);
    for (const auto& task : fixture.jobs[1].checks) CHECK_FALSE(task.reference);
    REQUIRE(fixture.jobs[2].checks.size() == 2);
    for (const auto& task : fixture.jobs[2].checks) CHECK((task.reference && task.step == "exact"));
  }

  SUBCASE("without the secret the hidden cases are left out, not failed") {
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(report.cases.size() == 4);
    CHECK(report.max_score == 4.0);
  }
}
