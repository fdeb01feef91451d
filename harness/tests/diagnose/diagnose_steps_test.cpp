// below_full_credit and diagnose_slow_steps (harness/src/diagnose/diagnose_steps.cpp) with a
// scripted ncu: only steps below full credit are profiled, the reference's counters are kept for
// the next check (and, in a file, for the next run; not past a rebuild of the reference), and a
// step whose counters cannot be had says so.
#include "diagnose/diagnose_steps.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "capture.hpp"
#include "process/fake_process_runner.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
/// A verified timing: the student at `student_ms`, the reference at `reference_ms`, ten samples each.
TimingOutcome timing(double student_ms, double reference_ms) {
  TimingOutcome t;
  t.status.outcome = Outcome::passed;
  t.student_ms.assign(10, student_ms);
  t.reference_ms.assign(10, reference_ms);
  return t;
}

PerformanceTarget target(const std::string& step) {
  PerformanceTarget t;
  t.step = step;
  t.reference = step;
  t.full_credit_at = 0.9;
  return t;
}

TimeTask task(const std::string& step) {
  TimeTask t;
  t.id = "perf/" + step;
  t.step = step;
  t.reference_step = step;
  t.params = {{"n", 1024}};
  return t;
}

std::string after(const std::vector<std::string>& argv, const std::string& option) {
  const auto it = std::find(argv.begin(), argv.end(), option);
  return it == argv.end() || it + 1 == argv.end() ? "" : *(it + 1);
}

/// A scripted ncu that writes the probe's counters of kernel `name`.
FakeProcessRunner::Handler ncu_writing(const std::string& name) {
  return [name](const ProcessRequest& r) {
    const std::string all = cugrade::test::capture_text("h100_probe_nvtx.csv");
    // The header and the rows of the one kernel.
    std::string table;
    std::size_t start = 0;
    while (start < all.size()) {
      std::size_t end = all.find('\n', start);
      if (end == std::string::npos) end = all.size();
      const std::string line = all.substr(start, end - start);
      if (line.rfind("\"ID\"", 0) == 0 || line.find("\"" + name + "(") != std::string::npos) table += line + "\n";
      start = end + 1;
    }
    std::ofstream(after(r.argv, "--log-file")) << table;
    return fake_exit(0);
  };
}

/// A scripted ncu of a run of several calls: the probe's rows of each kernel in `kernels`, in
/// that order and numbered so, "marker" standing for the runner's marker kernel before a call.
FakeProcessRunner::Handler ncu_writing_calls(const std::vector<std::string>& kernels) {
  return [kernels](const ProcessRequest& r) {
    const std::string all = cugrade::test::capture_text("h100_probe_nvtx.csv");
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < all.size();) {
      std::size_t end = all.find('\n', start);
      if (end == std::string::npos) end = all.size();
      lines.push_back(all.substr(start, end - start));
      start = end + 1;
    }
    std::string table;
    for (const auto& line : lines)
      if (line.rfind("\"ID\"", 0) == 0) table += line + "\n";
    for (std::size_t id = 0; id < kernels.size(); ++id) {
      const bool marker = kernels[id] == "marker";
      const std::string name = marker ? "transpose_naive" : kernels[id];
      std::string first_id;  // the capture's first launch of that kernel
      for (const auto& line : lines) {
        if (line.find("\"" + name + "(") == std::string::npos) continue;
        const std::string launch = line.substr(0, line.find(','));
        if (first_id.empty()) first_id = launch;
        if (launch != first_id) continue;
        std::string row = "\"" + std::to_string(id) + "\"" + line.substr(line.find(','));
        if (marker) row.replace(row.find(name + "("), name.size() + 1, "cugrade_call_marker(");
        table += row + "\n";
      }
    }
    std::ofstream(after(r.argv, "--log-file")) << table;
    return fake_exit(0);
  };
}

/// The check tasks of the job a profile ran (read while it runs: its folder goes afterwards).
std::vector<CheckTask> profiled_calls(const ProcessRequest& r) {
  std::ifstream in(r.argv.back());
  std::stringstream text;
  text << in.rdbuf();
  auto job = job_from_json(text.str());
  return job ? job->checks : std::vector<CheckTask>{};
}

/// `handler`, noting the calls of each job it is given in `jobs`.
FakeProcessRunner::Handler noting(std::vector<std::vector<CheckTask>>& jobs, FakeProcessRunner::Handler handler) {
  return [&jobs, handler](const ProcessRequest& r) {
    jobs.push_back(profiled_calls(r));
    return handler(r);
  };
}

struct Setup {
  fs::path dir = fs::temp_directory_path() / ("cugrade-diagnose-test-" + std::to_string(::getpid()));
  DiagnosisRequest request;
  Setup() {
    request.ncu = "/cuda/bin/ncu";
    request.student.runner = dir / "runner";
    request.reference_runner = "/build/runners/transpose/reference-runner";
    request.work_dir = dir / "diagnose";
    request.gpu = "NVIDIA H100 80GB HBM3";
  }
  ~Setup() { fs::remove_all(dir); }
};
}  // namespace

TEST_CASE("diagnose::below_full_credit") {
  CHECK(below_full_credit(timing(2.0, 1.0), target("s")));       // 0.5
  CHECK_FALSE(below_full_credit(timing(1.0, 0.95), target("s")));  // 0.95
  SUBCASE("the reference's baseline counts when it is faster") {
    TimingOutcome t = timing(1.0, 0.95);
    t.reference_alone_ms.assign(10, 0.8);
    CHECK(below_full_credit(t, target("s")));
  }
  SUBCASE("a timing that did not end well, or was not verified, is not diagnosed") {
    TimingOutcome t = timing(2.0, 1.0);
    t.verified = false;
    CHECK_FALSE(below_full_credit(t, target("s")));
    t = timing(2.0, 1.0);
    t.status.outcome = Outcome::timeout;
    CHECK_FALSE(below_full_credit(t, target("s")));
    CHECK_FALSE(below_full_credit(TimingOutcome{}, target("s")));
  }
}

TEST_CASE("diagnose::source_location") {
  CHECK(source_location("submission_0.cu", 27, {"matmul.cu"}) == "matmul.cu:27");
  CHECK(source_location("submission_1.cu", 3, {"a.cu", "b.cu"}) == "b.cu:3");
  CHECK(source_location("submission_5.cu", 3, {"a.cu"}) == "submission_5.cu:3");
  CHECK(source_location("helpers.cuh", 9, {"a.cu"}) == "helpers.cuh:9");
}

TEST_CASE("diagnose::diagnose_slow_steps") {
  Setup setup;
  FakeProcessRunner processes;
  const std::vector<TimeTask> tasks{task("naive"), task("padded")};
  const std::vector<PerformanceTarget> targets{target("naive"), target("padded")};

  SUBCASE("only the slow step is profiled: the reference first, then the student's") {
    processes.expect(ncu_writing("transpose_padded"));  // the reference
    processes.expect(ncu_writing("transpose_smem"));    // the student's
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(1.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].has_value());
    REQUIRE(out[1].has_value());
    CHECK(out[1]->cause == "bank_conflicts");
    REQUIRE(processes.requests().size() == 2);
    CHECK(processes.requests()[0].argv[processes.requests()[0].argv.size() - 2] == setup.request.reference_runner.string());
    CHECK(processes.requests()[1].argv[processes.requests()[1].argv.size() - 2] == setup.request.student.runner.string());
    // The profiles' folders are gone (their outputs can be as large as the timed size's).
    CHECK_FALSE(fs::exists(setup.request.work_dir / "student"));
    CHECK_FALSE(fs::exists(setup.request.work_dir / "reference"));
  }
  SUBCASE("two slow steps: one run of each side, each step's kernels told apart by the runner's markers") {
    std::vector<std::vector<CheckTask>> jobs;
    processes.expect(noting(jobs, ncu_writing_calls({"marker", "transpose_padded", "marker", "transpose_padded"})));
    processes.expect(noting(jobs, ncu_writing_calls({"marker", "transpose_naive", "marker", "transpose_smem"})));
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(processes.requests().size() == 2);
    REQUIRE(jobs.size() == 2);
    for (std::size_t r = 0; r < 2; ++r) {
      const auto& calls = jobs[r];
      REQUIRE(calls.size() == 2);
      CHECK(calls[0].step == "naive");
      CHECK(calls[1].step == "padded");
      CHECK(calls[0].reference == (r == 0));  // the reference's run first
      CHECK(calls[0].output_file.empty());  // a profiled call writes nothing back
      CHECK(after(processes.requests()[r].argv, "--launch-count") == "18");  // 8 kernels and a marker per call
    }
    REQUIRE(out[0].has_value());
    REQUIRE(out[1].has_value());
    CHECK(out[0]->cause == "uncoalesced_stores");  // transpose_naive against the padded reference
    CHECK(out[0]->kernel == "transpose_naive");
    CHECK(out[1]->cause == "bank_conflicts");      // transpose_smem
    CHECK(out[1]->kernel == "transpose_smem");
  }
  SUBCASE("a call the shared run did not reach is profiled again by itself") {
    std::vector<std::vector<CheckTask>> jobs;
    processes.expect(ncu_writing_calls({"marker", "transpose_padded", "marker", "transpose_padded"}));
    processes.expect(ncu_writing_calls({"marker", "transpose_naive"}));  // the runner ended after the first call
    processes.expect(noting(jobs, ncu_writing_calls({"marker", "transpose_smem"})));
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(processes.requests().size() == 3);
    REQUIRE(jobs.size() == 1);
    REQUIRE(jobs[0].size() == 1);
    CHECK(jobs[0][0].step == "padded");
    REQUIRE(out[0].has_value());
    REQUIRE(out[1].has_value());
    CHECK(out[0]->cause == "uncoalesced_stores");
    CHECK(out[1]->cause == "bank_conflicts");
  }
  SUBCASE("of two slow steps, only the one asked for is profiled") {
    setup.request.steps = {"padded"};
    processes.expect(ncu_writing("transpose_padded"));  // the reference
    processes.expect(ncu_writing("transpose_smem"));    // the student's
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].has_value());
    REQUIRE(out[1].has_value());
    CHECK(out[1]->cause == "bank_conflicts");
    CHECK(processes.requests().size() == 2);
    CHECK(processes.pending() == 0);
  }
  SUBCASE("with the sources, one more profile names the line, in the student's file name") {
    setup.request.sources = setup.dir / "src";
    setup.request.source_names = {"transpose.cu"};
    processes.expect(ncu_writing("transpose_padded"));
    processes.expect(ncu_writing("transpose_smem"));
    processes.expect([](const ProcessRequest& r) {
      std::string page = cugrade::test::capture_text("h100_source_transpose_smem.csv");
      page.replace(page.find("./slow.cu"), 9, "/w/src/submission_0.cu");
      std::ofstream(after(r.argv, "--log-file")) << page;
      return fake_exit(0);
    });
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(1.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(out[1].has_value());
    CHECK(out[1]->location == "transpose.cu:18");
    CHECK(out[1]->message.find("in transpose_smem (transpose.cu:18: `out[y * n + x] = tile[threadIdx.x][threadIdx.y];`):") !=
          std::string::npos);
    REQUIRE(processes.requests().size() == 3);
    const auto& argv = processes.requests()[2].argv;
    CHECK(after(argv, "--kernel-name") == "regex:^transpose_smem$");
    CHECK(after(argv, "--page") == "source");
  }
  SUBCASE("the reference's counters serve the next check from the cache") {
    CounterCache cache;
    processes.expect(ncu_writing("transpose_padded"));
    processes.expect(ncu_writing("transpose_smem"));
    processes.expect(ncu_writing("transpose_naive"));  // the second check: only the student's
    const std::vector<TimingOutcome> slow{timing(1.0, 1.0), timing(2.0, 1.0)};
    (void)diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &cache);
    const auto again = diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &cache);
    CHECK(processes.requests().size() == 3);
    REQUIRE(again[1].has_value());
    CHECK(again[1]->cause == "uncoalesced_stores");
  }
  SUBCASE("steps a later check will diagnose: their reference's counters in the same run, kept") {
    // The self-test's first entry diagnosing padded, the next one naive: one run of the reference.
    CounterCache cache;
    setup.request.steps = {"padded"};
    setup.request.reference_steps_ahead = {"naive", "padded"};
    std::vector<std::vector<CheckTask>> jobs;
    processes.expect(noting(jobs, ncu_writing_calls({"marker", "transpose_padded", "marker", "transpose_naive"})));
    processes.expect(noting(jobs, ncu_writing("transpose_smem")));   // the first check's student
    processes.expect(noting(jobs, ncu_writing("transpose_naive")));  // the second check's student, alone
    const std::vector<TimingOutcome> both_slow{timing(2.0, 1.0), timing(2.0, 1.0)};
    const auto first = diagnose_slow_steps(processes, setup.request, tasks, both_slow, targets, &cache);
    CHECK_FALSE(first[0].has_value());  // profiled for the reference only: no diagnosis of it here
    REQUIRE(first[1].has_value());
    CHECK(first[1]->cause == "bank_conflicts");
    REQUIRE(jobs.size() == 2);
    REQUIRE(jobs[0].size() == 2);
    CHECK(jobs[0][0].step == "padded");  // the check's own step first, then the one ahead
    CHECK(jobs[0][1].step == "naive");
    CHECK(jobs[0][1].reference);
    REQUIRE(jobs[1].size() == 1);  // the student's side: only the check's own step
    setup.request.steps = {"naive"};
    const auto second = diagnose_slow_steps(processes, setup.request, tasks, both_slow, targets, &cache);
    REQUIRE(processes.requests().size() == 3);  // no second run of the reference
    REQUIRE(second[0].has_value());
    CHECK(second[0]->cause != "unavailable");
    CHECK_FALSE(second[1].has_value());
    CHECK(processes.pending() == 0);
  }
  SUBCASE("steps ahead are not profiled where the reference's counters are kept already") {
    CounterCache cache;
    setup.request.steps = {"padded"};
    processes.expect(ncu_writing("transpose_padded"));
    processes.expect(ncu_writing("transpose_smem"));
    (void)diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets, &cache);
    setup.request.reference_steps_ahead = {"naive", "padded"};
    processes.expect(ncu_writing("transpose_smem"));  // only the student's: the reference's padded is kept
    (void)diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets, &cache);
    CHECK(processes.requests().size() == 3);
    CHECK(processes.pending() == 0);
  }
  SUBCASE("the reference's counters kept in a file serve the next run of cugrade") {
    fs::create_directories(setup.dir);
    const fs::path file = setup.dir / "counters.json";
    processes.expect(ncu_writing("transpose_padded"));
    processes.expect(ncu_writing("transpose_smem"));
    processes.expect(ncu_writing("transpose_naive"));  // the next run: only the student's
    const std::vector<TimingOutcome> slow{timing(1.0, 1.0), timing(2.0, 1.0)};
    {
      CounterCache first_run(file);
      (void)diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &first_run);
    }
    CounterCache next_run(file);
    const auto again = diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &next_run);
    CHECK(processes.requests().size() == 3);
    REQUIRE(again[1].has_value());
    CHECK(again[1]->cause == "uncoalesced_stores");
  }
  SUBCASE("a rebuilt reference runner is profiled again") {
    fs::create_directories(setup.dir);
    setup.request.reference_runner = setup.dir / "reference-runner";
    std::ofstream(setup.request.reference_runner) << "built once";
    CounterCache cache;
    for (int i = 0; i < 4; ++i) processes.expect(ncu_writing(i % 2 ? "transpose_smem" : "transpose_padded"));
    const std::vector<TimingOutcome> slow{timing(1.0, 1.0), timing(2.0, 1.0)};
    (void)diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &cache);
    std::ofstream(setup.request.reference_runner) << "built again, and longer";
    (void)diagnose_slow_steps(processes, setup.request, tasks, slow, targets, &cache);
    REQUIRE(processes.requests().size() == 4);
    CHECK(processes.requests()[2].argv[processes.requests()[2].argv.size() - 2] ==
          setup.request.reference_runner.string());
  }
  SUBCASE("without ncu every slow step says why, and nothing runs") {
    setup.request.ncu.clear();
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets);
    REQUIRE(out[0].has_value());
    CHECK(out[0]->cause == "unavailable");
    CHECK(out[0]->message.rfind("counters unavailable: Nsight Compute (ncu) is not installed here", 0) == 0);
    CHECK(out[1]->message == out[0]->message);
    CHECK(processes.requests().empty());
  }
  SUBCASE("a reference that cannot be profiled: one try, and every slow step says why") {
    processes.expect([](const ProcessRequest&) { return fake_exit(1, "", "==ERROR== ERR_NVGPUCTRPERM\n"); });
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(2.0, 1.0)}, targets);
    CHECK(processes.requests().size() == 1);
    REQUIRE(out[1].has_value());
    CHECK(out[1]->cause == "unavailable");
    CHECK(out[1]->message.find("ERR_NVGPUCTRPERM") != std::string::npos);
    CHECK(out[1]->message.find("(profiling the reference)") != std::string::npos);
  }
  SUBCASE("a spent budget: the step says so") {
    setup.request.budget_s = 0.0;
    const auto out = diagnose_slow_steps(processes, setup.request, tasks, {timing(2.0, 1.0), timing(1.0, 1.0)}, targets);
    REQUIRE(out[0].has_value());
    CHECK(out[0]->message.find("were spent on the steps before") != std::string::npos);
    CHECK(processes.requests().empty());
  }
}
