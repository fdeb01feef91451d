// run_submission's stages after the cases (check_stages.hpp, timing_stage.hpp), end to end
// through check_submission() on the CUDA backend with every command scripted: the timing and its
// credit, a turn on the GPU, the calibration, the diagnosis, the reference's baseline, and the
// timing beside other lanes (no runner started early).
#include "pipeline/check_stages.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "device/gpu_claim.hpp"
#include "pipeline/check_submission.hpp"
#include "pipeline/twice_fixture.hpp"
#include "start_gate.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("pipeline::check_submission performance") {
  PipelineFixture fixture;
  fixture.options.performance = true;
  fixture.expect_gpu();
  fixture.expect_build();
  FakeStudent student;

  SUBCASE("twice as slow as the reference: ratio 0.5 and linear credit") {
    student.student_ms = {1.98, 2.0, 2.02};
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);
    REQUIRE(report.performance.size() == 1);
    const PerformanceResult& perf = report.performance[0];
    CHECK(perf.outcome == Outcome::passed);
    CHECK(perf.ratio == doctest::Approx(0.5));
    REQUIRE(perf.student.has_value());
    CHECK(perf.student->median_ms == doctest::Approx(2.0));
    CHECK(perf.reference_time->median_ms == doctest::Approx(1.0));
    // Credit from 0 at ratio 0.3 to full at 0.9: (0.5 − 0.3) / 0.6 of 3 points.
    CHECK(perf.points == doctest::Approx(1.0));
    CHECK(perf.max_points == 3.0);
    CHECK(perf.flags.empty());
    CHECK(report.score == doctest::Approx(5.0));
    CHECK(report.max_score == doctest::Approx(7.0));
  }

  SUBCASE("another cugrade holds the GPU: the file builds meanwhile, the GPU's work waits for its turn") {
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    std::mutex lines_mutex;
    std::vector<std::string> lines;
    fixture.options.progress = [&](const std::string& line) {
      std::lock_guard lock(lines_mutex);
      lines.push_back(line);
    };
    const auto waits = [&] {
      std::lock_guard lock(lines_mutex);
      return std::count_if(lines.begin(), lines.end(),
                           [](const std::string& line) { return line.ends_with("waiting for its turn"); });
    };
    auto held = std::make_unique<GpuClaim>(*GpuClaim::acquire("device-0", {}, fixture.locks()));
    const std::size_t scripted = fixture.processes.pending();
    std::optional<GradeReport> report;
    std::thread check([&] { report = fixture.check(); });
    for (int i = 0; i < 1000 && waits() == 0; ++i)  // until it says it waits (10 s at most)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // and a little longer
    {
      std::lock_guard lock(lines_mutex);
      const auto waiting = std::find_if(lines.begin(), lines.end(),
                                        [](const std::string& line) { return line.ends_with("waiting for its turn"); });
      REQUIRE(waiting != lines.end());
      // Who holds it (this test's process), and that it waits: once.
      CHECK(waiting->starts_with("GPU 0 (NVIDIA H100 80GB HBM3) is in use by another cugrade on this machine (pid " +
                                 std::to_string(::getpid()) + ": "));
    }
    CHECK(waits() == 1);
    // Probed and built (nvcc's version, compile, symbols, seal, link): nothing of the GPU's ran.
    CHECK(fixture.processes.pending() == scripted - 6);
    held.reset();
    check.join();
    REQUIRE(report.has_value());
    CHECK(report->outcome == Outcome::passed);
    CHECK(report->performance.at(0).ratio == doctest::Approx(1.0));
    CHECK(waits() == 1);  // the baselines waited; the run's turn came after them
    CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
            return line.starts_with("got GPU 0 (NVIDIA H100 80GB HBM3) after ");
          }) == 1);
  }

  SUBCASE("a step below full credit is diagnosed: ncu on the reference's call, the student's, its lines") {
    fixture.options.diagnosis = true;
    setenv("CUGRADE_NCU", "/opt/nsight-compute/ncu", 1);
    student.student_ms = {1.98, 2.0, 2.02};
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    // The scripted ncu writes real H100 output (harness/tests/diagnose/data) to its --log-file.
    const auto ncu_writing = [](const std::string& capture, const std::string& kernel) {
      return [capture, kernel](const ProcessRequest& sent) {
        CHECK(sent.argv.front() == "/opt/nsight-compute/ncu");
        const auto log = std::find(sent.argv.begin(), sent.argv.end(), "--log-file");
        REQUIRE(log + 1 < sent.argv.end());
        std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/../diagnose/data/" + capture);
        std::string text, line;
        while (std::getline(in, line))
          if (kernel.empty() || line.rfind("\"ID\"", 0) == 0 || line.find("\"" + kernel + "(") != std::string::npos)
            text += line + "\n";
        if (const auto at = text.find("./slow.cu"); at != std::string::npos) text.replace(at, 9, "src/submission_0.cu");
        std::ofstream(*(log + 1)) << text;
        return fake_exit(0);
      };
    };
    fixture.processes.expect(ncu_writing("h100_probe_nvtx.csv", "transpose_padded"));  // the reference
    fixture.processes.expect(ncu_writing("h100_probe_nvtx.csv", "transpose_smem"));    // the student's
    SUBCASE("without its line (the self-test's): no source page profiled") {
      fixture.options.diagnosis_lines = false;
      const GradeReport report = fixture.check();
      unsetenv("CUGRADE_NCU");
      REQUIRE(report.performance.at(0).diagnosis.has_value());
      CHECK(report.performance.at(0).diagnosis->cause == "bank_conflicts");
      CHECK(report.performance.at(0).diagnosis->location.empty());
      CHECK(fixture.processes.pending() == 0);
      const auto& sent = fixture.processes.requests();
      CHECK(std::count_if(sent.begin(), sent.end(), [](const ProcessRequest& r) {
              return r.argv.front() == "/opt/nsight-compute/ncu";
            }) == 2);  // the reference's call and the student's: no third for the source page
      return;
    }
    fixture.processes.expect(ncu_writing("h100_source_transpose_smem.csv", ""));       // its lines
    const GradeReport report = fixture.check();
    unsetenv("CUGRADE_NCU");
    const PerformanceResult& perf = report.performance.at(0);
    CHECK(perf.points == doctest::Approx(1.0));  // advice only: the points are the ratio's
    REQUIRE(perf.diagnosis.has_value());
    CHECK(perf.diagnosis->cause == "bank_conflicts");
    CHECK(perf.diagnosis->location == "twice.cu:18");  // the student's own file name
    CHECK(perf.diagnosis->message.find("in transpose_smem (twice.cu:18: ") != std::string::npos);
    // Every profile ran the one call in a folder of its own under the check's work folder.
    const auto& requests = fixture.processes.requests();
    REQUIRE(requests.size() >= 3);
    CHECK(requests[requests.size() - 3].argv.at(requests[requests.size() - 3].argv.size() - 2) ==
          (fixture.where.runner_dir / "twice" / "reference-runner").string());
  }

  SUBCASE("a reference slower beside the student's runner than beside its twin: its baseline counts") {
    student.reference_alone_ms = {0.5, 0.5, 0.5};  // beside its twin; 1.0 beside the student's runner
    // The kept baseline blames the student, so the timing would take it again with a twin of its
    // own: none is scripted, that one does not start, and the kept baseline stands.
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    REQUIRE(report.performance.size() == 1);
    const PerformanceResult& perf = report.performance[0];
    CHECK(perf.reference_time->median_ms == doctest::Approx(0.5));
    REQUIRE(perf.reference_alone.has_value());
    CHECK(perf.reference_alone->median_ms == doctest::Approx(0.5));
    CHECK(perf.student->median_ms == doctest::Approx(1.0));
    CHECK(perf.ratio == doctest::Approx(0.5));
    CHECK(std::find(perf.flags.begin(), perf.flags.end(), "reference_disturbed") != perf.flags.end());
    CHECK(perf.message.find("something of yours kept the GPU busy") != std::string::npos);
  }

  SUBCASE("a reference 8 % slower beside the student's runner than beside its twin (drift): no flag") {
    student.reference_alone_ms = {0.925, 0.925, 0.925};  // 1.0 beside: 1.08 times its baseline
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    const PerformanceResult& perf = report.performance.at(0);
    CHECK(perf.reference_time->median_ms == doctest::Approx(1.0));
    CHECK(perf.flags.empty());
  }

  SUBCASE("a reference as fast beside the student's runner as alone: no flag") {
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    const PerformanceResult& perf = report.performance.at(0);
    REQUIRE(perf.reference_alone.has_value());
    CHECK(perf.reference_alone->median_ms == doctest::Approx(1.0));
    CHECK(perf.flags.empty());
  }

  SUBCASE("timed output that differs from the reference's earns nothing") {
    student.timed_output_wrong = true;
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.expect_calibrate();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);  // the correctness cases all passed
    REQUIRE(report.performance.size() == 1);
    const PerformanceResult& perf = report.performance[0];
    CHECK(perf.outcome == Outcome::wrong_answer);
    CHECK(perf.flags == std::vector<std::string>{"output_mismatch"});
    CHECK(perf.points == 0.0);
    CHECK(perf.message.starts_with("while being timed, your fast timed call "));
    CHECK(perf.message.find("outputs differ from the reference's on the same inputs") != std::string::npos);
    CHECK(perf.message.ends_with(": performance earns nothing unless the timed code is correct"));
    CHECK(report.score == doctest::Approx(4.0));
    CHECK(report.max_score == doctest::Approx(7.0));
  }

  SUBCASE("a failed calibration leaves the rate without a percentage of the ceiling") {
    fixture.expect_runner(student);
    fixture.expect_timing(student);
    fixture.processes.expect([](const ProcessRequest&) { return fake_exit(1, "", "cuBLAS not found\n"); });
    const GradeReport report = fixture.check();
    REQUIRE(report.performance.size() == 1);
    CHECK(report.performance[0].outcome == Outcome::passed);
    CHECK_FALSE(report.performance[0].percent_of_ceiling.has_value());
    CHECK(report.performance[0].points == doctest::Approx(3.0));
  }

  SUBCASE("a step whose cases fail is not timed and earns no performance points") {
    student.tamper = [](const CheckTask& task, ArraySet& outputs, ArraySet&) {
      if (task.step == "fast") outputs.at("y").data<float>()[0] = 0.5f;
    };
    fixture.expect_runner(student);  // and no timing: the GPU's time is not spent on it
    // (the baselines were tried while it built, before anything was known: unscripted, they fail
    // quietly and cost nothing)
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::wrong_answer);
    CHECK(report.performance.at(0).outcome == Outcome::wrong_answer);
    CAPTURE(report.performance.at(0).message);
    CHECK(report.performance.at(0).message.starts_with("not timed: 2 of the 2 cases of step fast failed"));
    CHECK(report.performance.at(0).points == 0.0);
    CHECK(report.score == doctest::Approx(2.0));
    CHECK(report.max_score == doctest::Approx(7.0));
  }

  SUBCASE("beside other lanes on the GPU: the cases in a shared turn, the timing alone, no runner started early") {
    CheckContext context{fixture.processes, fixture.where};
    context.baselines = std::make_shared<BaselineCache>();
    context.gpu_turns = std::make_shared<GpuTurns>();
    std::vector<std::string> turns;
    const auto turn_now = [&context] {
      return context.gpu_turns->alone_now() ? "alone" : context.gpu_turns->sharing() == 1 ? "shared" : "none";
    };
    fixture.options.progress = [&](const std::string& line) {
      if (line.starts_with("ran the cases") || line.starts_with("timed fast")) turns.push_back(turn_now());
    };
    bool kept = false;
    SUBCASE("a baseline kept: yet no runner waits beside the cases for the timing") {
      kept = true;
      fixture.expect_timing({}, PipelineFixture::Timed::baselines);
      fixture.expect_runner(student);
      fixture.expect_timing(student, PipelineFixture::Timed::sides);
    }
    SUBCASE("none kept: the reference beside its twin, once the GPU is alone") {
      fixture.expect_runner(student);
      fixture.expect_timing(student, PipelineFixture::Timed::fresh);
    }
    fixture.expect_calibrate();
    BuiltSubmission built = build_for_check(context, fixture.spec, twice_grader, fixture.options);
    if (kept) {  // as a batch takes them ahead, on the GPU it probed
      CheckContext probed = context;
      probed.device = parse_probe_output(test_data("device/probe_h100.json")).value();
      CHECK(take_baselines_now(probed, fixture.spec, twice_grader, fixture.options, fixture.work()) > 0.0);
    }
    const GradeReport report = score_submission(
        context, fixture.spec, fixture.options, run_submission(context, fixture.spec, twice_grader, fixture.options, std::move(built)));
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::passed);
    CHECK(report.performance.at(0).ratio == doctest::Approx(1.0));
    CHECK(turns == std::vector<std::string>{"shared", "alone"});
    CHECK(std::string(turn_now()) == "none");  // both given back
    for (const ProcessRequest& sent : fixture.processes.requests())
      CHECK(sent.environment.count(start_gate_variable) == 0);
  }
}

TEST_CASE("pipeline::mark_unrunnable") {
  PipelineFixture fixture;
  BuiltSubmission built;
  built.cases = expand_cases(fixture.spec, std::nullopt);
  built.use_cuda = true;
  GradeReport report;

  SUBCASE("a failed build: every case not run, and the steps that were to be timed") {
    report.build.outcome = Outcome::compile_error;
    CHECK(mark_unrunnable(report, built, fixture.spec, true));
    REQUIRE_FALSE(report.cases.empty());
    for (const auto& c : report.cases) {
      CHECK(c.outcome == Outcome::not_run);
      CHECK(c.message == "not run: the build failed");
    }
    CHECK(report.performance.size() == fixture.spec.performance.size());
  }
  SUBCASE("a failed build, not timed: no step listed") {
    report.build.outcome = Outcome::compile_error;
    CHECK(mark_unrunnable(report, built, fixture.spec, false));
    CHECK(report.performance.empty());
  }
  SUBCASE("built for the GPU where there is none: not run, and how to check without one") {
    report.build.outcome = Outcome::passed;
    built.device.error = "no CUDA driver";
    CHECK(mark_unrunnable(report, built, fixture.spec, false));
    REQUIRE_FALSE(report.cases.empty());
    CHECK(report.cases.front().message.starts_with("not run: no GPU is usable here (no CUDA driver)"));
    CHECK(report.cases.front().message.ends_with("Run with --backend cpu to check correctness without a GPU"));
  }
  SUBCASE("built on the CPU backend: it runs") {
    report.build.outcome = Outcome::passed;
    built.use_cuda = false;
    CHECK_FALSE(mark_unrunnable(report, built, fixture.spec, false));
    CHECK(report.cases.empty());
  }
}
