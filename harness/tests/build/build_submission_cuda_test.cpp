// build_submission_cuda() with a scripted nvcc, nm and objcopy: every outcome of the build stage.
// With the real nvcc: build_submission_cuda_nvcc_test.cpp.
#include "build/build_submission_cuda.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "build/build_cuda_fixture.hpp"
#include "build/test_data.hpp"
#include "process/fake_process_runner.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("build::build_submission_cuda") {
  BuildFixture fixture;
  const BuildRequest& request = fixture.request;
  const fs::path work = fixture.root / "work";
  FakeProcessRunner runner;

  SUBCASE("stages, compiles, checks the symbols, seals and links the runner, all sandboxed") {
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_writes_output());
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::passed);
    CHECK(output.result.message.empty());
    CHECK(output.result.arch == "sm_90");
    CHECK(output.runner == work / "runner");
    const auto& requests = runner.requests();
    REQUIRE(requests.size() == 4);
    CHECK(requests[0].argv == std::vector<std::string>{
                                  "/opt/cuda/bin/nvcc", "-std=c++17", "-O3", "-lineinfo", "-arch=sm_90", "-Isrc",
                                  "-Xcompiler=-fno-common", "-Xcompiler=-fno-gnu-unique", "-MD", "-MF",
                                  "obj/submission_0.d", "-Xcompiler", "-Xassembler", "-Xcompiler", "--MD",
                                  "-Xcompiler", "-Xassembler", "-Xcompiler", "obj/submission_0.as.d",
                                  "-include", "obj/cugrade_call_sites.cuh", "-c",
                                  "src/submission_0.cu", "-o", "obj/submission_0.o"});
    CHECK(requests[1].argv == std::vector<std::string>{"nm", "-g", "obj/submission_0.o"});
    CHECK(requests[2].argv == std::vector<std::string>{"objcopy", "-R", ".group",
                                                       "--keep-global-symbols=obj/entry_points.txt",
                                                       "obj/submission_0.o", "obj/submission.o"});
    CHECK(requests[3].argv == std::vector<std::string>{"/opt/cuda/bin/nvcc", "-arch=sm_90", "-o", "runner",
                                                       "obj/submission.o", "/opt/cugrade/lib/librunner_vecadd.a",
                                                       "-Xlinker",
                                                       "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,"
                                                       "--wrap=cudaLaunchKernel,--wrap=cudaMalloc,--wrap=cudaFree,"
                                                       "--wrap=cudaMallocManaged,--wrap=cudaMallocPitch,"
                                                       "--wrap=cudaMalloc3D,--wrap=cudaMallocAsync,"
                                                       "--wrap=cudaFreeAsync,--wrap=cudaDeviceSetLimit,"
                                                       "--wrap=cudaMemcpy,--wrap=cudaMemcpy_ptds,"
                                                       "--wrap=cudaMemcpyAsync,--wrap=cudaMemcpyAsync_ptsz,"
                                                       "--wrap=cudaMemcpy2D,--wrap=cudaMemcpy2D_ptds,"
                                                       "--wrap=cudaMemcpy2DAsync,--wrap=cudaMemcpy2DAsync_ptsz,"
                                                       "--wrap=cudaLaunchKernelExC,--wrap=cudaLaunchKernelExC_ptsz,"
                                                       "--wrap=cudaLaunchCooperativeKernel,--wrap=cudaGraphLaunch,"
               "--wrap=cudaMemset,--wrap=cudaMemset_ptds,--wrap=cudaMemsetAsync,--wrap=cudaMemsetAsync_ptsz"});
    // Only the entry point stays global.
    CHECK(read(work / "obj" / "entry_points.txt") == ".cugrade.no.entry.point\n_Z6vecaddPKfS0_Pfi\n");
    CHECK(read(work / "src" / "submission_0.cu") == vecadd_source);
    CHECK(read(work / "src" / "interface.cuh") == read(fixture.root / "assignment" / "interface.cuh"));
    for (const auto& sent : requests) {
      CHECK(sent.working_dir == work);
      CHECK(sent.environment.at("TMPDIR") == "tmp");
      CHECK(sent.environment.at("PATH") == "/opt/cuda/bin:/usr/bin:/bin");
      CHECK(sent.timeout_s == 60.0);
      REQUIRE(sent.sandbox.has_value());
      REQUIRE_FALSE(sent.sandbox->mounts.empty());
      CHECK(sent.sandbox->mounts[0].source == work);
      CHECK(sent.sandbox->mounts[0].writable);
      for (std::size_t i = 1; i < sent.sandbox->mounts.size(); ++i) CHECK_FALSE(sent.sandbox->mounts[i].writable);
      // Nothing the student named is on a command line.
      for (const auto& arg : sent.argv) CHECK(arg.find("submission/") == std::string::npos);
    }
    const auto& link_mounts = requests[3].sandbox->mounts;
    CHECK(std::any_of(link_mounts.begin(), link_mounts.end(), [&](const SandboxMount& m) {
      return m.source == request.runner_library;
    }));
    REQUIRE(output.result.commands.size() == 4);
    CHECK(output.result.commands[1] == "nm -g obj/submission_0.o");
  }

  SUBCASE("two sources: each compiled and checked, joined with ld -r, sealed, linked") {
    write_file(fixture.root / "submission" / "helpers.cu", "int helper() { return 1; }\n");
    fixture.request.sources.push_back(fixture.root / "submission" / "helpers.cu");
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_writes_output("src/submission_1.cu"));
    runner.expect(nm_lists("0000000000000000 T _Z6helperv\n"));
    runner.expect(tool_writes_output);
    runner.expect(tool_writes_output);
    runner.expect(nvcc_writes_output());
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::passed);
    REQUIRE(runner.requests().size() == 7);
    CHECK(runner.requests()[2].argv[9] == "-MF");
    CHECK(runner.requests()[2].argv[10] == "obj/submission_1.d");
    CHECK(runner.requests()[4].argv == std::vector<std::string>{"ld", "-r", "-o", "obj/joined.o",
                                                                "obj/submission_0.o", "obj/submission_1.o"});
    CHECK(runner.requests()[5].argv[4] == "obj/joined.o");
  }

  SUBCASE("a compile error names the first error, by the student's file name") {
    // The real nvcc output, as if it had compiled the staged file.
    std::string output_text = build_sample("compile_undefined_identifier.txt");
    const std::string sample_path = "/course/submissions/alice/vecadd.cu";
    for (auto at = output_text.find(sample_path); at != std::string::npos; at = output_text.find(sample_path, at))
      output_text.replace(at, sample_path.size(), "src/submission_0.cu");
    runner.expect(nvcc_fails(output_text));
    runner.expect(nvcc_fails(output_text));  // again without the call-site header
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message == "your file does not compile: vecadd.cu:7: identifier \"j\" is undefined");
    REQUIRE(output.result.diagnostics.size() == 3);
    CHECK(output.result.diagnostics[0].severity == "warning");
    CHECK(output.result.diagnostics[0].file == "vecadd.cu");
    CHECK(output.result.log.find("vecadd.cu(7): error") != std::string::npos);
    CHECK(output.result.log.find("submission_0") == std::string::npos);
    CHECK(output.runner.empty());
    REQUIRE(runner.requests().size() == 2);  // neither nm nor the link ran
    CHECK(after(runner.requests()[0].argv, "-include") == "obj/cugrade_call_sites.cuh");
    CHECK(std::ranges::count(runner.requests()[1].argv, "-include") == 0);
  }

  SUBCASE("a file that compiles only without the call-site header is built without it") {
    runner.expect(nvcc_fails("src/submission_0.cu(9): error: expected an identifier\n"));
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_writes_output());
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::passed);
    CHECK(output.result.diagnostics.empty());
    REQUIRE(runner.requests().size() == 5);
    CHECK(std::ranges::count(runner.requests()[1].argv, "-include") == 0);
  }

  SUBCASE("the call-site header's hook is the one runner function a submission may use") {
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(std::string(clean_symbols) + "                 U cugrade_api_returned\n"));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_writes_output());
    CHECK(build_submission_cuda(runner, request).result.outcome == Outcome::passed);
    CHECK(read(work / "obj" / "cugrade_call_sites.cuh").find("extern \"C\" cudaError_t cugrade_api_returned(") != std::string::npos);
    CHECK(read(work / "obj" / "cugrade_call_sites.cuh").find("#define cudaMemcpy(...)") != std::string::npos);
  }

  SUBCASE("a refused include stops the build before nvcc runs") {
    write_file(request.sources[0], "#include \"interface.cuh\"\n#include \"/etc/passwd\"\n");
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message.starts_with(
        "your file is refused before compiling: vecadd.cu:2: #include \"/etc/passwd\": includes must be your own "
        "files"));
    CHECK(runner.requests().empty());
  }

  SUBCASE("a compile that read a file outside the submission is refused, and its output not shown") {
    for (int twice = 0; twice < 2; ++twice)  // with the call-site header, then without
      runner.expect([](const ProcessRequest& sent) {
        nvcc_writes_output("src/submission_0.cu /course/reference/matmul/tiled.cu")(sent);
        return fake_exit(2, "", "/course/reference/matmul/tiled.cu(3): error: secret line\n  secret line\n");
      });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message ==
          "your file makes the compiler read /course/reference/matmul/tiled.cu, which is outside your "
          "submission: includes must be your own files (next to your .cu file) or system headers");
    CHECK(output.result.log.find("secret") == std::string::npos);
  }

  SUBCASE("a compile that succeeded without its dependency lists is the harness's fault") {
    runner.expect([](const ProcessRequest& sent) {
      write_file(fs::path(sent.working_dir) / after(sent.argv, "-o"), "object");
      return fake_exit(0);
    });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message == "the compiler wrote no list of the files it read (obj/submission_0.d)");
  }

  SUBCASE("a forbidden definition or use stops the build before the seal") {
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(build_sample("nm_attack_object.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::forbidden_symbol);
    CHECK(output.result.message ==
          "your file defines cugrade::hack, which it may not: namespace cugrade belongs to the harness");
    CHECK(output.result.diagnostics.size() == 7);
    CHECK(output.result.diagnostics[3].message.starts_with("uses dlopen: "));
    CHECK(output.result.diagnostics[6].message.starts_with("defines main: "));
    CHECK(runner.requests().size() == 2);
    CHECK(output.runner.empty());
  }

  SUBCASE("a missing entry point is a link error that names it") {
    write_file(fixture.root / "assignment" / "interface.cuh",
               "void matmul_naive(const float*, const float*, float*, int, int, int);\n"
               "void matmul_tiled(const float*, const float*, float*, int, int, int);\n");
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_fails(build_sample("link_missing_and_duplicate.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::link_error);
    CHECK(output.result.message ==
          "your file does not define matmul_tiled(float const*, ...), which interface.cuh "
          "declares: write this function (or keep the template's stub); scale(int) is defined "
          "more than once (in your file and in the runner, or in two of your files): rename your "
          "definition or declare it static");
    REQUIRE(output.result.diagnostics.size() == 2);
    CHECK(output.runner.empty());
  }

  SUBCASE("two of the student's files defining one name: the join's link error") {
    write_file(fixture.root / "submission" / "helpers.cu", "int helper() { return 1; }\n");
    fixture.request.sources.push_back(fixture.root / "submission" / "helpers.cu");
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_writes_output("src/submission_1.cu"));
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_fails("ld: obj/submission_1.o: in function `k(float const*, float const*, float*, int)':\n"
                             "x.cudafe1.cpp:(.text+0x0): multiple definition of `k(float const*, float const*, "
                             "float*, int)'; obj/submission_0.o:x.cudafe1.cpp:(.text+0x0): first defined here\n"));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::link_error);
    CHECK(output.result.message.starts_with("k(float const*, ...) is defined more than once"));
  }

  SUBCASE("a missing runner library is the harness's fault") {
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_fails(build_sample("link_missing_runner_library.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "the linker cannot find /course/missing/librunner.a: the assignment's runner library is "
          "not built or not installed");
  }

  SUBCASE("a system library the link needs and cannot find is the harness's fault, named as a library") {
    runner.expect(nvcc_writes_output());
    runner.expect(nm_lists(clean_symbols));
    runner.expect(tool_writes_output);
    runner.expect(nvcc_fails("/usr/bin/ld: cannot find -lboost_context: No such file or directory\n"
                             "collect2: error: ld returned 1 exit status\n"));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "the linker cannot find -lboost_context: libboost_context is not installed where the compiler looks "
          "(scripts/install-deps.sh installs what cugrade needs)");
  }

  SUBCASE("a compile that runs past the limit is a timeout") {
    fixture.request.timeout_s = 2.5;
    runner.expect([](const ProcessRequest&) {
      ProcessResult result = fake_exit(-1);
      result.timed_out = true;
      result.signal = 9;
      return result;
    });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::timeout);
    CHECK(output.result.message == "nvcc did not finish within 2.5 s");
    CHECK(runner.requests()[0].timeout_s == 2.5);
  }

  SUBCASE("nvcc that cannot be started is the harness's fault, with a way out") {
    runner.expect([](const ProcessRequest&) {
      ProcessResult result;
      result.launch_error = "/opt/cuda/bin/nvcc: no such file";
      return result;
    });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "nvcc could not be started (/opt/cuda/bin/nvcc: no such file; looked for /opt/cuda/bin/nvcc): install "
          "the CUDA toolkit, set CUGRADE_NVCC, or grade with --backend cpu");
    CHECK_FALSE(is_student_outcome(output.result.outcome));
  }

  SUBCASE("an nvcc that rejects its own options is the harness's fault") {
    runner.expect(nvcc_fails(build_sample("nvcc_fatal_arch.txt")));
    runner.expect(nvcc_fails(build_sample("nvcc_fatal_arch.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "nvcc could not build vecadd.cu: nvcc fatal   : Unsupported gpu architecture 'sm_999'");
  }

  SUBCASE("nm that cannot be started is the harness's fault") {
    runner.expect(nvcc_writes_output());
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message.starts_with(
        "nm was not found on PATH: install binutils (cugrade uses nm to check which names your file defines)"));
  }

  SUBCASE("an empty or missing file is refused before nvcc runs") {
    write_file(request.sources[0], "  \n\n");
    CHECK(build_submission_cuda(runner, request).result.message == "submission file vecadd.cu is empty");
    fs::remove(request.sources[0]);
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message == "submission file vecadd.cu was not found");
    CHECK(runner.requests().empty());
  }

  SUBCASE("the log keeps at most 16 KiB of compiler output") {
    runner.expect(nvcc_fails(std::string(100 * 1024, 'x') + "\n"));
    runner.expect(nvcc_fails(std::string(100 * 1024, 'x') + "\n"));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.log.starts_with(std::string(build_log_limit_bytes, 'x')));
    CHECK(output.result.log.ends_with("\n[compiler output truncated at 16 KiB]\n"));
    CHECK(output.result.log.size() < build_log_limit_bytes + 100);
  }

  SUBCASE("nvcc claiming success without an object is the harness's fault") {
    runner.expect([](const ProcessRequest& sent) {
      ProcessResult result = nvcc_writes_output()(sent);
      fs::remove(fs::path(sent.working_dir) / "obj" / "submission_0.o");
      return result;
    });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message == "nvcc reported success but wrote no obj/submission_0.o");
  }
}
