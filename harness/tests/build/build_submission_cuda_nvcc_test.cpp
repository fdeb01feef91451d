// build_submission_cuda() with the real nvcc: each refusal of a hostile submission, and a sealed
// runner that runs.
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

namespace {

/// The real nvcc, a minimal runner library (a main returning runner_value(), an inline function
/// a submission could try to replace, and the launch wrappers the link flag routes launches
/// through) and a course file outside the submission that no build may read.
struct RealBuild {
  BuildFixture fixture;
  std::unique_ptr<ProcessRunner> runner = make_process_runner();
  fs::path secret;

  explicit RealBuild(const fs::path& nvcc) {
    fixture.request.compiler = nvcc;
    fixture.request.arch = "sm_75";
    fixture.request.environment = scrubbed_environment();
    fixture.request.sealed.reset();  // sandboxed where bubblewrap works here
    secret = fixture.root / "course" / "reference" / "secret.cu";
    write_file(secret, "int the_reference_answer = 42;\nsecret line two\n");
    write_file(fixture.root / "runner" / "runner_value.hpp", "inline int runner_value() { return 7; }\n");
    const fs::path library_source = fixture.root / "runner" / "runner_main.cu";
    write_file(library_source,
               "#include <cuda_runtime.h>\n"
               "#include \"interface.cuh\"\n"
               "#include \"runner_value.hpp\"\n"
               "#define WRAP(name, F) extern \"C\" cudaError_t __real_##name(F, dim3, dim3, void**, "
               "size_t, cudaStream_t); extern \"C\" cudaError_t __wrap_##name(F f, dim3 g, dim3 b, "
               "void** a, size_t s, cudaStream_t t) { return __real_##name(f, g, b, a, s, t); }\n"
               "WRAP(cudaLaunchKernel, const void*)\n"
               "WRAP(__cudaLaunchKernel, cudaKernel_t)\n"
               "WRAP(__cudaLaunchKernel_ptsz, cudaKernel_t)\n"
               "extern \"C\" cudaError_t cugrade_api_returned(const char*, int, const char*, cudaError_t r) "
               "{ return r; }\n"
               "#define PASS(name, P, A) extern \"C\" cudaError_t __real_##name P; "
               "extern \"C\" cudaError_t __wrap_##name P { return __real_##name A; }\n"
               "PASS(cudaMalloc, (void** p, size_t n), (p, n))\n"
               "PASS(cudaFree, (void* p), (p))\n"
               "PASS(cudaMemcpy, (void* d, const void* s, size_t n, cudaMemcpyKind k), (d, s, n, k))\n"
               "int main(int argc, char**) { if (argc > 3) vecadd(nullptr, nullptr, nullptr, 0); "
               "return runner_value(); }\n");
    const fs::path library_object = fixture.root / "runner" / "runner_main.o";
    ProcessRequest compile_library;
    compile_library.argv = {nvcc.string(), "-arch=sm_75", "-I" + fixture.request.assignment_dir.string(), "-c",
                            library_source.string(), "-o", library_object.string()};
    compile_library.environment = scrubbed_environment();
    REQUIRE(runner->run(compile_library).exit_code == 0);
    fixture.request.runner_library = fixture.root / "runner" / "librunner.a";
    ProcessRequest archive;
    archive.argv = {"ar", "rcs", fixture.request.runner_library.string(), library_object.string()};
    REQUIRE(runner->run(archive).exit_code == 0);
  }

  /// Builds `source` as the student's only file, in a fresh work folder.
  BuildOutput build(const std::string& source) {
    write_file(fixture.request.sources[0], source);
    fs::remove_all(fixture.request.work_dir);
    fs::create_directories(fixture.request.work_dir);
    return build_submission_cuda(*runner, fixture.request);
  }

  /// Runs the built runner; its exit code.
  int run(const BuildOutput& built) {
    ProcessRequest start;
    start.argv = {built.runner.string()};
    start.environment = scrubbed_environment();
    return runner->run(start).exit_code;
  }
};

}  // namespace

TEST_CASE("build::build_submission_cuda with the real nvcc") {
  const fs::path nvcc = "/usr/local/cuda/bin/nvcc";
  if (!fs::exists(nvcc)) {
    MESSAGE("skipped: no nvcc at " << nvcc.string());
    return;
  }
  RealBuild real(nvcc);
  const std::string entry = "void vecadd(const float* a, const float* b, float* c, int n) { k<<<1, 1>>>(a, b, c, n); }\n";
  const std::string kernel = "#include \"interface.cuh\"\n__global__ void k(const float*, const float*, float*, int) {}\n";

  SUBCASE("an honest file links into a runner that runs; a missing entry point is named") {
    const BuildOutput built = real.build(vecadd_source);
    REQUIRE_MESSAGE(built.result.outcome == Outcome::passed, built.result.message);
    CHECK(real.run(built) == 7);
    const BuildOutput unlinked = real.build("int unrelated() { return 1; }\n");
    CHECK(unlinked.result.outcome == Outcome::link_error);
    CHECK(unlinked.result.message ==
          "your file does not define vecadd(float const*, ...), which interface.cuh declares: "
          "write this function (or keep the template's stub)");
  }

  SUBCASE("runtime calls pass their line to the runner, and a file its header would break builds without it") {
    const std::string calls = "#include \"interface.cuh\"\n"
                              "void vecadd(const float* a, const float* b, float* c, int n) {\n"
                              "  float* d = nullptr;\n"
                              "  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return;\n"
                              "  cudaMemcpy(c, d, n * sizeof(float), cudaMemcpyDeviceToHost);\n"
                              "  cudaFree(d);\n"
                              "  (void)a; (void)b;\n"
                              "}\n";
    const BuildOutput built = real.build(calls);
    REQUIRE_MESSAGE(built.result.outcome == Outcome::passed, built.result.message);
    ProcessRequest list;
    list.argv = {"nm", "-u", (real.fixture.request.work_dir / "obj" / "submission_0.o").string()};
    CHECK(real.runner->run(list).stdout_text.find("cugrade_api_returned") != std::string::npos);
    std::string qualified = calls;
    qualified.replace(qualified.find("cudaFree(d)"), 11, "::cudaFree(d)");
    const BuildOutput again = real.build(qualified);
    CHECK_MESSAGE(again.result.outcome == Outcome::passed, again.result.message);
    CHECK(again.result.diagnostics.empty());
  }

  SUBCASE("a compile error comes back parsed, by the student's file name") {
    const BuildOutput output = real.build(
        "#include \"interface.cuh\"\nvoid vecadd(const float* a, const float* b, float* c, int n) { c[0] = j; }\n");
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message == "your file does not compile: vecadd.cu:2: identifier \"j\" is undefined");
  }

  SUBCASE("an include a macro builds, of a course file, is refused and never quoted") {
    const std::string source = kernel + "#define COURSE_FILE \"" + real.secret.string() + "\"\n#include COURSE_FILE\n" + entry;
    // Unsealed the compiler reads the file: its dependency list gives it away.
    real.fixture.request.sealed = false;
    BuildOutput output = real.build(source);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message.starts_with("your file makes the compiler read " + real.secret.string() +
                                            ", which is outside your submission"));
    CHECK(output.result.log.find("secret line") == std::string::npos);
    CHECK(output.result.log.find("the_reference_answer") == std::string::npos);
    // Sealed (where bubblewrap works) the file is not there to read.
    real.fixture.request.sealed.reset();
    output = real.build(source);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.log.find("secret line") == std::string::npos);
  }

  SUBCASE(".incbin spelled by token pasting is caught by the assembler's list of what it read") {
    const std::string source = kernel + "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define CAT(a, b) a##b\n"
                               "asm(XSTR(.CAT(inc, bin)) \" \\\"" + real.secret.string() + "\\\"\");\n" + entry;
    real.fixture.request.sealed = false;
    BuildOutput output = real.build(source);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.result.message.starts_with("your file makes the compiler read " + real.secret.string()));
    real.fixture.request.sealed.reset();
    output = real.build(source);
    CHECK(output.result.outcome == Outcome::compile_error);
    CHECK(output.runner.empty());
  }

  SUBCASE("definitions that would interpose on libc and libstdc++ are refused, naming them") {
    const BuildOutput fwrite = real.build(
        kernel + "#include <cstdio>\nextern \"C\" size_t fwrite(const void*, size_t, size_t, FILE*) { return 0; }\n" + entry);
    CHECK(fwrite.result.outcome == Outcome::forbidden_symbol);
    CHECK(fwrite.result.message.starts_with("your file defines fwrite, which it may not: "));
    const BuildOutput now = real.build(
        kernel + "#include <chrono>\nnamespace std { namespace chrono { inline namespace _V2 {\n"
                 "steady_clock::time_point steady_clock::now() noexcept { return time_point(); }\n} } }\n" + entry);
    CHECK(now.result.outcome == Outcome::forbidden_symbol);
    CHECK(now.result.message.starts_with(
        "your file defines std::chrono::_V2::steady_clock::now(), which it may not: it would replace the library's "
        "definition for the whole program"));
    const BuildOutput symver = real.build(
        kernel + "#include <ctime>\nextern \"C\" int fake_clock(clockid_t, struct timespec*) { return 0; }\n"
                 "__asm__(\".symver fake_clock, clock_gettime@GLIBC_2.17\");\n" + entry);
    CHECK(symver.result.outcome == Outcome::forbidden_symbol);
    CHECK(symver.result.message.starts_with("your file defines clock_gettime@GLIBC_2.17, which it may not: "));
  }

  SUBCASE("uses of dlopen and of the reference are refused") {
    const BuildOutput dl = real.build(
        kernel + "#include <dlfcn.h>\n" + "void vecadd(const float* a, const float* b, float* c, int n) { "
                 "dlopen(\"libcublas.so\", RTLD_NOW); k<<<1, 1>>>(a, b, c, n); }\n");
    CHECK(dl.result.outcome == Outcome::forbidden_symbol);
    CHECK(dl.result.message.starts_with("your file uses dlopen, which it may not: "));
    const BuildOutput reference = real.build(
        kernel + "namespace cugrade_reference { void vecadd(const float*, const float*, float*, int); }\n"
                 "void vecadd(const float* a, const float* b, float* c, int n) { cugrade_reference::vecadd(a, b, c, n); }\n");
    CHECK(reference.result.outcome == Outcome::forbidden_symbol);
    CHECK(reference.result.message.find("cugrade_reference") != std::string::npos);
  }

  SUBCASE("the seal: a student's copy of an inline function the runner uses does not replace the runner's") {
    // runner_value() is the runner's; the student's body differs (an ODR violation the linker
    // would resolve in the student's favour: its object comes first).
    const BuildOutput built = real.build(std::string(vecadd_source) +
                                         "inline int runner_value() { return 99; }\n"
                                         "int (*volatile use_it)() = runner_value;  // emitted out of line\n");
    REQUIRE_MESSAGE(built.result.outcome == Outcome::passed, built.result.message);
    CHECK(real.run(built) == 7);
    ProcessRequest nm;
    nm.argv = {"nm", "-g", "--defined-only", (real.fixture.request.work_dir / "obj" / "submission.o").string()};
    const std::string globals = real.runner->run(nm).stdout_text;
    CHECK(globals.find("vecadd") != std::string::npos);
    CHECK(globals.find("runner_value") == std::string::npos);
    CHECK(globals.find("use_it") == std::string::npos);
  }

  SUBCASE("several files: a helper in one, used by the other, survives the seal") {
    write_file(real.fixture.root / "submission" / "helpers.cu", "int helper(int x) { return x + 1; }\n");
    real.fixture.request.sources.push_back(real.fixture.root / "submission" / "helpers.cu");
    const BuildOutput built = real.build(kernel + "int helper(int);\n"
                                                  "void vecadd(const float* a, const float* b, float* c, int n) { "
                                                  "k<<<1, helper(0)>>>(a, b, c, n); }\n");
    REQUIRE_MESSAGE(built.result.outcome == Outcome::passed, built.result.message);
    CHECK(real.run(built) == 7);
  }
}
