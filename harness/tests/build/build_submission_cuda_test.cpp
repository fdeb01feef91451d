// build_submission_cuda() with a scripted nvcc and nm: every outcome of the build stage.
#include "build/build_submission_cuda.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "build/test_data.hpp"
#include "process/fake_process_runner.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using cugrade::test::build_sample;

namespace {

const char* vecadd_source =
    "#include \"interface.cuh\"\n"
    "__global__ void k(const float* a, const float* b, float* c, int n) {}\n"
    "void vecadd(const float* a, const float* b, float* c, int n) { k<<<1, 1>>>(a, b, c, n); }\n";

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// A submission, an assignment folder and an empty work folder under a fresh directory.
struct BuildFixture {
  fs::path root;
  BuildRequest request;

  BuildFixture() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-build-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    fs::create_directories(root / "submission");
    fs::create_directories(root / "assignment");
    fs::create_directories(root / "work");
    write_file(root / "assignment" / "interface.cuh",
               "void vecadd(const float* a, const float* b, float* c, int n);\n");
    write_file(root / "submission" / "vecadd.cu", vecadd_source);
    request.sources = {root / "submission" / "vecadd.cu"};
    request.assignment = "vecadd";
    request.assignment_dir = root / "assignment";
    request.work_dir = root / "work";
    request.arch = "sm_90";
    request.compiler = "/opt/cuda/bin/nvcc";
    request.runner_library = "/opt/cugrade/lib/librunner_vecadd.a";
    request.timeout_s = 60.0;
    request.environment = {{"PATH", "/opt/cuda/bin:/usr/bin"}};
  }
  ~BuildFixture() { fs::remove_all(root); }
};

/// A fake nvcc that succeeds and writes the file named after -o (the object or the runner).
ProcessResult nvcc_writes_output(const ProcessRequest& request) {
  for (std::size_t i = 0; i + 1 < request.argv.size(); ++i) {
    if (request.argv[i] == "-o") write_file(request.argv[i + 1], "fake binary");
  }
  return fake_exit(0);
}

/// A fake nm listing the given symbols.
FakeProcessRunner::Handler nm_lists(std::string symbols) {
  return [symbols](const ProcessRequest&) { return fake_exit(0, symbols); };
}

const char* clean_symbols =
    "0000000000000010 T k(float const*, float const*, float*, int)\n"
    "0000000000000280 T vecadd(float const*, float const*, float*, int)\n";

/// nvcc failing with the given compiler or linker output on stderr.
FakeProcessRunner::Handler nvcc_fails(std::string output) {
  return [output](const ProcessRequest&) { return fake_exit(1, "", output); };
}

}  // namespace

TEST_CASE("build::build_submission_cuda") {
  BuildFixture fixture;
  const BuildRequest& request = fixture.request;
  const fs::path work = fixture.root / "work";
  FakeProcessRunner runner;

  SUBCASE("compiles, checks the symbols and links the runner") {
    runner.expect(nvcc_writes_output);
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_writes_output);
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::passed);
    CHECK(output.result.message.empty());
    CHECK(output.result.arch == "sm_90");
    CHECK(output.runner == work / "runner");
    CHECK(output.result.seconds >= 0.0);
    const auto& requests = runner.requests();
    REQUIRE(requests.size() == 3);
    const std::string object = (work / "vecadd.o").string();
    CHECK(requests[0].argv == std::vector<std::string>{"/opt/cuda/bin/nvcc", "-std=c++17", "-O3",
                                                       "-lineinfo", "-arch=sm_90",
                                                       "-I" + request.assignment_dir.string(),
                                                       "-Xcompiler=-fno-common", "-c",
                                                       request.sources[0].string(), "-o", object});
    CHECK(requests[1].argv == std::vector<std::string>{"nm", "--defined-only", "-C", object});
    CHECK(requests[2].argv == std::vector<std::string>{"/opt/cuda/bin/nvcc", "-arch=sm_90", "-o",
                                                       (work / "runner").string(), object,
                                                       "/opt/cugrade/lib/librunner_vecadd.a",
                                                       "-Xlinker", "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel"});
    for (const auto& sent : requests) {
      CHECK(sent.working_dir == work);
      CHECK(sent.environment == request.environment);
      CHECK(sent.timeout_s == 60.0);
    }
    REQUIRE(output.result.commands.size() == 3);
    CHECK(output.result.commands[1] == "nm --defined-only -C " + object);
  }

  SUBCASE("two sources: each is compiled and checked, both are linked") {
    write_file(fixture.root / "submission" / "helpers.cu", "int helper() { return 1; }\n");
    fixture.request.sources.push_back(fixture.root / "submission" / "helpers.cu");
    for (int i = 0; i < 2; ++i) {
      runner.expect(nvcc_writes_output);
      runner.expect(nm_lists(clean_symbols));
    }
    runner.expect(nvcc_writes_output);
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::passed);
    REQUIRE(runner.requests().size() == 5);
    const auto& link = runner.requests()[4].argv;
    CHECK(link[4] == (work / "vecadd.o").string());
    CHECK(link[5] == (work / "helpers.o").string());
  }

  SUBCASE("a compile error names the first error, in the student's file") {
    // The real nvcc output, as if it had compiled the fixture's file.
    std::string output_text = build_sample("compile_undefined_identifier.txt");
    const std::string sample_path = "/course/submissions/alice/vecadd.cu";
    for (auto at = output_text.find(sample_path); at != std::string::npos;
         at = output_text.find(sample_path, at)) {
      output_text.replace(at, sample_path.size(), request.sources[0].string());
    }
    runner.expect(nvcc_fails(output_text));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message ==
          "your file does not compile: vecadd.cu:7: identifier \"j\" is undefined");
    REQUIRE(output.result.diagnostics.size() == 3);
    CHECK(output.result.diagnostics[0].severity == "warning");
    CHECK(output.result.diagnostics[0].file == "vecadd.cu");
    CHECK(output.result.log == output_text);
    CHECK(output.runner.empty());
    CHECK(runner.requests().size() == 1);  // neither nm nor the link ran
  }

  SUBCASE("compile errors are reported by the student's file name") {
    runner.expect([&](const ProcessRequest&) {
      return fake_exit(2, "",
                       request.sources[0].string() + "(3): error: identifier \"j\" is undefined\n");
    });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message ==
          "your file does not compile: vecadd.cu:3: identifier \"j\" is undefined");
    REQUIRE(output.result.diagnostics.size() == 1);
    CHECK(output.result.diagnostics[0].file == "vecadd.cu");
  }

  SUBCASE("a forbidden definition stops the build before the link") {
    runner.expect(nvcc_writes_output);
    runner.expect(nm_lists(build_sample("nm_forbidden_definitions.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::forbidden_symbol);
    CHECK(output.result.message ==
          "your file defines cugrade::hack, which it may not: namespace cugrade belongs to the "
          "harness");
    CHECK(output.result.diagnostics.size() == 3);
    CHECK(output.result.diagnostics[2].message.starts_with("defines main: "));
    CHECK(runner.requests().size() == 2);
    CHECK(output.runner.empty());
  }

  SUBCASE("a missing entry point is a link error that names it") {
    write_file(fixture.root / "assignment" / "interface.cuh",
               "void matmul_naive(const float*, const float*, float*, int, int, int);\n"
               "void matmul_tiled(const float*, const float*, float*, int, int, int);\n");
    runner.expect(nvcc_writes_output);
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_fails(build_sample("link_missing_and_duplicate.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::link_error);
    CHECK(output.result.message ==
          "your file does not define matmul_tiled(float const*, ...), which interface.cuh "
          "declares: write this function (or keep the template's stub); scale(int) is defined "
          "more than once (in your file and in the runner, or in two of your files): rename your "
          "definition or declare it static");
    REQUIRE(output.result.diagnostics.size() == 2);
    CHECK(output.result.diagnostics[0].message ==
          "no definition of matmul_tiled(float const*, float const*, float*, int, int, int)");
    CHECK(output.runner.empty());
  }

  SUBCASE("only a multiple definition is a link error too") {
    runner.expect(nvcc_writes_output);
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_fails(
        "/usr/bin/ld: a.o: multiple definition of `scale(int)'; b.o: first defined here\n"));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::link_error);
    CHECK(output.result.message.starts_with("scale(int) is defined more than once"));
  }

  SUBCASE("a missing runner library is the harness's fault") {
    runner.expect(nvcc_writes_output);
    runner.expect(nm_lists(clean_symbols));
    runner.expect(nvcc_fails(build_sample("link_missing_runner_library.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "the linker cannot find /course/missing/librunner.a: the assignment's runner library is "
          "not built or not installed");
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
          "nvcc was not found (looked for /opt/cuda/bin/nvcc): install the CUDA toolkit, set "
          "CUGRADE_NVCC, or grade with --backend cpu");
    CHECK_FALSE(is_student_outcome(output.result.outcome));
  }

  SUBCASE("an nvcc that rejects its own options is the harness's fault") {
    runner.expect(nvcc_fails(build_sample("nvcc_fatal_arch.txt")));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "nvcc could not build vecadd.cu: nvcc fatal   : Unsupported gpu architecture 'sm_999'");
  }

  SUBCASE("nm that cannot be started is the harness's fault") {
    runner.expect(nvcc_writes_output);
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message ==
          "nm was not found on PATH: install binutils (cugrade uses nm to check which names your "
          "file defines)");
  }

  SUBCASE("an empty file is refused before nvcc runs") {
    write_file(request.sources[0], "  \n\n");
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message == "submission file vecadd.cu is empty");
    CHECK(runner.requests().empty());
  }

  SUBCASE("a missing file is refused before nvcc runs") {
    fs::remove(request.sources[0]);
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message == "submission file vecadd.cu was not found");
    CHECK(runner.requests().empty());
  }

  SUBCASE("the log keeps at most 16 KiB of compiler output") {
    runner.expect(nvcc_fails(std::string(100 * 1024, 'x') + "\n"));
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.log.starts_with(std::string(build_log_limit_bytes, 'x')));
    CHECK(output.result.log.ends_with("\n[compiler output truncated at 16 KiB]\n"));
    CHECK(output.result.log.size() < build_log_limit_bytes + 100);
  }

  SUBCASE("nvcc claiming success without an object is the harness's fault") {
    runner.expect([](const ProcessRequest&) { return fake_exit(0); });
    const BuildOutput output = build_submission_cuda(runner, request);
    CHECK(output.result.outcome == Outcome::harness_error);
    CHECK(output.result.message == "nvcc reported success but wrote no vecadd.o");
  }
}

TEST_CASE("build::build_submission_cuda with the real nvcc") {
  const fs::path nvcc = "/usr/local/cuda/bin/nvcc";
  if (!fs::exists(nvcc)) {
    MESSAGE("skipped: no nvcc at " << nvcc.string());
    return;
  }
  BuildFixture fixture;
  fixture.request.compiler = nvcc;
  fixture.request.environment = {};  // the scrubbed environment
  auto runner = make_process_runner();

  SUBCASE("a compile error comes back parsed") {
    write_file(fixture.request.sources[0],
               "#include \"interface.cuh\"\n"
               "void vecadd(const float* a, const float* b, float* c, int n) { c[0] = j; }\n");
    const BuildOutput output = build_submission_cuda(*runner, fixture.request);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message ==
          "your file does not compile: vecadd.cu:2: identifier \"j\" is undefined");
  }

  SUBCASE("a definition of main is refused after compiling") {
    write_file(fixture.request.sources[0],
               std::string(vecadd_source) + "int main() { return 0; }\n");
    const BuildOutput output = build_submission_cuda(*runner, fixture.request);
    CHECK(output.result.outcome == Outcome::forbidden_symbol);
    CHECK(output.result.message.starts_with("your file defines main, which it may not: "));
  }

  SUBCASE("links a runner that runs, and names a missing entry point") {
    // A minimal runner library: a main calling the entry point, and the launch wrappers the
    // link flag routes kernel launches through.
    const fs::path library_source = fixture.root / "runner_main.cu";
    write_file(
        library_source,
        "#include <cuda_runtime.h>\n"
        "#include \"interface.cuh\"\n"
        "#define WRAP(name, F) extern \"C\" cudaError_t __real_##name(F, dim3, dim3, void**, "
        "size_t, cudaStream_t); extern \"C\" cudaError_t __wrap_##name(F f, dim3 g, dim3 b, "
        "void** a, size_t s, cudaStream_t t) { return __real_##name(f, g, b, a, s, t); }\n"
        "WRAP(cudaLaunchKernel, const void*)\n"
        "WRAP(__cudaLaunchKernel, cudaKernel_t)\n"
        "WRAP(__cudaLaunchKernel_ptsz, cudaKernel_t)\n"
        "int main(int argc, char**) { if (argc > 3) vecadd(nullptr, nullptr, nullptr, 0); "
        "return 7; }\n");
    const fs::path library_object = fixture.root / "runner_main.o";
    ProcessRequest compile_library;
    compile_library.argv = {nvcc.string(),
                            "-arch=sm_90",
                            "-I" + fixture.request.assignment_dir.string(),
                            "-c",
                            library_source.string(),
                            "-o",
                            library_object.string()};
    REQUIRE(runner->run(compile_library).exit_code == 0);
    fixture.request.runner_library = fixture.root / "librunner.a";
    ProcessRequest archive;
    archive.argv = {"ar", "rcs", fixture.request.runner_library.string(), library_object.string()};
    REQUIRE(runner->run(archive).exit_code == 0);

    const BuildOutput built = build_submission_cuda(*runner, fixture.request);
    CHECK(built.result.outcome == Outcome::passed);
    REQUIRE(fs::exists(built.runner));
    ProcessRequest start_runner;
    start_runner.argv = {built.runner.string()};
    CHECK(runner->run(start_runner).exit_code == 7);

    write_file(fixture.request.sources[0], "int unrelated() { return 1; }\n");
    fs::remove_all(fixture.request.work_dir);
    fs::create_directories(fixture.request.work_dir);
    const BuildOutput unlinked = build_submission_cuda(*runner, fixture.request);
    CHECK(unlinked.result.outcome == Outcome::link_error);
    CHECK(unlinked.result.message ==
          "your file does not define vecadd(float const*, ...), which interface.cuh declares: "
          "write this function (or keep the template's stub)");
  }
}
