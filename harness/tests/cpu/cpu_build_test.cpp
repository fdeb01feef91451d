// build_submission_cpu with the real host compiler and a stand-in runner library
// (data/build/runner_main.cpp + the executor): diagnostics on the student's own lines, a
// missing entry point as a link error, a runner that runs, and each refusal of a hostile
// submission (includes outside it, .incbin, interposed and forbidden symbols, the seal).
#include "cpu_build.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "build/toolchain.hpp"
#include "core/program_path.hpp"

namespace {

namespace fs = std::filesystem;

/// A fresh work folder and a request for one student file with the given text.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("cugrade-cpu-build-" + std::to_string(::getpid()));
  cugrade::BuildRequest request;
  std::unique_ptr<cugrade::ProcessRunner> runner = cugrade::make_process_runner();

  explicit Scratch(const std::string& source) {
    fs::remove_all(dir);
    fs::create_directories(dir / "work");
    std::ofstream(dir / "student.cu") << source;
    request.sources = {dir / "student.cu"};
    request.assignment = "demo";
    request.assignment_dir = fs::path(CUGRADE_CPU_TEST_DATA) / "build";
    request.work_dir = dir / "work";
    request.runner_library = CUGRADE_CPU_TEST_RUNNER;
    request.environment = cugrade::scrubbed_environment();
  }
  ~Scratch() { fs::remove_all(dir); }
};

constexpr const char* kGood = R"(
__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * i;
}
void entry(float* out, int n) { fill<<<(n + 31) / 32, 32>>>(out, n); }
)";

}  // namespace

TEST_CASE("cpu_build::build_submission_cpu") {
  SUBCASE("a correct file builds a runner that runs") {
    Scratch s(kGood);
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    REQUIRE(out.result.outcome == cugrade::Outcome::passed);
    CHECK(out.result.arch == "cpu");
    cugrade::ProcessRequest run{{out.runner.string()}};
    run.environment = cugrade::scrubbed_environment();
    auto result = s.runner->run(run);
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text == "126 no error\n");
#ifdef CUGRADE_RUNNER_HOLDS_BOOST_CONTEXT
    // Boost.Context came with the runner library: the runner needs no Boost where it runs (a
    // machine with Boost in a prefix of its own), nor the link a -lboost_context.
    std::ifstream binary(out.runner, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(binary), std::istreambuf_iterator<char>()};
    CHECK(bytes.find("libboost_context.so") == std::string::npos);
    for (const auto& command : out.result.commands) CHECK(command.find("-lboost_context") == std::string::npos);
#endif
  }
  SUBCASE("a compiler installed outside the system (its own folder, found through a link) builds, sealed") {
    Scratch s(kGood);
    // The stand-in installation: a g++ that hands over to the system's, as a cluster's wrapper does.
    const fs::path system_gxx = cugrade::find_program("g++", s.request.environment.at("PATH"));
    fs::create_directories(s.dir / "opt-gcc" / "bin");
    std::ofstream(s.dir / "opt-gcc" / "bin" / "g++") << "#!/bin/sh\nexec " << system_gxx.string() << " \"$@\"\n";
    fs::permissions(s.dir / "opt-gcc" / "bin" / "g++", fs::perms::owner_all | fs::perms::group_read |
                    fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    fs::create_directories(s.dir / "links");
    fs::create_symlink(s.dir / "opt-gcc" / "bin" / "g++", s.dir / "links" / "g++");
    s.request.compiler = s.dir / "links" / "g++";  // a link to it, as /usr/bin/g++ may be to /opt/gcc
    CHECK(cugrade::compiler_root(s.request.compiler.string(), s.request.environment) ==
          fs::canonical(s.dir / "opt-gcc"));
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    INFO(out.result.log);
    CHECK(out.result.outcome == cugrade::Outcome::passed);
  }
  SUBCASE("a compile error points at the student's line") {
    Scratch s("__global__ void fill(float* out) {\n  out[threadIdx.x] = undefined_name;\n}\n"
              "void entry(float* out, int n) { fill<<<1, n>>>(out); }\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    REQUIRE_FALSE(out.result.diagnostics.empty());
    CHECK(out.result.diagnostics[0].file == "student.cu");
    CHECK(out.result.diagnostics[0].line == 2);
    CHECK(out.result.message.find("undefined_name") != std::string::npos);
  }
  SUBCASE("inline PTX: a compile error on the student's line that says the CPU backend cannot run it") {
    Scratch s("__global__ void fill(float* out) {\n  unsigned lane;\n"
              "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n  out[threadIdx.x] = lane;\n}\n"
              "void entry(float* out, int n) { fill<<<1, n>>>(out); }\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    REQUIRE_FALSE(out.result.diagnostics.empty());
    CHECK(out.result.diagnostics[0].file == "student.cu");
    CHECK(out.result.diagnostics[0].line == 3);
    CHECK(out.result.message.find("inline assembly (asm) is PTX, which the CPU backend cannot run: check this file on a GPU") !=
          std::string::npos);
  }
  SUBCASE("a launch the pre-pass cannot read is a compile error") {
    Scratch s("__global__ void k() {}\nvoid entry(float*, int) {\n  k<<<1, 1>>>;\n}\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK(out.result.message ==
          "your file cannot be prepared for the CPU backend: student.cu:3: a kernel launch needs its "
          "arguments in parentheses after >>>.");
  }
  SUBCASE("a missing entry point is a link error naming it") {
    Scratch s("__global__ void k(float* out) { out[0] = 1; }\nvoid other(float* out) { k<<<1, 1>>>(out); }\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::link_error);
    CHECK(out.result.message.find("entry(") != std::string::npos);
  }
  SUBCASE("cooperative groups: the subset builds, anything else is a compile error naming it") {
    Scratch good("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                 "__global__ void fill(float* out) {\n  cg::thread_block b = cg::this_thread_block();\n"
                 "  b.sync();\n  out[b.thread_rank()] = cg::tiled_partition<32>(b).meta_group_rank();\n}\n"
                 "void entry(float* out, int n) { fill<<<1, n>>>(out); }\n");
    auto built = cugrade::build_submission_cpu(*good.runner, good.request);
    CHECK(built.result.outcome == cugrade::Outcome::passed);
    Scratch grid("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                 "__global__ void fill(float* out) {\n  cg::this_grid().sync();\n  out[0] = 1;\n}\n"
                 "void entry(float* out, int n) { fill<<<1, n>>>(out); }\n");
    auto out = cugrade::build_submission_cpu(*grid.runner, grid.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK_MESSAGE(out.result.message.find("cooperative_groups::this_grid() (grid-wide synchronisation) is not "
                                          "supported by the CPU backend") != std::string::npos,
                  out.result.message);
    const bool on_student_line = std::any_of(out.result.diagnostics.begin(), out.result.diagnostics.end(),
                                             [](const auto& d) { return d.file == "student.cu" && d.line == 4; });
    CHECK(on_student_line);
  }
  SUBCASE("a launch in a local header is rewritten, and its errors point at the header") {
    Scratch s("#include \"launch.cuh\"\nvoid entry(float* out, int n) { go(out, n); }\n");
    std::ofstream(s.dir / "launch.cuh") << "#pragma once\n__global__ void fill(float* out) { out[threadIdx.x] = 3; }\n"
                                           "inline void go(float* out, int n) { fill<<<1, n>>>(out); }\n";
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::passed);
    std::ofstream(s.dir / "launch.cuh")
        << "#pragma once\nvoid go(float* out, int n) {\n  undefined_name<<<1, n>>>(out);\n}\n";
    out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    const bool in_header = std::any_of(out.result.diagnostics.begin(), out.result.diagnostics.end(), [](const auto& d) {
      return d.file.ends_with("launch.cuh") && d.line == 3 && d.message.find("undefined_name") != std::string::npos;
    });
    CHECK_MESSAGE(in_header, out.result.message);
  }
}

TEST_CASE("cpu_build::build_submission_cpu refuses what a hostile submission tries") {
  const std::string entry = "void entry(float* out, int n) { fill<<<(n + 31) / 32, 32>>>(out, n); }\n";
  const std::string kernel = "__global__ void fill(float* out, int n) {\n"
                             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = 2.0f * i;\n}\n";

  SUBCASE("an include out of the submission, plain or built by a macro, never compiles nor shows") {
    Scratch s(kernel + entry);
    std::ofstream(s.dir / "secret.cu") << "int the_reference_answer = 42;\nsecret line two\n";
    std::ofstream(s.dir / "student.cu") << "#include \"../secret.cu\"\n" << kernel << entry;
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK(out.result.message.find("includes must be your own files") != std::string::npos);
    std::ofstream(s.dir / "student.cu") << "#define F \"" << (s.dir / "secret.cu").string() << "\"\n#include F\n"
                                        << kernel << entry;
    s.request.sealed = false;  // the compiler reads it: its dependency list gives it away
    out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK_MESSAGE(out.result.message.starts_with("your file makes the compiler read " + (s.dir / "secret.cu").string()),
                  out.result.message);
    CHECK(out.result.log.find("secret line") == std::string::npos);
    s.request.sealed.reset();  // sealed where bubblewrap works: not there to read
    out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK(out.result.log.find("secret line") == std::string::npos);
  }
  SUBCASE(".incbin built by token pasting is caught by the assembler's list") {
    Scratch s(kernel + entry);
    std::ofstream(s.dir / "secret.bin") << "secret";
    std::ofstream(s.dir / "student.cu") << "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define CAT(a, b) a##b\n"
                                        << "asm(XSTR(.CAT(inc, bin)) \" \\\"" << (s.dir / "secret.bin").string()
                                        << "\\\"\");\n" << kernel << entry;
    s.request.sealed = false;
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK_MESSAGE(out.result.message.starts_with("your file makes the compiler read " + (s.dir / "secret.bin").string()),
                  out.result.message);
    s.request.sealed.reset();
    out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::compile_error);
    CHECK(out.runner.empty());
  }
  SUBCASE("interposing on libc, or calling the executor's internals, is refused") {
    Scratch s(kernel + entry + "#include <cstdio>\nextern \"C\" size_t fwrite(const void*, size_t, size_t, FILE*) { return 0; }\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    CHECK(out.result.outcome == cugrade::Outcome::forbidden_symbol);
    CHECK(out.result.message.starts_with("your file defines fwrite, which it may not"));
    Scratch internal("namespace cugrade_cpu { void clear_errors(); }\n" + kernel +
                     "void entry(float* out, int n) { cugrade_cpu::clear_errors(); fill<<<(n + 31) / 32, 32>>>(out, n); }\n");
    out = cugrade::build_submission_cpu(*internal.runner, internal.request);
    CHECK(out.result.outcome == cugrade::Outcome::forbidden_symbol);
    CHECK_MESSAGE(out.result.message.starts_with("your file uses cugrade_cpu::clear_errors(), which it may not"),
                  out.result.message);
  }
  SUBCASE("the seal: a student's copy of an inline function of the runner does not replace it") {
    Scratch s(kernel + entry + "inline int runner_exit_code() { return 3; }\n"
              "int (*volatile use_it)() = runner_exit_code;  // emitted out of line\n");
    auto out = cugrade::build_submission_cpu(*s.runner, s.request);
    REQUIRE_MESSAGE(out.result.outcome == cugrade::Outcome::passed, out.result.message);
    cugrade::ProcessRequest run{{out.runner.string()}};
    run.environment = cugrade::scrubbed_environment();
    auto result = s.runner->run(run);
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text == "126 no error\n");
  }
}
