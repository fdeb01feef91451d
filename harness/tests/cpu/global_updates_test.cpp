// Races on global memory (executor/global_updates.cpp): a non-atomic read-modify-write of one
// address by two threads of a launch ends the kernel with a message naming both, the line and
// the remedy; the updates that are no race run as before.
#include <doctest/doctest.h>

#include <string>

#include "kernels/kernels.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cpu::global_updates races") {
  SUBCASE("every block adds its sum into *out without atomicAdd") {
    const std::string error = cpu_test::global_updates("block_sums").error;
    CAPTURE(error);
    CHECK(error.starts_with("a race on global memory in kernel `block_sums` (global_update_kernels.cu:24): thread "
                            "(0,0,0) of block ("));
    CHECK(contains(error, " and thread (0,0,0) of block ("));
    CHECK(contains(error, "both update one address with a non-atomic read-modify-write (`+=`), so on a GPU updates "
                          "are lost — use atomicAdd (or give each thread an element of its own); the address: byte "
                          "offset 0 of a 1024-byte cudaMalloc allocation (the "));
  }
  SUBCASE("the threads of one block add into one element") {
    const std::string error = cpu_test::global_updates("all_into_one").error;
    CAPTURE(error);
    CHECK(error.starts_with("a race on global memory in kernel `all_into_one` (global_update_kernels.cu:50): thread "
                            "(1,0,0) of block (0,0,0) and thread (0,0,0) of block (0,0,0) both update one address"));
  }
  SUBCASE("a histogram with hist[bin]++") {
    const std::string error = cpu_test::global_updates("histogram").error;
    CAPTURE(error);
    CHECK(error.starts_with("a race on global memory in kernel `histogram` (global_update_kernels.cu:44): "));
    CHECK(contains(error, "(`++`), so on a GPU updates are lost — use atomicAdd(&x, 1) (or"));
    CHECK(contains(error, "of a 16-byte cudaMalloc allocation"));
  }
  SUBCASE("in the reverse order of threads too") {
    setenv("CUGRADE_CPU_SCHEDULE", "reverse", 1);
    const std::string error = cpu_test::global_updates("all_into_one").error;
    unsetenv("CUGRADE_CPU_SCHEDULE");
    CHECK(error.starts_with("a race on global memory in kernel `all_into_one` (global_update_kernels.cu:50): thread "
                            "(30,0,0) of block (0,0,0) and thread (31,0,0) of block (0,0,0) both update"));
  }
}

TEST_CASE("cpu::global_updates that are no race") {
  SUBCASE("one block adds into *out") {
    const auto r = cpu_test::global_updates("block_sums_one_block");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 189.0f);  // elements 0..63 of i % 7
  }
  SUBCASE("atomicAdd") {
    const auto r = cpu_test::global_updates("block_sums_atomic");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 762.0f);
  }
  SUBCASE("each thread updates its own element, many times") {
    const auto r = cpu_test::global_updates("own_elements");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 1.0f + (0 + 1 + 2 + 3 + 4 + 5 + 6 + 0));
  }
  SUBCASE("threads take turns, a __syncthreads() between") {
    const auto r = cpu_test::global_updates("turns_by_barrier");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 32.0f);
  }
  SUBCASE("an in-place reduction in global memory") {
    const auto r = cpu_test::global_updates("reduce_in_global");
    CHECK(r.error == "no error");
    CHECK(r.values[64] == 190.0f);  // block 1: elements 64..127 of i % 7
  }
  SUBCASE("under a lock taken with atomicCAS") {
    const auto r = cpu_test::global_updates("locked_sum");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 8.0f);
  }
  SUBCASE("one update per launch") {
    const auto r = cpu_test::global_updates("separate_launches");
    CHECK(r.error == "no error");
    CHECK(r.values[0] == 3.0f);
  }
}
