// The CPU executor runs real kernels (kernels/*.cu, pre-passed and compiled against the shims)
// with CUDA's results.
#include <doctest/doctest.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"
#include "launch_tracking.hpp"

namespace {

std::vector<float> ramp(int n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i % 17) * scale;
  return v;
}

}  // namespace

TEST_CASE("cpu::launch element-wise") {
  SUBCASE("a size that is not a multiple of the block") {
    auto a = ramp(1000), b = ramp(1000, 2.0f);
    auto r = cpu_test::vecadd(a, b, 256);
    CHECK(r.error == "no error");
    for (int i = 0; i < 1000; ++i) REQUIRE(r.values[i] == a[i] + b[i]);
  }
  SUBCASE("one thread per block") {
    auto r = cpu_test::vecadd({1.0f, 2.0f}, {10.0f, 20.0f}, 1);
    CHECK(r.values == std::vector<float>{11.0f, 22.0f});
  }
}

TEST_CASE("cpu::launch tiled matmul with __syncthreads") {
  const int n = 37;  // not a multiple of the 16x16 tile
  auto a = ramp(n * n), b = ramp(n * n, 0.5f);
  auto r = cpu_test::matmul_tiled(a, b, n);
  CHECK(r.error == "no error");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double expected = 0.0;
      for (int k = 0; k < n; ++k) expected += double(a[i * n + k]) * b[k * n + j];
      REQUIRE(r.values[i * n + j] == doctest::Approx(expected).epsilon(1e-5));
    }
}

TEST_CASE("cpu::launch reductions") {
  auto in = ramp(5000);
  const double total = std::accumulate(in.begin(), in.end(), 0.0);
  for (int variant = 1; variant <= 5; ++variant) {
    CAPTURE(variant);
    auto r = cpu_test::reduce(variant, in, 256);
    CHECK(r.error == "no error");
    CHECK(std::accumulate(r.values.begin(), r.values.end(), 0.0) == doctest::Approx(total));
  }
}

TEST_CASE("cpu::warp intrinsics") {
  auto r = cpu_test::warp_votes(64);
  REQUIRE(r.error == "no error");
  for (int t = 0; t < 64; ++t) {
    CAPTURE(t);
    const float* row = &r.values[t * 5];
    CHECK(row[0] == 16.0f);                            // ballot of even lanes
    CHECK(row[1] == 1.0f);                             // any: lane 5
    CHECK(row[2] == 0.0f);                             // all: lane 31 says no
    CHECK(row[3] == float(t % 32 == 0 ? 0 : t % 32 - 1));  // shfl_up keeps lane 0's own value
    CHECK(row[4] == 6.0f);                             // shfl from lane 3
  }
  SUBCASE("a partial last warp") {
    auto partial = cpu_test::warp_votes(40);
    CHECK(partial.error == "no error");
    CHECK(partial.values[35 * 5 + 0] == 4.0f);  // lanes 0..7 exist, 4 even
  }
}

TEST_CASE("cpu::atomics") {
  std::vector<int> in(3000);
  for (int i = 0; i < 3000; ++i) in[i] = (i * 7919) % 1000;
  auto r = cpu_test::atomics(in, 10);
  REQUIRE(r.error == "no error");
  for (int b = 0; b < 10; ++b) CHECK(r.values[b] == 300.0f);
  CHECK(r.values[10] == 999.0f);    // atomicMax
  CHECK(r.values[11] == 0.0f);      // atomicMin
  CHECK(r.values[12] == -3000.0f);  // atomicSub
  CHECK(r.values[13] == 3000.0f);   // atomicCAS float sum
  CHECK(r.values[14] == 7.0f);      // atomicExch
}

TEST_CASE("cpu::block barriers with predicates") {
  auto r = cpu_test::barrier_reductions(100);
  CHECK(r.values == std::vector<float>{34.0f, 0.0f, 1.0f});
}

TEST_CASE("cpu::dynamic shared memory") {
  auto in = ramp(512);
  auto r = cpu_test::reverse_block(in);
  REQUIRE(r.error == "no error");
  for (int i = 0; i < 512; ++i) REQUIRE(r.values[i] == in[(i / 128) * 128 + 127 - i % 128]);
}

TEST_CASE("cpu::launch limits") {
  SUBCASE("valid") { CHECK(cpu_test::launch_with(2, 1, 1, 1024, 1, 1, 0) == "no error"); }
  SUBCASE("too many threads per block") {
    CHECK(cpu_test::launch_with(1, 1, 1, 32, 33, 1, 0) ==
          "invalid argument: kernel `empty_kernel` was launched with 1056 threads per "
          "block (32x33x1); a block has at most 1024 threads");
  }
  SUBCASE("blockDim.z") {
    CHECK(cpu_test::launch_with(1, 1, 1, 1, 1, 65, 0) ==
          "invalid argument: kernel `empty_kernel` was launched with blockDim.z = 65; "
          "the limit is 64");
  }
  SUBCASE("gridDim.y") {
    CHECK(cpu_test::launch_with(1, 65536, 1, 32, 1, 1, 0) ==
          "invalid argument: kernel `empty_kernel` was launched with gridDim.y = 65536; "
          "the limit is 65535");
  }
  SUBCASE("an empty grid") {
    CHECK(cpu_test::launch_with(0, 1, 1, 32, 1, 1, 0).starts_with("invalid argument: kernel `empty_kernel` was launched with grid 0x1x1"));
  }
  SUBCASE("too much dynamic shared memory") {
    CHECK(cpu_test::launch_with(1, 1, 1, 32, 1, 1, 49153).starts_with(
        "invalid argument: kernel `empty_kernel` was launched with 49153 bytes of dynamic shared memory"));
  }
  SUBCASE("the error is reported once, as by cudaGetLastError") {
    cpu_test::launch_with(1, 1, 1, 2048, 1, 1, 0);
    CHECK(cpu_test::launch_with(1, 1, 1, 32, 1, 1, 0) == "no error");
  }
  SUBCASE("the most threads one launch had, for the runner's done event; a refused launch counts none") {
    using namespace cugrade::runner;  // the runner's launch tracking, as the CPU backend implements it
    reset_last_kernel();
    CHECK(most_threads_since_reset() == 0);
    cpu_test::launch_with(1, 1, 1, 2048, 1, 1, 0);  // refused: it never ran
    CHECK(most_threads_since_reset() == 0);
    cpu_test::launch_with(3, 2, 1, 16, 4, 1, 0);
    CHECK(most_threads_since_reset() == 3 * 2 * 16 * 4);
    cpu_test::launch_with(1, 1, 1, 32, 1, 1, 0);  // a smaller launch after it changes nothing
    CHECK(most_threads_since_reset() == 384);
    reset_last_kernel();  // before the next entry call
    CHECK(most_threads_since_reset() == 0);
  }
}

TEST_CASE("cpu::runtime API") {
  SUBCASE("device properties") {
    CHECK(cpu_test::device_properties() ==
          std::vector<std::string>{"cugrade CPU backend", "1024", "49152", "65535"});
  }
  SUBCASE("fresh cudaMalloc memory holds the CPU backend's fill word, not zeros") {
    CHECK(cpu_test::fresh_malloc_word() == 0xFFA5A5A5u);
  }
  SUBCASE("a failed cudaMemcpy names itself, the caller's line and the reason") {
    const auto [past_end, line] = cpu_test::memcpy_error_text(false);
    CHECK(past_end == "cudaMemcpy (basic_kernels.cu:" + std::to_string(line) +
                          ") failed with cudaErrorInvalidValue: the destination has fewer than the 20 bytes copied "
                          "(the count is in bytes: n * sizeof(element))");
    const auto [host, host_line] = cpu_test::memcpy_error_text(true);
    CHECK(host == "cudaMemcpy (basic_kernels.cu:" + std::to_string(host_line) +
                      ") failed with cudaErrorInvalidValue: the direction is cudaMemcpyHostToDevice, but the "
                      "destination is not memory from cudaMalloc (are the pointers or the direction swapped?)");
  }
  SUBCASE("the runner's failed call is the one the executor recorded, in its sentence; a refused launch is none") {
    using namespace cugrade::runner;  // the runner's launch tracking, as the CPU backend implements it
    constexpr int invalid_value = 1;  // cudaErrorInvalidValue
    reset_last_kernel();
    CHECK_FALSE(failed_call_with(invalid_value));
    const auto [host, line] = cpu_test::memcpy_error_text(true);
    const auto failed = failed_call_with(invalid_value);
    REQUIRE(failed);
    CHECK(failed->call == "cudaMemcpy");
    CHECK(failed->sentence == host);
    CHECK_FALSE(failed_call_with(invalid_value + 1));  // another error is not this call's
    cpu_test::launch_with(1, 1, 1, 2048, 1, 1, 0);      // "invalid argument" too, but a launch's
    CHECK_FALSE(failed_call_with(invalid_value));
    reset_last_kernel();
  }
  SUBCASE("memory calls check their ranges") {
    CHECK(cpu_test::memory_api_errors() ==
          std::vector<std::string>{"cudaErrorInvalidValue", "cudaErrorInvalidValue", "cudaErrorInvalidValue",
                                   "cudaSuccess", "cudaSuccess", "cudaErrorInvalidValue"});
  }
}
