// The exact command lines of the CUDA build.
#include "build/nvcc_command.hpp"

#include <doctest/doctest.h>

using namespace cugrade;
using Argv = std::vector<std::string>;

namespace {

BuildRequest matmul_request() {
  BuildRequest request;
  request.sources = {"/course/submissions/alice/matmul.cu"};
  request.assignment = "matmul";
  request.assignment_dir = "/course/assignments/matmul";
  request.work_dir = "/scratch/build-1";
  request.arch = "sm_90";
  request.compiler = "/usr/local/cuda/bin/nvcc";
  request.runner_library = "/opt/cugrade/lib/librunner_matmul.a";
  return request;
}

}  // namespace

TEST_CASE("build::object_path") {
  CHECK(object_path(matmul_request(), "/course/submissions/alice/matmul.cu") ==
        "/scratch/build-1/matmul.o");
}

TEST_CASE("build::nvcc_compile_command") {
  const BuildRequest request = matmul_request();
  CHECK(nvcc_compile_command(request, request.sources[0], "/scratch/build-1/matmul.o") ==
        Argv{"/usr/local/cuda/bin/nvcc", "-std=c++17", "-O3", "-lineinfo", "-arch=sm_90",
             "-I/course/assignments/matmul", "-Xcompiler=-fno-common", "-c",
             "/course/submissions/alice/matmul.cu", "-o", "/scratch/build-1/matmul.o"});
}

TEST_CASE("build::nvcc_link_command") {
  const BuildRequest request = matmul_request();
  SUBCASE("one object") {
    CHECK(nvcc_link_command(request, {"/scratch/build-1/matmul.o"}) ==
          Argv{"/usr/local/cuda/bin/nvcc", "-arch=sm_90", "-o", "/scratch/build-1/runner",
               "/scratch/build-1/matmul.o", "/opt/cugrade/lib/librunner_matmul.a", "-Xlinker",
               "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel"});
  }
  SUBCASE("several objects keep their order, before the runner library") {
    CHECK(nvcc_link_command(request, {"/w/b.o", "/w/a.o"}) ==
          Argv{"/usr/local/cuda/bin/nvcc", "-arch=sm_90", "-o", "/scratch/build-1/runner", "/w/b.o",
               "/w/a.o", "/opt/cugrade/lib/librunner_matmul.a", "-Xlinker",
               "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel"});
  }
}

TEST_CASE("build::defined_symbols_command") {
  CHECK(defined_symbols_command("/w/matmul.o") ==
        Argv{"nm", "--defined-only", "-C", "/w/matmul.o"});
}

TEST_CASE("build::display_command") {
  SUBCASE("plain arguments are joined by spaces") {
    CHECK(display_command({"nvcc", "-arch=sm_90", "-c", "/w/a.cu"}) ==
          "nvcc -arch=sm_90 -c /w/a.cu");
  }
  SUBCASE("arguments a shell would split are quoted") {
    CHECK(display_command({"nvcc", "-c", "/home/a b/it's.cu", ""}) ==
          "nvcc -c '/home/a b/it'\\''s.cu' ''");
  }
}
