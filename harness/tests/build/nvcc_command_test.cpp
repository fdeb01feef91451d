// The exact command lines of the build: only paths the harness chose, relative to the build folder.
#include "build/nvcc_command.hpp"

#include <doctest/doctest.h>

using namespace cugrade;
using Argv = std::vector<std::string>;

namespace {

BuildRequest matmul_request() {
  BuildRequest request;
  request.sources = {"/course/submissions/$(touch pwned)/mat`id`mul.cu"};
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
  CHECK(object_path(0) == "obj/submission_0.o");
  CHECK(dependency_path(2) == "obj/submission_2.d");
  CHECK(assembler_dependency_path(1) == "obj/submission_1.as.d");
}

TEST_CASE("build::nvcc_compile_command") {
  const BuildRequest request = matmul_request();
  const Argv argv = nvcc_compile_command(request, 0, "src/submission_0.cu");
  CHECK(argv == Argv{"/usr/local/cuda/bin/nvcc", "-std=c++17", "-O3", "-lineinfo", "-arch=sm_90",
                     "-Isrc", "-Xcompiler=-fno-common", "-Xcompiler=-fno-gnu-unique", "-MD", "-MF",
                     "obj/submission_0.d", "-Xcompiler", "-Xassembler", "-Xcompiler", "--MD",
                     "-Xcompiler", "-Xassembler", "-Xcompiler", "obj/submission_0.as.d", "-c",
                     "src/submission_0.cu", "-o", "obj/submission_0.o"});
  // Nothing of the student's paths, the assignment's or the work folder's.
  for (const auto& arg : argv) {
    CHECK(arg.find("course") == std::string::npos);
    CHECK(arg.find("scratch") == std::string::npos);
  }
}

TEST_CASE("build::nvcc_compile_command with the call-site header") {
  const Argv argv = nvcc_compile_command(matmul_request(), 1, "src/submission_1.cu", true);
  const Argv tail(argv.end() - 6, argv.end());
  CHECK(tail == Argv{"-include", "obj/cugrade_call_sites.cuh", "-c", "src/submission_1.cu", "-o", "obj/submission_1.o"});
}

TEST_CASE("build::nvcc_link_command") {
  BuildRequest request = matmul_request();
  SUBCASE("the sealed object, before the runner library") {
    CHECK(nvcc_link_command(request) ==
          Argv{"/usr/local/cuda/bin/nvcc", "-arch=sm_90", "-o", "runner", "obj/submission.o",
               "/opt/cugrade/lib/librunner_matmul.a", "-Xlinker",
               "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel,--wrap=cudaMalloc,--wrap=cudaFree,--wrap=cudaMallocManaged,"
               "--wrap=cudaMallocPitch,--wrap=cudaMalloc3D,--wrap=cudaMallocAsync,--wrap=cudaFreeAsync,"
               "--wrap=cudaDeviceSetLimit,--wrap=cudaMemcpy,--wrap=cudaMemcpy_ptds,--wrap=cudaMemcpyAsync,"
               "--wrap=cudaMemcpyAsync_ptsz,--wrap=cudaMemcpy2D,--wrap=cudaMemcpy2D_ptds,--wrap=cudaMemcpy2DAsync,"
               "--wrap=cudaMemcpy2DAsync_ptsz,--wrap=cudaLaunchKernelExC,--wrap=cudaLaunchKernelExC_ptsz,"
               "--wrap=cudaLaunchCooperativeKernel,--wrap=cudaGraphLaunch,"
               "--wrap=cudaMemset,--wrap=cudaMemset_ptds,--wrap=cudaMemsetAsync,--wrap=cudaMemsetAsync_ptsz"});
  }
  SUBCASE("libraries the assignment allows are linked; unknown names are not") {
    request.allowed_libraries = {"cublas", "no_such_library"};
    const Argv argv = nvcc_link_command(request);
    CHECK(Argv(argv.end() - 2, argv.end()) == Argv{"-lcublas", "-lcublasLt"});
  }
}

TEST_CASE("build::symbols_command") {
  CHECK(symbols_command("obj/submission_0.o") == Argv{"nm", "-g", "obj/submission_0.o"});
}

TEST_CASE("build::join_command") {
  CHECK(join_command({"obj/submission_0.o", "obj/submission_1.o"}, "obj/joined.o") ==
        Argv{"ld", "-r", "-o", "obj/joined.o", "obj/submission_0.o", "obj/submission_1.o"});
}

TEST_CASE("build::seal_command") {
  CHECK(seal_command("obj/submission_0.o") ==
        Argv{"objcopy", "-R", ".group", "--keep-global-symbols=obj/entry_points.txt",
             "obj/submission_0.o", "obj/submission.o"});
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
