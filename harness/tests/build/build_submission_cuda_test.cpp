// build_submission_cuda() with a scripted nvcc, nm and objcopy: every outcome of the build stage;
// then with the real nvcc: each refusal of a hostile submission, and a sealed runner that runs.
#include "build/build_submission_cuda.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
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
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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
    request.environment = {{"PATH", "/opt/cuda/bin:/usr/bin:/bin"}};
    request.sealed = true;  // the scripted runner records the sandbox each step asks for
  }
  ~BuildFixture() { fs::remove_all(root); }
};

/// The argument after `flag` in argv, or "".
std::string after(const std::vector<std::string>& argv, const std::string& flag) {
  const auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
}

/// A fake nvcc that succeeds and writes what it was asked to: the object (or the runner), the
/// dependency list (-MF) and the assembler's (--MD), listing `dependencies`.
FakeProcessRunner::Handler nvcc_writes_output(std::string dependencies = "src/submission_0.cu /usr/include/stdio.h") {
  return [dependencies](const ProcessRequest& request) {
    const fs::path in = request.working_dir;
    const auto& argv = request.argv;
    write_file(in / after(argv, "-o"), "fake binary");
    if (const std::string deps = after(argv, "-MF"); !deps.empty())
      write_file(in / deps, "obj/x.o: " + dependencies + "\n");
    if (auto md = std::find(argv.begin(), argv.end(), "--MD"); md != argv.end() && argv.end() - md > 4)
      write_file(in / *(md + 4), "obj/x.o: tmp/cc1.s\n");
    return fake_exit(0);
  };
}

/// A fake nm listing the given symbols.
FakeProcessRunner::Handler nm_lists(std::string symbols) {
  return [symbols](const ProcessRequest& request) {
    CHECK(request.argv.front() == "nm");
    return fake_exit(0, symbols);
  };
}

/// A fake objcopy (or ld -r) writing its output, the last argument (or the one after -o).
ProcessResult tool_writes_output(const ProcessRequest& request) {
  const std::string out = request.argv.front() == "ld" ? after(request.argv, "-o") : request.argv.back();
  write_file(fs::path(request.working_dir) / out, "sealed");
  return fake_exit(0);
}

const char* clean_symbols =
    "0000000000000010 T _Z1kPKfS0_Pfi\n"
    "0000000000000280 T _Z6vecaddPKfS0_Pfi\n"
    "                 U cudaMalloc\n";

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
