#pragma once
// Reports used by several report tests (and their golden files): a rich graded one that touches
// every part of GradeReport, and one whose build failed.
#include <limits>

#include "report/grade_report.hpp"

namespace cugrade::test {

/// Where it ran in both samples.
inline Environment sample_environment() {
  return Environment{.backend = "cuda", .gpu = "NVIDIA H100 80GB HBM3",
                     .compute_capability = "9.0", .driver = "580.159.04",
                     .cuda_runtime = "13.0", .nvcc = "13.0.88", .host = "gpu-node-3",
                     .sm_clock_mhz = 1980, .memory_clock_mhz = 2619};
}

/// A visible wrong answer in the last partial tile: 312 elements wrong, the first five listed.
inline CaseResult sample_wrong_tile() {
  Comparison c{.array = "C", .checked = 2145, .wrong = 312, .nonfinite = 0,
               .max_abs_error = 12.5, .max_rel_error = 1.0,
               .pattern = "only the last partial tile is wrong (row 64, columns 0-32)"};
  for (std::int64_t col = 0; col < 5; ++col)
    c.first.push_back(Mismatch{.index = 64 * 33 + col, .coords = {64, col},
                               .expected = 3.25 + static_cast<double>(col), .actual = 0.0});
  return CaseResult{.id = "tiled/K=47,M=65,N=33/seed=1", .step = "tiled",
                    .params = {{"M", 65}, {"N", 33}, {"K", 47}}, .seed = 1,
                    .outcome = Outcome::wrong_answer, .points = 0.0, .max_points = 1.0,
                    .seconds = 0.021,
                    .message = "check the bounds test when loading the last tile",
                    .comparisons = {c}};
}

/// A graded submission touching every part of the report: passes, a wrong answer, a NaN-free
/// and an infinite mismatch, a crash, hidden cases, two timed steps and notes.
inline GradeReport sample_report() {
  GradeReport r;
  r.cugrade_version = "0.1.0";
  r.assignment = "matmul";
  r.title = "Tiled matrix multiplication";
  r.submission = {"matmul.cu"};
  r.submission_sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  r.seed = 20250314;
  r.started_at = "2025-03-14T09:26:53Z";
  r.environment = sample_environment();
  r.build = BuildResult{
      .outcome = Outcome::passed, .arch = "sm_90", .seconds = 12.34,
      .commands = {"nvcc -O3 -arch=sm_90 -c matmul.cu -o matmul.o"},
      .diagnostics = {Diagnostic{.file = "matmul.cu", .line = 42, .column = 7,
                                 .severity = "warning",
                                 .message = "variable \"tmp\" was set but never used"}},
      .message = "", .log = "matmul.cu(42): warning #550-D: variable \"tmp\" was set but never used"};

  Comparison exact{.array = "C", .checked = 2145};
  r.cases.push_back(CaseResult{.id = "naive/K=47,M=65,N=33/seed=1", .step = "naive",
                               .params = {{"M", 65}, {"N", 33}, {"K", 47}}, .seed = 1,
                               .outcome = Outcome::passed, .points = 1.0, .max_points = 1.0,
                               .seconds = 0.012, .comparisons = {exact}});
  r.cases.push_back(sample_wrong_tile());
  Comparison vector_out{.array = "y", .checked = 1000, .wrong = 2, .nonfinite = 1,
                        .max_abs_error = 0.5, .max_rel_error = 0.25,
                        .first = {Mismatch{.index = 7, .coords = {7}, .expected = 2.0,
                                           .actual = std::numeric_limits<double>::infinity()},
                                  Mismatch{.index = 999, .coords = {999}, .expected = -1.5,
                                           .actual = -1.0}}};
  r.cases.push_back(CaseResult{.id = "tiled/K=1,M=1,N=1000/seed=2", .step = "tiled",
                               .params = {{"M", 1}, {"N", 1000}, {"K", 1}}, .seed = 2,
                               .outcome = Outcome::wrong_answer, .points = 0.0,
                               .max_points = 1.0, .seconds = 0.004,
                               .comparisons = {exact, vector_out}});
  r.cases.push_back(CaseResult{.id = "tiled/K=1,M=1,N=1/seed=1", .step = "tiled",
                               .params = {{"M", 1}, {"N", 1}, {"K", 1}}, .seed = 1,
                               .outcome = Outcome::crashed, .max_points = 1.0, .seconds = 0.3,
                               .message = "the runner died from signal 11 (segmentation fault) "
                                          "in matmul_tiled"});
  r.cases.push_back(CaseResult{.id = "hidden/tiled/1", .step = "tiled",
                               .visibility = Visibility::hidden,
                               .params = {{"M", 1000}, {"N", 999}, {"K", 77}},
                               .seed = 0x9e3779b97f4a7c15, .outcome = Outcome::passed,
                               .points = 2.0, .max_points = 2.0, .seconds = 0.05,
                               .comparisons = {Comparison{.array = "C", .checked = 999000}}});
  CaseResult hidden_wrong = sample_wrong_tile();
  hidden_wrong.id = "hidden/tiled/2";
  hidden_wrong.visibility = Visibility::hidden;
  hidden_wrong.seed = 0xd1b54a32d192ed03;
  hidden_wrong.max_points = 2.0;
  r.cases.push_back(hidden_wrong);

  r.performance.push_back(PerformanceResult{
      .step = "tiled", .reference = "tiled", .params = {{"M", 4096}, {"N", 4096}, {"K", 4096}},
      .outcome = Outcome::passed,
      .student = TimingStats{.median_ms = 1.234, .min_ms = 1.21, .max_ms = 1.31, .q1_ms = 1.225,
                             .q3_ms = 1.245, .rse = 0.003, .samples = 40},
      .reference_time = TimingStats{.median_ms = 1.1, .min_ms = 1.09, .max_ms = 1.12,
                                    .q1_ms = 1.096, .q3_ms = 1.104, .rse = 0.001, .samples = 40,
                                    .wall_clock_samples = 2},
      .ratio = 0.8914, .rate_unit = "TFLOP/s", .student_rate = 111.38, .reference_rate = 124.95,
      .percent_of_ceiling = 22.5, .points = 4.78, .max_points = 5.0,
      .diagnosis = PerformanceDiagnosis{
          .cause = "bank_conflicts",
          .message = "32-way shared-memory bank conflicts on loads in MatrixMulTiledKernel: a warp's shared "
                     "load takes 16.5 wavefronts on average, the reference's 1 — the threads of a warp hit the "
                     "same bank; pad the tile (e.g. [32][33]) so that a column spans all 32 banks",
          .details = {"counters (yours / the reference's): global load sectors per request 4 / 4, store 4 / 4; "
                      "shared wavefronts per load 16.5 / 1, per store 32 / 1; lanes at work per instruction 32 / 32; "
                      "achieved occupancy 95 / 96 %; DRAM throughput 3.1 / 4.2 % of peak; instructions 289 M / "
                      "289 M; kernel time 1234 / 1100 µs over 1 / 1 kernel"},
          .kernel = "MatrixMulTiledKernel"}});
  r.performance.push_back(PerformanceResult{
      .step = "naive", .reference = "naive", .params = {{"M", 4096}, {"N", 4096}, {"K", 4096}},
      .outcome = Outcome::passed,
      .student = TimingStats{.median_ms = 0.002, .min_ms = 0.002, .max_ms = 0.003,
                             .q1_ms = 0.002, .q3_ms = 0.0025, .samples = 10},
      .reference_time = TimingStats{.median_ms = 61.5, .min_ms = 61.0, .max_ms = 62.0,
                                    .q1_ms = 61.2, .q3_ms = 61.8, .samples = 10},
      .ratio = 30750.0, .rate_unit = "TFLOP/s", .student_rate = 68719.48, .reference_rate = 2.24,
      .points = 0.0, .max_points = 3.0, .flags = {"below_roofline_floor", "timer_escaped"},
      .message = "faster than the GPU can possibly run it"});
  r.outcome = Outcome::wrong_answer;
  r.gradable = true;
  r.score = 7.78;
  r.max_score = 15.0;
  r.notes = {"2 reference samples used the host wall clock"};
  return r;
}

/// A submission nvcc rejected: not gradable, nothing ran.
inline GradeReport compile_error_report() {
  GradeReport r;
  r.cugrade_version = "0.1.0";
  r.assignment = "matmul";
  r.title = "Tiled matrix multiplication";
  r.submission = {"matmul.cu"};
  r.seed = 20250314;
  r.started_at = "2025-03-14T09:30:02Z";
  r.environment = sample_environment();
  r.build = BuildResult{
      .outcome = Outcome::compile_error, .arch = "sm_90", .seconds = 2.1,
      .commands = {"nvcc -O3 -arch=sm_90 -c matmul.cu -o matmul.o"},
      .diagnostics = {Diagnostic{.file = "matmul.cu", .line = 17, .column = 5,
                                 .severity = "error", .message = "identifier \"tile\" is undefined"},
                      Diagnostic{.file = "matmul.cu", .line = 23, .column = 1,
                                 .severity = "error", .message = "expected a \";\""}},
      .message = "nvcc rejected matmul.cu; fix the first error and run cugrade check again",
      // nvcc quotes the source line and puts a caret under the error; reports keep both.
      .log = "src/submission_0.cu(17): error: identifier \"tile\" is undefined\n"
             "      tile[ty][tx] = A[row * K + tx];\n"
             "      ^\n\n"
             "src/submission_0.cu(23): error: expected a \";\"\n"
             "  }\n"
             "  ^\n\n"
             "2 errors detected in the compilation of \"src/submission_0.cu\".\n"};
  r.cases.push_back(CaseResult{.id = "naive/K=47,M=65,N=33/seed=1", .step = "naive",
                               .params = {{"M", 65}, {"N", 33}, {"K", 47}}, .seed = 1,
                               .outcome = Outcome::not_run, .max_points = 1.0});
  r.outcome = Outcome::compile_error;
  r.gradable = false;
  r.score = 0.0;
  r.max_score = 15.0;
  return r;
}

/// A submission that passed every case and earned every performance point.
inline GradeReport perfect_report() {
  GradeReport r = sample_report();
  r.build.diagnostics.clear();
  r.build.log.clear();
  for (CaseResult& c : r.cases) {
    c.outcome = Outcome::passed;
    c.points = c.max_points;
    c.message.clear();
    for (Comparison& comparison : c.comparisons) comparison = Comparison{.array = comparison.array,
                                                                        .checked = comparison.checked};
  }
  r.performance.pop_back();  // the impossible time
  r.performance.front().points = r.performance.front().max_points;
  r.performance.front().diagnosis.reset();  // full credit: nothing to diagnose
  r.outcome = Outcome::passed;
  r.score = 12.0;
  r.max_score = 12.0;
  r.notes.clear();
  return r;
}

/// The template handed in unchanged on the CPU backend: it compiles, writes nothing, and every
/// case of every step fails the same way (all NaN, outputs are poisoned), at 14 sizes of n, two
/// seeds each, plus two hidden cases.
inline GradeReport empty_template_report() {
  GradeReport r;
  r.cugrade_version = "0.1.0";
  r.assignment = "vecadd";
  r.title = "Vector addition";
  r.submission = {"vecadd.cu"};
  r.seed = 20250314;
  r.environment = Environment{.backend = "cpu"};
  r.build = BuildResult{.outcome = Outcome::passed, .arch = "cpu", .seconds = 3.2};
  const std::int64_t sizes[] = {1, 7, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 4096, 100000};
  for (const std::string step : {"naive", "grid_stride"})
    for (const std::int64_t n : sizes)
      for (const std::uint64_t seed : {1, 2}) {
        Comparison c{.array = "c", .checked = n, .wrong = n, .nonfinite = n,
                     .pattern = "every element is NaN or Inf: the output was never written (cugrade fills "
                                "outputs with NaN before the call)"};
        for (std::int64_t i = 0; i < n && i < 5; ++i)
          c.first.push_back(Mismatch{.index = i, .coords = {i}, .expected = 0.5 * static_cast<double>(i + seed),
                                     .actual = std::numeric_limits<double>::quiet_NaN()});
        r.cases.push_back(CaseResult{.id = step + "/n=" + std::to_string(n) + "/seed=" + std::to_string(seed),
                                     .step = step, .params = {{"n", n}}, .seed = seed,
                                     .outcome = Outcome::wrong_answer, .max_points = 0.5, .comparisons = {c}});
      }
  for (const std::string step : {"naive", "grid_stride"}) {
    CaseResult hidden = r.cases.front();
    hidden.id = "hidden/" + step + "/1";
    hidden.step = step;
    hidden.visibility = Visibility::hidden;
    hidden.max_points = 1.0;
    r.cases.push_back(hidden);
  }
  r.outcome = Outcome::wrong_answer;
  r.gradable = true;
  r.score = 0.0;
  r.max_score = 30.0;
  r.notes = {"performance is not graded on the CPU backend"};
  return r;
}

}  // namespace cugrade::test
