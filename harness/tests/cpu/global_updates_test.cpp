// Races on global memory (executor/global_updates.cpp): a non-atomic read-modify-write of one
// address by two threads of a launch ends the kernel with a message naming both, the line and
// the remedy; the updates that are no race run as before.
#include <doctest/doctest.h>

#include <string>

#include "cugrade_cpu/read_modify_write.hpp"
#include "kernels/kernels.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// An accessor that returns a proxy by value, as some matrix classes do.
struct Proxy {
  float* p;
  Proxy& operator+=(float v) {
    *p += v;
    return *this;
  }
};
struct Accessor {
  float v[4];
  Proxy operator[](int i) { return Proxy{&v[i]}; }
};

constexpr int in_constexpr() {
  int a[2] = {1, 2};
  ::cugrade_cpu::rmw(a[0]) += 3;
  ::cugrade_cpu::rmw(a[1])++;
  return a[0] + a[1];
}
static_assert(in_constexpr() == 7, "the wrapper works where the compiler evaluates a constexpr function");

}  // namespace

TEST_CASE("cpu::global_updates races") {
  SUBCASE("every block adds its sum into *out without atomicAdd") {
    const std::string error = cpu_test::global_updates("block_sums").error;
    CAPTURE(error);
    CHECK(error.starts_with("a race on global memory in kernel `block_sums` (global_update_kernels.cu:24): thread "
                            "(0,0,0) of block ("));
    CHECK(contains(error, " and thread (0,0,0) of block ("));
    CHECK(contains(error, "both update one address with a non-atomic read-modify-write (`+=`), so on a GPU updates "
                          "are lost — use atomicAdd, or give each thread an element of its own; the address: byte "
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
    CHECK(contains(error, "(`++`), so on a GPU updates are lost — use atomicAdd(&x, 1), or"));
    CHECK(contains(error, "of a 16-byte cudaMalloc allocation"));
  }
  SUBCASE("two lines update one address: both are named") {
    const std::string error = cpu_test::global_updates("two_lines").error;
    CHECK(error.starts_with("a race on global memory in kernel `two_lines` (global_update_kernels.cu:96, and "
                            "global_update_kernels.cu:94 in the other thread): thread (1,0,0) of block (0,0,0) and "
                            "thread (0,0,0) of block (0,0,0) both update one address with a non-atomic "
                            "read-modify-write (`-=`), so on a GPU updates are lost — use atomicAdd of the negated "
                            "value (atomicSub for integers), or give each thread an element of its own"));
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

TEST_CASE("cpu::rmw does what the update it wraps does") {
  float v[2] = {1.0f, 2.0f};
  float* p = v;
  CHECK((::cugrade_cpu::rmw(p[0]) += 2.0f) == 3.0f);
  CHECK(::cugrade_cpu::rmw(p[1])++ == 2.0f);
  CHECK(++::cugrade_cpu::rmw(p[1]) == 4.0f);
  CHECK((::cugrade_cpu::rmw(*p) *= 2.0f) == 6.0f);
  int bits = 6;
  CHECK((::cugrade_cpu::rmw(*&bits) <<= 2) == 24);
  CHECK((::cugrade_cpu::rmw(*&bits) %= 5) == 4);
  volatile float shared_sum[2] = {0.0f, 0.0f};
  ::cugrade_cpu::rmw(shared_sum[0]) += 1.5f;
  ++::cugrade_cpu::rmw(shared_sum[1]);
  CHECK(shared_sum[0] == 1.5f);
  CHECK(shared_sum[1] == 1.0f);
  Accessor accessor{};
  ::cugrade_cpu::rmw(accessor[2]) += 5.0f;
  CHECK(accessor.v[2] == 5.0f);
}
