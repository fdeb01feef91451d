// The bugs a GPU tolerates silently (or reports without a location) become messages that name
// the kernel, the thread and the line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "kernels/kernels.hpp"
#include "launch_tracking.hpp"

TEST_CASE("cpu::barrier divergence") {
  SUBCASE("a thread exits while others wait") {
    CHECK(cpu_test::faulty("exit_before_barrier") ==
          "barrier divergence in kernel `exit_before_barrier`: thread (40,0,0) of block (0,0,0) exited "
          "while others wait at __syncthreads() (fault_kernels.cu:15)");
  }
  SUBCASE("threads wait at different __syncthreads") {
    CHECK(cpu_test::faulty("different_barriers") ==
          "barrier divergence in kernel `different_barriers`: thread (16,0,0) of block (0,0,0) waits at "
          "__syncthreads() (fault_kernels.cu:25) while thread (15,0,0) of block (0,0,0) waits at "
          "__syncthreads() (fault_kernels.cu:22)");
  }
  SUBCASE("a lane exits before a shuffle") {
    CHECK(cpu_test::faulty("shfl_after_exit") ==
          "warp divergence in kernel `shfl_after_exit`: thread (7,0,0) of block (0,0,0) (lane 7 of warp 0) "
          "exited while other lanes of its warp wait at __shfl_down_sync() (fault_kernels.cu:31); a "
          "warp-level call must be reached by every lane of its mask");
  }
}

// cudaDeviceReset clears the error state, as on a GPU; the runner still learns of the fault.
TEST_CASE("runtime::fault_since_reset") {
  cugrade::runner::reset_last_kernel();
  const cpu_test::AfterReset seen = cpu_test::far_write_then_reset();
  CHECK(seen.clean);  // the program sees nothing wrong any more
  int error = 0;
  const std::string fault = cugrade::runner::fault_since_reset(error);
  CHECK(error == seen.illegal_address);
  CHECK(fault.starts_with("out-of-bounds global memory write in kernel `write_at_offset`"));
  CHECK(fault.ends_with("1048576 bytes past its end; the write is at fault_kernels.cu:47"));
  CHECK(cugrade::runner::launches_since_reset() == 1);
  cugrade::runner::reset_last_kernel();  // the next call starts clean
  CHECK(cugrade::runner::fault_since_reset(error).empty());
  CHECK(error == 0);
  CHECK(cugrade::runner::launches_since_reset() == 0);
}

TEST_CASE("cpu::out-of-bounds global memory") {
  SUBCASE("a write just past the end") {
    std::string message = cpu_test::faulty("out_of_bounds_write");
    CHECK(message.starts_with("out-of-bounds global memory write in kernel `write_past_end` by thread "
                              "(232,0,0) of block (3,0,0) at byte offset 4000 of a 4000-byte cudaMalloc "
                              "allocation (the "));  // its ordinal depends on the tests run before
    // The student's line, from the runner's line tables (the CPU build compiles with -g1).
    CHECK(message.ends_with("), just past its end; the write is at fault_kernels.cu:37"));
  }
  // Far from the array, the write would land in whatever else is mapped there (another array, a
  // fiber's stack): each allocation lies alone in a reach of unmapped address space.
  SUBCASE("a write a megabyte past the end") {
    std::string message = cpu_test::faulty("one_mib_past_end");
    CHECK(message.starts_with("out-of-bounds global memory write in kernel `write_at_offset` by thread (0,0,0) of block "
                              "(0,0,0) at byte offset 1052576 of a 4000-byte cudaMalloc allocation (the "));
    CHECK(message.ends_with("), 1048576 bytes past its end; the write is at fault_kernels.cu:47"));
  }
  SUBCASE("a write a page before the start") {
    std::string message = cpu_test::faulty("a_page_before_start");
    CHECK(message.starts_with("out-of-bounds global memory write in kernel `write_at_offset` by thread (0,0,0) of block "
                              "(0,0,0) at 4096 bytes before the start of a 4000-byte cudaMalloc allocation (the "));
    CHECK(message.ends_with("; the write is at fault_kernels.cu:47"));
  }
  SUBCASE("a write just before the start, where no page ends") {
    std::string message = cpu_test::faulty("just_before_start");
    // Found after the kernel by its canary; the thread and the line by the launch run again,
    // watched, in a forked copy of the program (slack_watch.hpp).
    CHECK(message.starts_with("out-of-bounds global memory write in kernel `write_at_offset` by thread (0,0,0) of "
                              "block (0,0,0) at 4 bytes before the start of a 4000-byte cudaMalloc allocation (the "));
    CHECK(message.ends_with("compute-sanitizer reports it); the write is at fault_kernels.cu:47"));
  }
  SUBCASE("a read") {
    std::string message = cpu_test::faulty("out_of_bounds_read");
    CHECK(message.starts_with("out-of-bounds global memory read in kernel `read_past_end` by thread (231,0,0)"));
    CHECK(message.ends_with("; the read is at fault_kernels.cu:42"));
  }
  SUBCASE("a host pointer as a kernel argument") {
    CHECK(cpu_test::faulty("host_pointer").starts_with(
        "kernel `write_past_end` was launched with argument 1 pointing to host memory"));
  }
  SUBCASE("use after cudaFree") {
    CHECK(cpu_test::faulty("use_after_free") ==
          "kernel `write_past_end` was launched with argument 1 pointing to memory already released by "
          "cudaFree; a GPU cannot access it (an illegal memory access)");
  }
}

TEST_CASE("cpu::out-of-bounds dynamic shared memory") {
  SUBCASE("a launch that gives none: the third <<<>>> parameter named") {
    const std::string message = cpu_test::faulty("shared_not_given");
    CHECK(message.starts_with("out-of-bounds __shared__ memory write in kernel `dynamic_shared_sum` by thread "
                              "(0,0,0) of block (0,0,0): extern __shared__ partial (fault_kernels.cu:"));
    CHECK(message.ends_with(") got 0 bytes from the launch: is the third <<<grid, block, bytes>>> parameter missing?"));
  }
  SUBCASE("a launch that gives too little: past its end, faulting at once") {
    const std::string message = cpu_test::faulty("shared_too_small");
    CHECK(message.starts_with("out-of-bounds __shared__ memory write in kernel `dynamic_shared_sum` by thread "
                              "(40,0,0) of block (0,0,0): byte 160 of extern __shared__ partial (fault_kernels.cu:"));
    CHECK(message.ends_with("), past the 160 bytes the launch gave it (the third <<<grid, block, bytes>>> parameter)"));
  }
  SUBCASE("enough: no error") { CHECK(cpu_test::faulty("shared_given") == "no error"); }
}

TEST_CASE("cpu::__trap") {
  CHECK(cpu_test::faulty("trap") == "the kernel called __trap() in kernel `trap_kernel`");
}

TEST_CASE("cpu::schedule order exposes races") {
  setenv("CUGRADE_CPU_SCHEDULE", "forward", 1);
  auto forward = cpu_test::racy(64);
  setenv("CUGRADE_CPU_SCHEDULE", "reverse", 1);
  auto reverse = cpu_test::racy(64);
  unsetenv("CUGRADE_CPU_SCHEDULE");
  CHECK(forward.error == "no error");
  CHECK(reverse.values[10] == 11.0f);  // later threads ran first: their writes are visible
  CHECK(forward.values != reverse.values);
}

TEST_CASE("cpu::after a barrier, the threads resume in the schedule's order") {
  // Why: the last thread to reach a barrier used to run on at once — thread n−1 first in the
  // forward order, thread 0 first in the reverse one — so a race only thread 0 sees (it reads
  // what the others have not written yet) went the same way in both orders and was not caught.
  setenv("CUGRADE_CPU_SCHEDULE", "forward", 1);
  const std::vector<int> forward = cpu_test::order_after_barrier(64);
  setenv("CUGRADE_CPU_SCHEDULE", "reverse", 1);
  const std::vector<int> reverse = cpu_test::order_after_barrier(64);
  unsetenv("CUGRADE_CPU_SCHEDULE");
  REQUIRE(forward.size() == 64);
  for (int i = 0; i < 64; ++i) {
    CHECK(forward[static_cast<std::size_t>(i)] == i);
    CHECK(reverse[static_cast<std::size_t>(i)] == 63 - i);
  }
}

TEST_CASE("cpu::schedule order changes a float atomicAdd sum in its last bits only") {
  // Why this matters: the pipeline must not call this correct kernel a race
  // (harness/src/pipeline/run_agreement.hpp compares runs within the step's tolerance).
  std::vector<float> in(20000);
  double exact = 0.0;
  for (std::size_t i = 0; i < in.size(); ++i) exact += in[i] = 0.1f * static_cast<float>(i % 97) + 1e-3f;
  setenv("CUGRADE_CPU_SCHEDULE", "forward", 1);  // one block, so each order is deterministic
  const float forward = cpu_test::atomic_sum(in);
  setenv("CUGRADE_CPU_SCHEDULE", "reverse", 1);
  const float reverse = cpu_test::atomic_sum(in);
  unsetenv("CUGRADE_CPU_SCHEDULE");
  CHECK(forward != reverse);
  // A sequential FP32 sum of 20000 terms: both orders within 1e-4 of the exact sum.
  CHECK(forward == doctest::Approx(exact).epsilon(1e-4));
  CHECK(reverse == doctest::Approx(exact).epsilon(1e-4));
}
