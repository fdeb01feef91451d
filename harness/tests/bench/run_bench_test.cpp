// `cugrade bench` end to end on a scripted machine: the reference runner is a fake (no GPU), so
// what each row ends up with is tested on the CPU.
#include "bench/run_bench.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "bench/bench_fixture.hpp"
#include "bench/bench_sample.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// The bench of "twice" with its reference in a private root, and a strict scripted machine.
struct BenchRun {
  BenchTempDir root;
  Spec spec = bench_twice_spec();
  Locations where;
  FakeProcessRunner processes;
  std::vector<Job> jobs;
  BenchOptions options;

  BenchRun() {
    std::filesystem::create_directories(root.path / "reference" / "twice");
    std::ofstream(source()) << twice_source;
    where.root = root.path;
    where.runner_dir = root.path / "runners";
    where.nvcc = "/opt/cuda/bin/nvcc";
    options.work_dir = work();
    // The reference runner is built with cugrade; here a stand-in file (the runner is a fake).
    std::filesystem::create_directories(reference_runner().parent_path());
    std::ofstream(reference_runner()) << "fake reference runner";
  }
  std::filesystem::path reference_runner() const { return where.reference_runner("twice", true); }
  std::filesystem::path source() const { return root.path / "reference" / "twice" / "twice.cu"; }
  std::filesystem::path work() const { return root.path / "work"; }

  /// One runner process: each task reports `reference_ms`, or ends as `ends` says.
  void expect_runner(std::vector<double> reference_ms,
                     std::map<std::string, ProcessResult> ends = {}) {
    processes.expect(scripted_runner(
        [this, reference_ms, ends](const Job& job, const std::string& id,
                                   const ProcessRequest& sent) -> std::optional<ProcessResult> {
          CHECK(sent.argv.front() == reference_runner().string());
          CHECK(sent.environment.at("CUDA_MODULE_LOADING") == "EAGER");
          if (auto end = ends.find(id); end != ends.end()) return end->second;
          Event samples = event("samples", id);
          samples.reference_ms = reference_ms;
          emit(job, samples);
          return std::nullopt;
        },
        &jobs));
  }
  BenchAssignment run() {
    DeviceInfo device = *parse_probe_output(test_data("device/probe_h100.json"));
    const BenchAssignment result =
        bench_assignment(BenchContext{processes, where, device, sample_ceilings()}, spec,
                         twice_grader, options);
    CHECK_MESSAGE(processes.pending() == 0, "scripted commands left unused");
    return result;
  }
};

}  // namespace

TEST_CASE("bench::bench_assignment") {
  BenchRun bench;

  SUBCASE("every row timed alone in one reference runner, the tables computed") {
    bench.expect_runner({0.004, 0.005, 0.006});
    const BenchAssignment result = bench.run();
    CHECK(result.id == "twice");
    CHECK(result.title == "Doubling a vector");
    CHECK(result.problem.empty());
    REQUIRE(bench.jobs.size() == 1);
    REQUIRE(bench.jobs[0].timings.size() == 3);
    CHECK(bench.jobs[0].checks.empty());
    for (const auto& task : bench.jobs[0].timings) CHECK(task.reference_only);
    REQUIRE(result.tables.size() == 2);
    const BenchTableResult& first = result.tables[0];
    CHECK(first.title == "n = 4096");
    CHECK(first.ceiling == "copy");
    REQUIRE(first.cpu_gold_ms.has_value());
    REQUIRE(first.rows.size() == 2);
    CHECK(first.rows[0].label == "Kernel 1");
    CHECK(first.rows[0].outcome == Outcome::passed);
    CHECK(first.rows[0].time->median_ms == 0.005);
    CHECK(first.rows[0].time->samples == 3);
    CHECK(first.rows[0].rate == doctest::Approx(8.0 * 4096 / 0.005e-3 / 1e9));
    CHECK(*first.rows[0].cpu_ratio == doctest::Approx(*first.cpu_gold_ms / 0.005));
    CHECK(*first.rows[1].speedup == doctest::Approx(1.0));
    const BenchTableResult& second = result.tables[1];
    CHECK(second.ceiling == "read");
    CHECK_FALSE(second.cpu_gold_ms.has_value());
    CHECK(second.notes ==
          std::vector<std::string>{"no Rate column: this table does not time the CPU gold (rate: false)"});
  }

  SUBCASE("a reference that crashes in one row: that row says so, the rest run in a fresh runner") {
    bench.expect_runner({0.005}, {{"bench/1/fast", died_from(11)}});
    bench.expect_runner({0.005});
    const BenchAssignment result = bench.run();
    const BenchRowResult& crashed = result.tables[0].rows[1];
    CHECK(crashed.outcome == Outcome::crashed);
    CHECK(crashed.message ==
          "the reference crashed: the program died from SIGSEGV (segmentation fault: a bad host "
          "pointer) during this case");
    CHECK_FALSE(crashed.time.has_value());
    CHECK(result.tables[1].rows[0].outcome == Outcome::passed);
    CHECK(bench.jobs.size() == 2);
  }

  SUBCASE("a reference runner that is not built: every row not run, and the assignment says why") {
    std::filesystem::remove(bench.reference_runner());
    const BenchAssignment result = bench.run();
    CHECK(result.problem.find("is not built") != std::string::npos);
    REQUIRE(result.tables.size() == 2);
    for (const auto& table : result.tables)
      for (const auto& row : table.rows) {
        CHECK(row.outcome == Outcome::not_run);
        CHECK(row.message == "not run: the reference runner is not built");
      }
    CHECK(result.tables[0].rate_unit == "GB/s");
  }
}
