// summarize_call and CallCounters (harness/src/diagnose/counters.cpp) on the real H100 capture:
// the quantities the causes are judged on.
#include "diagnose/counters.hpp"

#include <doctest/doctest.h>

#include "capture.hpp"

using namespace cugrade;
using cugrade::test::capture_text;
using cugrade::test::probe_counters;

TEST_CASE("diagnose::diagnosis_metrics") {
  const std::string metrics = diagnosis_metrics();
  for (const char* name : {"gpu__time_duration.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__thread_inst_executed_pred_on.sum",
                           "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__block_size"})
    CHECK(metrics.find(name) != std::string::npos);
  CHECK(metrics.find(' ') == std::string::npos);
}

TEST_CASE("diagnose::summarize_call") {
  SUBCASE("the naive transpose: stores 32 sectors per request, loads 4") {
    const CallCounters naive = probe_counters("transpose_naive");
    CHECK(naive.kernels == 1);
    CHECK(naive.main_kernel == "transpose_naive");
    CHECK(naive.store_sectors_per_request() == 32.0);
    CHECK(naive.load_sectors_per_request() == 4.0);
    CHECK(naive.shared_instructions() == 0.0);
    CHECK(naive.shared_load_ways() == 0.0);
    CHECK(naive.warps_active_pct == doctest::Approx(56.26));
    CHECK(naive.block_size == 1024);
  }
  SUBCASE("the unpadded tile: 32-way conflicts on its loads, the padded one about 1") {
    const CallCounters smem = probe_counters("transpose_smem");
    CHECK(smem.shared_load_ways() == doctest::Approx(4221497.0 / 131072.0));
    CHECK(smem.shared_load_ways() == doctest::Approx(32.2).epsilon(0.01));
    CHECK(smem.shared_store_ways() < 1.1);
    CHECK(probe_counters("transpose_padded").shared_load_ways() == doctest::Approx(1.02).epsilon(0.02));
  }
  SUBCASE("every kernel of a call together: counts summed, percentages by duration") {
    auto kernels = parse_ncu_csv(capture_text("h100_probe_nvtx.csv"));
    REQUIRE(kernels.has_value());
    const CallCounters all = summarize_call(*kernels);
    CHECK(all.kernels == 5);
    CHECK(all.main_kernel == "reduce0");  // the longest, 199 µs
    CHECK(all.duration_ns == 75232.0 + 35776.0 + 18848.0 + 198592.0 + 92192.0);
    CHECK(all.instructions == 2752512.0 + 3932160.0 + 3932160.0 + 128450560.0 + 53477376.0);
    const double weighted = (75232.0 * 56.26 + 35776.0 * 87.62 + 18848.0 * 82.95 + 198592.0 * 93.27 +
                             92192.0 * 85.01) / all.duration_ns;
    CHECK(all.warps_active_pct == doctest::Approx(weighted));
  }
  SUBCASE("without thread-level counts, lanes per instruction read 0, not a division by zero") {
    const CallCounters empty = summarize_call({KernelProfile{"0", "k(int)", {}}});
    CHECK(empty.threads_per_instruction() == 0.0);
    CHECK(empty.lane_occupancy_pct() == 0.0);
    CHECK(empty.load_sectors_per_request() == 0.0);
  }
}

TEST_CASE("diagnose::scale_to_launches") {
  const CallCounters naive = probe_counters("transpose_naive");
  SUBCASE("a call capped at its first kernel of four: every sum four times, the rates as they were") {
    CallCounters scaled = naive;
    scale_to_launches(scaled, 4);
    CHECK(scaled.instructions == 4.0 * naive.instructions);
    CHECK(scaled.global_load_requests == 4.0 * naive.global_load_requests);
    CHECK(scaled.duration_ns == 4.0 * naive.duration_ns);
    CHECK(scaled.store_sectors_per_request() == naive.store_sectors_per_request());
    CHECK(scaled.warps_active_pct == naive.warps_active_pct);
    CHECK(scaled.kernels == naive.kernels);
    CHECK(scaled.block_size == naive.block_size);
  }
  SUBCASE("every launch profiled, or no count: nothing changes") {
    for (long launches : {0L, -3L, 1L}) {
      CallCounters same = naive;
      scale_to_launches(same, launches);
      CHECK(same.instructions == naive.instructions);
    }
  }
}
