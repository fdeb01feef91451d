// Real CUDA code as written (issue 11): what NVIDIA's samples, blog code and SGEMM tutorials do
// that the CPU backend must run, or refuse with a message naming the construct.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"

TEST_CASE("cpu::real code runs as written") {
  SUBCASE("static __shared__, a byte-order mark, host variables named gridDim and blockDim") {
    CHECK(cpu_test::real_code("static_shared", 64)[0] == 64 * 65 / 2);
  }
  SUBCASE("kernel << < grid, block >> > (args), in a template") {
    const std::vector<int> out = cpu_test::real_code("spaced_launch", 8);
    CHECK(out == std::vector<int>{3, 6, 9, 12, 15, 18, 21, 24});
  }
  SUBCASE("cudaFuncSetAttribute with a carve-out, cudaProfilerStart/Stop") {
    CHECK(cpu_test::real_code_error("carveout") == "cudaSuccess: no error");
  }
  SUBCASE("cudaMallocAsync, cudaFreeAsync, a mapped host allocation's device pointer, __CUDACC__ and CUDART_VERSION") {
    CHECK(cpu_test::real_code_error("async_and_mapped") == "cudaSuccess: no error");
  }
  SUBCASE("__CUDA_ARCH__ in device code, undefined in host code (a sample's sm_70 warp path)") {
    CHECK(cpu_test::real_code("cuda_arch", 4) == std::vector<int>{900, 900, 900, 900});
  }
  SUBCASE("an aligned float4 read") {
    CHECK(cpu_test::real_code_error("aligned_float4") == "cudaSuccess: no error");
  }
  SUBCASE("__activemask() under a divergent branch: the lanes that took it (a warp-aggregated atomic)") {
    // 1..200 in blocks of 64: every warp has lanes on both sides of `value % 3 == 0`, and its
    // last warp only 8 lanes.
    const std::vector<int> out = cpu_test::real_code("aggregated_atomic", 200);
    REQUIRE(out[0] == 66);
    std::vector<int> values(out.begin() + 1, out.begin() + 67);
    std::sort(values.begin(), values.end());
    for (int k = 0; k < 66; ++k) CHECK(values[k] == 3 * (k + 1));  // each in a slot of its own
  }
  SUBCASE("a spin-wait on a volatile __shared__ flag a sibling thread sets (`while (ready == 0);`)") {
    CHECK(cpu_test::real_code("spin_on_sibling", 64)[0] == 64);  // the last thread's input
  }
  SUBCASE("the same wait whose loop body counts its passes (`while (ready == 0) { ++passes; }`)") {
    CHECK(cpu_test::real_code("spin_counting", 64)[0] == 64);
  }
  SUBCASE("the same wait in the other forms a spin takes: a counting statement, for (;;), do ... while") {
    CHECK(cpu_test::real_code("spin_counting_statement", 64)[0] == 64);
    CHECK(cpu_test::real_code("spin_endless_for", 64)[0] == 64);
    CHECK(cpu_test::real_code("spin_do_statement", 64)[0] == 64);
  }
  SUBCASE("and a spin whose body is an if, and a for whose condition is the flag") {
    CHECK(cpu_test::real_code("spin_if_body", 64)[0] == 64);
    CHECK(cpu_test::real_code("spin_for_on_flag", 64)[0] == 64);
  }
}

TEST_CASE("cpu::shuffles in a block of fewer than 32 threads read 0 from lanes it does not have") {
  // As on an H100: NVIDIA's reduction sample sums blocks of 1..16 threads this way, exactly.
  for (int threads : {1, 2, 5, 16, 31, 32}) {
    CAPTURE(threads);
    CHECK(cpu_test::real_code("shuffle", threads)[0] == threads * (threads + 1) / 2);
  }
}

TEST_CASE("cpu::memory faults real code makes") {
  SUBCASE("a misaligned float4 read is named, not taken for a null pointer") {
    const std::string error = cpu_test::real_code_error("misaligned_float4");
    CHECK(error.starts_with("cudaErrorMisalignedAddress: misaligned address in kernel `kernel` by thread "));
    CHECK(error.find("not a multiple of its size (16 bytes)") != std::string::npos);
    CHECK(error.ends_with("; the access is at real_code_kernels.cu:106"));
  }
  SUBCASE("a write into an allocation's alignment padding") {
    const std::string error = cpu_test::real_code_error("slack_write");
    CHECK(error.starts_with("cudaErrorIllegalAddress: out-of-bounds global memory write in kernel `write_byte` "
                            "by thread (0,0,0) of block (0,0,0) at byte offset 4003 of a 4001-byte cudaMalloc allocation (the "));
    CHECK(error.ends_with("; the write is at real_code_kernels.cu:109"));
    CHECK(error.find("), 2 bytes past its end (inside the allocation's alignment padding") != std::string::npos);
  }
}

TEST_CASE("cpu::kernel names in messages") {
  SUBCASE("explicit template arguments") {
    CHECK(cpu_test::real_code_error("template_name").starts_with(
        "cudaErrorInvalidValue: invalid argument: kernel `scaled_copy<2>` was launched with 2000"));
  }
  SUBCASE("once the kernel runs, it names its own instantiation") {
    const std::string error = cpu_test::real_code_error("template_local_constant");
    CHECK(error.starts_with("cudaErrorIllegalAddress: null pointer read in kernel `scaled_copy<7>` by thread (0,0,0)"));
    CHECK(error.ends_with("; the read is at real_code_kernels.cu:100"));
  }
  SUBCASE("template parameters of the launching function are resolved") {
    CHECK(cpu_test::real_code_error("template_in_template").starts_with(
        "cudaErrorInvalidValue: invalid argument: kernel `scaled_copy<5>` was launched"));
  }
}

TEST_CASE("cpu::what cannot run compiles, and says what it is when reached") {
  SUBCASE("cg::block_tile_memory") {
    const std::string error = cpu_test::real_code_error("block_tile_memory");
    CHECK(error.starts_with("cudaErrorLaunchFailure: cooperative_groups::block_tile_memory (scratch for tiles "
                            "spanning several warps) is not supported by the CPU backend"));
    CHECK(error.ends_with("in kernel `big_tiles<128>`"));
  }
  SUBCASE("cuBLAS") {
    CHECK(cpu_test::real_code_error("cublas") ==
          "cudaErrorNotSupported: cublasCreate is not supported by the CPU backend: cuBLAS is NVIDIA's GPU "
          "library and does not run on the CPU backend; grade this on a GPU, or keep cuBLAS out of the graded "
          "functions");
  }
}
