// The compute-sanitizer pass (pipeline/sanitizer_pass.hpp) inside check_submission, with the
// sanitizer scripted: which cases it runs, which tools, and what a report does to a case.
#include "pipeline/sanitizer_pass.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <mutex>

#include "pipeline/check_submission.hpp"
#include "pipeline/sanitizer_fixture.hpp"
#include "pipeline/twice_fixture.hpp"
#include "task_markers.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// memcheck's runner as sanitized_runner scripts it, which also notes the ids of the tasks it was
/// given in `sanitized`.
FakeProcessRunner::Handler recording_memcheck(std::vector<std::string>* sanitized, std::vector<std::string>* tools,
                                              std::mutex* mutex) {
  const auto memcheck = sanitized_runner({}, tools, mutex);
  return [=](const ProcessRequest& request) {
    for (const auto& task : read_job(request.argv.back()).checks) sanitized->push_back(task.id);
    return memcheck(request);
  };
}

}  // namespace

TEST_CASE("pipeline::sanitizer_tools") {
  PipelineFixture fixture;
  SUBCASE("a kernel on the runner's arrays: memcheck alone") {
    CHECK(sanitizer_tools({fixture.source()}) == std::vector<std::string>{"memcheck"});
  }
  SUBCASE("memory of its own: initcheck, which finds reads of memory nothing wrote") {
    std::ofstream(fixture.source(), std::ios::app) << "void scratch(float** p) { cudaMalloc(p, 64); }\n";
    CHECK(sanitizer_tools({fixture.source()}) == std::vector<std::string>{"memcheck", "initcheck"});
  }
  SUBCASE("shared memory, a warp barrier and an allocation: every tool") {
    std::ofstream(fixture.source(), std::ios::app)
        << "__global__ void k() { __shared__ float s[32]; __syncwarp(); }\n"
        << "void scratch(float** p) { cudaMallocAsync(p, 64, 0); }\n";
    CHECK(sanitizer_tools({fixture.source()}) ==
          std::vector<std::string>{"memcheck", "racecheck", "initcheck", "synccheck"});
  }
}

TEST_CASE("pipeline::racecheck_cases") {
  const std::map<std::string, std::size_t> bytes{{"tiny", 12},      {"small", 8192},   {"mid", 27000},
                                                 {"fits", 32768},   {"edge", 65536},   {"over", 65537},
                                                 {"huge", 300000}};
  SUBCASE("first the smallest and the two largest within 64 KiB; the others after a race; in the job's order") {
    const RacecheckCases cases = racecheck_cases({"tiny", "huge", "fits", "small", "edge", "mid", "over"}, bytes);
    CHECK(cases.first == std::vector<std::string>{"tiny", "fits", "edge"});
    CHECK(cases.after_race == std::vector<std::string>{"huge", "small", "mid", "over"});
  }
  SUBCASE("three or fewer within 64 KiB: all of them first") {
    const RacecheckCases cases = racecheck_cases({"over", "small", "tiny"}, bytes);
    CHECK(cases.first == std::vector<std::string>{"small", "tiny"});
    CHECK(cases.after_race == std::vector<std::string>{"over"});
  }
  SUBCASE("a case within 64 KiB but of much work (2049 N-body bodies) is left for after a race") {
    const std::map<std::string, double> work{{"fits", 4.2e6}, {"edge", 1e6}, {"tiny", 0.0}};
    const RacecheckCases cases = racecheck_cases({"tiny", "huge", "fits", "small", "edge", "mid", "over"}, bytes, work);
    CHECK(cases.first == std::vector<std::string>{"tiny", "edge", "mid"});
    CHECK(cases.after_race == std::vector<std::string>{"huge", "fits", "small", "over"});
  }
  SUBCASE("none within 64 KiB: none first, so none at all") {
    const RacecheckCases cases = racecheck_cases({"huge", "over"}, bytes);
    CHECK(cases.first.empty());
    CHECK(cases.after_race == std::vector<std::string>{"huge", "over"});
  }
}

TEST_CASE("pipeline::sanitizer_command") {
  const auto argv = sanitizer_command("/opt/cuda/compute-sanitizer/compute-sanitizer", "racecheck");
  CHECK(argv.front() == "/opt/cuda/compute-sanitizer/compute-sanitizer");
  CHECK(argument_after(argv, "--tool") == "racecheck");
  CHECK(argument_after(argv, "--show-backtrace") == "no");
  CHECK(argument_after(argv, "--print-limit") == "1000");
  CHECK(argument_after(argv, "--destroy-on-device-error").empty());  // memcheck only
  CHECK(argument_after(argv, "--target-processes") == "application-only");  // never waits for a forked daemon
  CHECK(argument_after(sanitizer_command("cs", "memcheck"), "--destroy-on-device-error") == "kernel");
  CHECK(argument_after(argv, "--port").empty());  // the tool's own, where a runner has a network of its own
  CHECK(argument_after(sanitizer_command("cs", "racecheck", 49252), "--port") == "49252");
  // Unsealed runners side by side: each its own base port, in the range the tool takes.
  const int a = next_sanitizer_port(), b = next_sanitizer_port();
  CHECK(a != b);
  for (int port : {a, b}) CHECK((port >= 49152 && port + 99 <= 65535));
}

TEST_CASE("pipeline::run_sanitizer_pass through check_submission") {
  PipelineFixture fixture;
  CheckOptions& options = fixture.options;
  const fs::path sanitizer = fixture.root / "cuda" / "compute-sanitizer" / "compute-sanitizer";
  fs::create_directories(sanitizer.parent_path());
  std::ofstream(sanitizer) << "#!/bin/sh\n";
  std::vector<std::string> tools;
  std::mutex mutex;

  SUBCASE("a write past the end in a case whose numbers were right: cuda_error, with the array and the line") {
    std::ofstream(fixture.source(), std::ios::app) << "void scratch(float** p) { cudaMalloc(p, 64); }\n";
    fixture.where.compute_sanitizer = sanitizer;
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const std::string bad = fixture.task_id_of("simple/n=5/seed=1");
    // memcheck and initcheck each in one runner for every step; memcheck's stops at the bad
    // case, and the cases after it run in a fresh one.
    for (int i = 0; i < 3; ++i) fixture.processes.expect(sanitized_runner({bad}, &tools, &mutex));
    const GradeReport report = fixture.check();
    CHECK(fixture.processes.pending() == 0);
    std::sort(tools.begin(), tools.end());
    CHECK(tools == std::vector<std::string>{"initcheck", "memcheck", "memcheck"});
    REQUIRE(report.cases.size() == 4);
    CHECK(report.cases[0].outcome == Outcome::cuda_error);
    CHECK(report.cases[0].points == 0.0);
    CHECK(report.cases[0].message.find("out-of-bounds global memory write of 4 bytes in kernel twice_kernel "
                                       "(thread (5,0,0) of block (0,0,0)) at byte offset 20 of y "
                                       "(20 bytes), just past its end; the write is at twice.cu:3") != std::string::npos);
    for (std::size_t i = 1; i < 4; ++i) CHECK(report.cases[i].outcome == Outcome::passed);
    CHECK(report.outcome != Outcome::passed);
    bool noted = false;
    for (const auto& note : report.notes) noted = noted || note.starts_with("compute-sanitizer (");
    CHECK(noted);
  }
  SUBCASE("a race in a step's first cases: racecheck checks every case of that step, not of the others") {
    std::ofstream(fixture.source(), std::ios::app) << "__global__ void tiled() { __shared__ float tile[256]; }\n";
    fixture.spec.cases[0].sizes.push_back({{"n", 20000}});  // 80 000 bytes of input
    fixture.where.compute_sanitizer = sanitizer;
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const std::string raced = fixture.task_id_of("simple/n=5/seed=1");
    const std::string larger = fixture.task_id_of("simple/n=20000/seed=1");
    // memcheck's one runner, racecheck's one for both steps (n = 5 and 40 of each), and racecheck
    // again on simple's n = 20000 only: the race was in simple's cases.
    for (int i = 0; i < 3; ++i) fixture.processes.expect(sanitized_runner({}, &tools, &mutex, {raced, larger}));
    const GradeReport report = fixture.check();
    CHECK(fixture.processes.pending() == 0);
    std::sort(tools.begin(), tools.end());
    CHECK(tools == std::vector<std::string>{"memcheck", "racecheck", "racecheck"});
    // Shared memory: the runner ran every case again with it starting as 0x00, after all of them.
    REQUIRE(!fixture.jobs.empty());
    CHECK(fixture.jobs.front().checks.size() == 12);  // six cases, then the six again
    CHECK(fixture.jobs.front().checks.back().shared_poison == "00");
    std::map<std::string, Outcome> outcome_of;
    for (const auto& c : report.cases) outcome_of[c.id] = c.outcome;
    CHECK(outcome_of.at("simple/n=5/seed=1") == Outcome::wrong_answer);
    CHECK(outcome_of.at("simple/n=20000/seed=1") == Outcome::wrong_answer);
    CHECK(outcome_of.at("simple/n=40/seed=1") == Outcome::passed);
    CHECK(outcome_of.at("fast/n=20000/seed=1") == Outcome::passed);  // its step had no race: never checked
    for (const auto& c : report.cases)
      if (c.id == "simple/n=20000/seed=1") CHECK(c.message.find("a race on __shared__ memory") != std::string::npos);
    bool noted = false;
    for (const auto& note : report.notes)
      noted = noted || note.find("so it checked every case of the step: simple (1 more case)") != std::string::npos;
    CHECK(noted);
  }
  SUBCASE("a case whose run ended its runner (a crash) is not run again under the sanitizer") {
    fixture.where.compute_sanitizer = sanitizer;
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    const std::string crashed = fixture.task_id_of("simple/n=40/seed=1");
    student.ends["simple/n=40/seed=1"] = died_from(SIGSEGV);
    fixture.expect_runner(student);
    fixture.expect_runner();  // the cases after the crash, in a fresh runner
    std::vector<std::string> sanitized;
    fixture.processes.expect(recording_memcheck(&sanitized, &tools, &mutex));
    const GradeReport report = fixture.check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(tools == std::vector<std::string>{"memcheck"});
    CHECK(sanitized.size() == 3);
    CHECK(std::ranges::find(sanitized, crashed) == sanitized.end());
    CHECK(case_of(report, "simple/n=40/seed=1").outcome == Outcome::crashed);
  }
  SUBCASE("a case whose call the runtime refused is not run again under the sanitizer; a fault's case is") {
    fixture.where.compute_sanitizer = sanitizer;
    fixture.expect_gpu();
    fixture.expect_build();
    FakeStudent student;
    Event refused = event("cuda_error", "simple/n=40/seed=1");
    refused.call = "twice_simple() → cudaGetLastError";
    refused.error = "invalid argument: kernel `twice_kernel` was launched with 2048 threads per block (2048x1x1); "
                    "a block has at most 1024 threads";
    refused.context_survived = true;
    student.events[refused.task] = refused;
    Event fault = event("cuda_error", "fast/n=5/seed=1");
    fault.call = "twice_fast() → cudaDeviceSynchronize";
    fault.error = "an illegal memory access was encountered";
    student.events[fault.task] = fault;
    student.ends[fault.task] = fake_exit(3);
    fixture.expect_runner(student);
    fixture.expect_runner();  // the case after the fault, in a fresh runner
    std::vector<std::string> sanitized;
    fixture.processes.expect(recording_memcheck(&sanitized, &tools, &mutex));
    const GradeReport report = fixture.check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(tools == std::vector<std::string>{"memcheck"});
    CHECK(std::ranges::find(sanitized, fixture.task_id_of("simple/n=40/seed=1")) == sanitized.end());
    CHECK(std::ranges::find(sanitized, fixture.task_id_of("fast/n=5/seed=1")) != sanitized.end());
    CHECK(sanitized.size() == 3);
    CHECK(case_of(report, "simple/n=40/seed=1").outcome == Outcome::cuda_error);
    CHECK(case_of(report, "simple/n=40/seed=1").message.find("2048 threads per block") != std::string::npos);
  }
  SUBCASE("--no-sanitizer: nothing more runs") {
    fixture.where.compute_sanitizer = sanitizer;
    options.sanitizer = false;
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(fixture.processes.pending() == 0);
    CHECK(report.outcome == Outcome::passed);
  }
  SUBCASE("no sanitizer installed: a note, and the grade stands") {
    fixture.where.compute_sanitizer = fixture.root / "nowhere" / "compute-sanitizer";
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);
    bool noted = false;
    for (const auto& note : report.notes) noted = noted || note.starts_with("compute-sanitizer is not installed");
    CHECK(noted);
  }
  SUBCASE("a sanitizer that never starts the runner: a note, the grade stands") {
    std::ofstream(fixture.source(), std::ios::app) << "void scratch(float** p) { cudaMalloc(p, 64); }\n";
    fixture.where.compute_sanitizer = sanitizer;
    fixture.expect_gpu();
    fixture.expect_build();
    fixture.expect_runner();
    for (int i = 0; i < 2; ++i)  // memcheck's one runner, initcheck's one
      fixture.processes.expect([](const ProcessRequest&) { return fake_exit(1, "", "cannot open the GPU\n"); });
    const GradeReport report = fixture.check();
    CHECK(report.outcome == Outcome::passed);
    bool noted = false;
    int problems = 0;
    for (const auto& note : report.notes)
      problems += note.find("compute-sanitizer could not check the cases") != std::string::npos;
    CHECK(problems == 2);  // once per tool
  }
}

TEST_CASE("pipeline::give_sanitizer_finding") {
  CaseResult result;
  result.outcome = Outcome::wrong_answer;
  result.message = "36 of 37 elements wrong";
  result.comparisons.resize(1);
  result.comparisons[0].pattern = "36 of 37 elements still hold the value cugrade filled the output with before the "
                                  "call: never written (or the result was never copied back into it)";
  SUBCASE("an invalid access causes the wrong answer: it goes first, the patterns that follow from it go") {
    // transpose/naive_leading_dim_cols of the buggy corpus on an H200: the stores went past the end.
    give_sanitizer_finding(result, Outcome::cuda_error, "out-of-bounds global memory write — found by compute-sanitizer memcheck");
    CHECK(result.outcome == Outcome::cuda_error);
    CHECK(result.message == "out-of-bounds global memory write — found by compute-sanitizer memcheck — 36 of 37 elements wrong");
    CHECK(result.comparisons[0].pattern.empty());
  }
  SUBCASE("a race's report is appended, and the patterns stay") {
    give_sanitizer_finding(result, Outcome::wrong_answer, "a race on shared memory");
    CHECK(result.outcome == Outcome::wrong_answer);
    CHECK(result.message == "36 of 37 elements wrong — a race on shared memory");
    CHECK_FALSE(result.comparisons[0].pattern.empty());
  }
  SUBCASE("a passed case takes the outcome and the message") {
    result.outcome = Outcome::passed;
    result.message.clear();
    result.points = 1.0;
    give_sanitizer_finding(result, Outcome::cuda_error, "out-of-bounds global memory read");
    CHECK(result.outcome == Outcome::cuda_error);
    CHECK(result.points == 0.0);
    CHECK(result.message == "out-of-bounds global memory read");
  }
}
