// diagnose_counters (harness/src/diagnose/causes.cpp): the cause named from one call of the
// student's and one of the reference's, on the real H100 capture where it has the case, and on
// counters made for the rule where it does not.
#include "diagnose/causes.hpp"

#include <doctest/doctest.h>

#include "capture.hpp"

using namespace cugrade;
using cugrade::test::probe_counters;

namespace {
/// A plain kernel: 1 M warp instructions, every lane at work, coalesced floats, 90 % occupancy.
CallCounters plain(const std::string& name) {
  CallCounters c;
  c.kernels = 1;
  c.main_kernel = name;
  c.duration_ns = 100000.0;
  c.global_load_sectors = 4e6;
  c.global_load_requests = 1e6;
  c.global_store_sectors = 4e5;
  c.global_store_requests = 1e5;
  c.instructions = 1e6;
  c.thread_instructions = 32e6;
  c.active_thread_instructions = 30e6;
  c.warps_active_pct = 90.0;
  c.dram_throughput_pct = 50.0;
  c.block_size = 256;
  c.grid_size = 4096;
  c.registers_per_thread = 32;
  return c;
}
}  // namespace

TEST_CASE("diagnose::diagnose_counters") {
  SUBCASE("the naive transpose against the padded one: uncoalesced stores, 8×") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("transpose_naive"), probe_counters("transpose_padded"));
    CHECK(d.cause == "uncoalesced_stores");
    CHECK(d.kernel == "transpose_naive");
    CHECK(d.message ==
          "your global stores need 8× the sectors per request of the reference (32 against 4): uncoalesced stores "
          "in transpose_naive — the threads of a warp write addresses far apart; let consecutive threads write "
          "consecutive elements");
    REQUIRE_FALSE(d.details.empty());
    CHECK(d.details.back().rfind("counters (yours / the reference's): global load sectors per request 4 / 4, "
                                 "store 32 / 4;", 0) == 0);
  }
  SUBCASE("the unpadded tile against the padded one: 32-way bank conflicts in the reads") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("transpose_smem"), probe_counters("transpose_padded"));
    CHECK(d.cause == "bank_conflicts");
    CHECK(d.message ==
          "32-way shared-memory bank conflicts on loads in transpose_smem: a warp's shared load takes 32.2 "
          "wavefronts on average, the reference's 1.02 — the threads of a warp hit the same bank; pad the tile "
          "(e.g. [32][33]) so that a column spans all 32 banks");
  }
  SUBCASE("a kernel against itself: nothing stands out") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("transpose_padded"), probe_counters("transpose_padded"));
    CHECK(d.cause == "none");
    CHECK(d.details.size() == 1);
  }
  SUBCASE("reduce0 against reduce2 (both predicated): the instruction count tells") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("reduce0"), probe_counters("reduce2"));
    // 128.5 M against 53.5 M warp instructions; the capture has no thread-level counts (another
    // H100 run: 24.0 lanes at work per instruction in reduce0, 20.1 in reduce2, so with them
    // it is still the instruction count that tells).
    CHECK(d.cause == "instructions");
    CHECK(d.message.rfind("2.4× the instructions of the reference for the same result in reduce0", 0) == 0);
  }
  SUBCASE("reduce3 as Harris's kernel 1 (H200): divergence, from the shared loads in warps with a lane at work") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("reduce3_modulo", "h200_probe_causes.csv"),
                                                     probe_counters("reduce3_sequential", "h200_probe_causes.csv"));
    // Predicated: the lanes at work per instruction are more than the reference's (24.2 against
    // 19.5); the working lanes spread over every warp show in the shared loads that had one.
    CHECK(d.cause == "divergence");
    CHECK(d.message.rfind("divergent warps in reduce3_modulo: 3.76× the reference's shared-memory loads in warps "
                          "with a lane at work (24.6 M against 6.55 M) and 1.92× its instructions", 0) == 0);
  }
  SUBCASE("reduce7 without its grid-stride loop (H200): work per thread, not divergence") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("reduce7_two_per_thread", "h200_probe_causes.csv"),
                                                     probe_counters("reduce7_grid_stride", "h200_probe_causes.csv"));
    CHECK(d.cause == "work_per_thread");
    CHECK(d.message.rfind("your reduce7_two_per_thread launches 128× the threads of the reference (131 k blocks "
                          "of 256 against 1024 of 256) for the same result", 0) == 0);
    CHECK(d.message.find("a grid-stride loop") != std::string::npos);
  }
  SUBCASE("the coarse step with one output per thread (H200): work per thread, with the shared loads it repeats") {
    const PerformanceDiagnosis d = diagnose_counters(probe_counters("matmul_coarse_one", "h200_probe_causes.csv"),
                                                     probe_counters("matmul_coarse_four", "h200_probe_causes.csv"));
    CHECK(d.cause == "work_per_thread");
    CHECK(d.message.find("launches 4× the threads of the reference (4096 blocks of 1024 against 4096 of 256)") !=
          std::string::npos);
    CHECK(d.message.find("1.34× the instructions, 2.5× the shared-memory loads") != std::string::npos);
  }
  SUBCASE("reduce7 as reduce6 relaunched (H200 self-test): work per thread before the low occupancy it causes") {
    // Measured in the self-test's check on an H200: blocks of 128 threads that end as soon as they
    // start kept 41.7 % of the SMs' warp slots busy against the reference's 94.2 %.
    CallCounters mine = plain("reduce6<128>"), theirs = plain("reduce7Kernel<256>");
    mine.block_size = 128;
    mine.grid_size = 262144;
    mine.warps_active_pct = 41.7;
    mine.instructions = 2.7e6;
    mine.thread_instructions = 2.7e6 * 31.1;
    theirs.grid_size = 1024;
    theirs.warps_active_pct = 94.2;
    theirs.thread_instructions = 32e6;
    const PerformanceDiagnosis d = diagnose_counters(mine, theirs);
    CHECK(d.cause == "work_per_thread");
    CHECK(d.message.rfind("your reduce6<128> launches 128× the threads of the reference (262 k blocks of 128 "
                          "against 1024 of 256)", 0) == 0);
    REQUIRE(d.details.size() >= 2);
    CHECK(d.details[0].rfind("also: low achieved occupancy", 0) == 0);
  }
  SUBCASE("more threads with no more instructions: not work per thread") {
    CallCounters mine = plain("reduce7"), theirs = plain("reduce7");
    mine.grid_size = 8 * theirs.grid_size;
    CHECK(diagnose_counters(mine, theirs).cause == "none");
  }
  SUBCASE("fewer lanes at work per instruction as well: divergence") {
    CallCounters mine = plain("reduce1"), theirs = plain("reduce3");
    mine.instructions = 2.4e6;
    mine.thread_instructions = 2.4e6 * 31.9;
    mine.active_thread_instructions = 2.4e6 * 12.0;
    const PerformanceDiagnosis d = diagnose_counters(mine, theirs);
    CHECK(d.cause == "divergence");
    CHECK(d.message.find("only 12 of a warp's 32 lanes at work per instruction (the reference: 30)") != std::string::npos);
  }
  SUBCASE("blocks of one thread: occupancy, named by the block size") {
    CallCounters mine = plain("Acceleration_GPU"), theirs = plain("Acceleration_GPU");
    mine.block_size = 1;
    mine.warps_active_pct = 50.0;
    mine.instructions = 32e6;
    mine.thread_instructions = 32e6;
    mine.active_thread_instructions = 30e6;
    mine.global_load_requests = 32e6;
    const PerformanceDiagnosis d = diagnose_counters(mine, theirs);
    CHECK(d.cause == "occupancy");
    CHECK(d.message.rfind("low occupancy in Acceleration_GPU: blocks of 1 thread leave 31 of each warp's 32 lanes "
                          "idle", 0) == 0);
    // The other rules that hold are kept as details.
    CHECK(d.details.size() >= 2);
    CHECK(d.details.front().rfind("also: ", 0) == 0);
  }
  SUBCASE("few warps on the SMs with full blocks: achieved occupancy") {
    CallCounters mine = plain("k"), theirs = plain("k");
    mine.warps_active_pct = 20.0;
    mine.registers_per_thread = 255;
    const PerformanceDiagnosis d = diagnose_counters(mine, theirs);
    CHECK(d.cause == "occupancy");
    CHECK(d.message.find("255 registers per thread") != std::string::npos);
  }
  SUBCASE("16× the global loads and no shared memory: no reuse") {
    CallCounters mine = plain("MatrixMulKernel"), theirs = plain("MatrixMulTiledKernel");
    theirs.shared_load_instructions = 1e6;
    theirs.shared_load_wavefronts = 1e6;
    mine.global_load_requests = 16e6;
    mine.global_load_sectors = 40e6;
    const PerformanceDiagnosis d = diagnose_counters(mine, theirs);
    CHECK(d.cause == "no_reuse");
    CHECK(d.message.rfind("your MatrixMulKernel issues 16× the global load requests of the reference and uses "
                          "almost no shared memory", 0) == 0);
  }
  SUBCASE("a long long reduction's 2 wavefronts per access are the reference's too: no conflict named") {
    CallCounters mine = plain("r"), theirs = plain("r");
    for (CallCounters* c : {&mine, &theirs}) {
      c->shared_load_instructions = 1e6;
      c->shared_load_wavefronts = 2e6;
      c->shared_load_conflicts = 0.0;
    }
    CHECK(diagnose_counters(mine, theirs).cause == "none");
  }
  SUBCASE("uncoalesced stores that are a sliver of the traffic are not the cause") {
    CallCounters mine = plain("k"), theirs = plain("k");
    mine.global_store_requests = 1000;
    mine.global_store_sectors = 32000;  // 32 per request, but 0.8 % of the sectors
    CHECK(diagnose_counters(mine, theirs).cause == "none");
  }
}
