// The symbol policy on real nvcc objects (samples in harness/tests/data/build/) and its table,
// against libraries listed as nm lists them.
#include "build/symbol_policy.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string_view>

#include "build/test_data.hpp"

using namespace cugrade;
using cugrade::test::build_sample;

namespace {

/// A link's libraries as nm lists them: a few names of libc, libstdc++, cudart and the runner.
LibrarySymbols sample_libraries() {
  LibrarySymbols libraries;
  add_library_listing(libraries, {"libc.so.6", "the C library", false},
                      "00000000000cf420 T clock_gettime@@GLIBC_2.17\n"
                      "00000000000cf420 T clock_gettime@GLIBC_2.2.5\n"
                      "0000000000078a30 W fwrite@@GLIBC_2.2.5\n"
                      "00000000000a0000 T index@@GLIBC_2.2.5\n"
                      "0000000000000000 A GLIBC_2.17\n"
                      "0000000000050000 T dlopen@@GLIBC_2.34\n");
  add_library_listing(libraries, {"libm.so.6", "the C math library", false}, "0000000000001000 W y1@@GLIBC_2.2.5\n");
  add_library_listing(libraries, {"libstdc++.so.6", "the C++ standard library", false},
                      "00000000000e5000 T _ZNSt6chrono3_V212steady_clock3nowEv@@GLIBCXX_3.4.19\n"
                      "00000000000a0000 T _Znwm@@GLIBCXX_3.4\n"
                      "00000000000a0100 W _ZNSt6chrono8durationIlSt5ratioILl1ELl1000000000EEE4zeroEv\n");
  add_library_listing(libraries, {"libcudart_static.a", "the CUDA runtime", false},
                      "0000000000000000 T cudaMalloc\n0000000000000000 T __cudaLaunchKernel\n");
  add_library_listing(libraries, {"librunner.a", "the runner library", true},
                      "0000000000000000 T _ZN7cugrade13adapter_stepsEv\n"
                      "0000000000000000 T __wrap_cudaLaunchKernel\n"
                      "0000000000000000 W _ZN4dim3C1Ejjj\n"
                      "0000000000000000 V DW.ref.__gxx_personality_v0\n"
                      "0000000000000000 W _ZNSt6chrono8durationIdSt5ratioILl1ELl1EEEC2IdvEERKT_\n"
                      "0000000000000000 T _ZN11cugrade_cpu8run_gridEv\n"
                      "0000000000000000 T _ZN11cugrade_cpu14reset_poisonedEv\n");
  return libraries;
}

Symbol defined(char type, const std::string& name) { return {type, name, demangle(name)}; }
Symbol used(const std::string& name) { return {'U', name, demangle(name)}; }

}  // namespace

TEST_CASE("build::find_forbidden_symbols on real nvcc objects") {
  const LibrarySymbols libraries = sample_libraries();
  const SymbolContext context{&libraries, {}, {}};
  SUBCASE("an honest submission defines and uses nothing it may not") {
    CHECK(find_forbidden_symbols(parse_nm_output(build_sample("nm_clean_object.txt")), context).empty());
  }
  SUBCASE("an attack: interposition on libc and libstdc++, a .symver alias, dlopen, a harness namespace, main") {
    const auto violations = find_forbidden_symbols(parse_nm_output(build_sample("nm_attack_object.txt")), context);
    std::vector<std::string> names;
    for (const auto& v : violations) names.push_back((v.use ? "uses " : "defines ") + v.symbol);
    CHECK(names == std::vector<std::string>{"defines cugrade::hack",
                                            "defines std::chrono::_V2::steady_clock::now()",
                                            "defines clock_gettime@GLIBC_2.17", "uses dlopen", "uses dlsym",
                                            "defines fwrite", "defines main"});
  }
}

TEST_CASE("build::definition_refused") {
  const LibrarySymbols libraries = sample_libraries();
  const SymbolContext context{&libraries, {}, {}};
  const auto refused = [&](char type, const std::string& name) {
    return definition_refused(defined(type, name), context).has_value();
  };
  SUBCASE("the fixed table, with its reasons") {
    for (const char* name : {"main", "exit", "_exit", "abort", "clock_gettime", "gettimeofday", "time", "fwrite"})
      CHECK_MESSAGE(refused('T', name), name);
    CHECK(*definition_refused(defined('T', "clock_gettime"), context) ==
          "it would replace a clock the runner times kernels with");
    CHECK(refused('T', "__wrap_cudaLaunchKernel"));
    CHECK(refused('T', "__real_cudaLaunchKernel"));
    CHECK(refused('T', "cudaEventElapsedTime"));
    CHECK(refused('W', "cuLaunchKernel"));
    CHECK(refused('T', "cublasSgemm_v2"));
    CHECK(refused('T', "_ZN7cugrade6detail1fIiEEvi"));              // cugrade::detail::f<int>(int)
    CHECK(refused('V', "_ZTVN7cugrade6GraderE"));                   // vtable for cugrade::Grader
    CHECK(refused('T', "_ZN17cugrade_reference12matmul_tiledEPKfS1_Pfiii"));
  }
  SUBCASE("interposing on a library: strong definitions and unmangled names") {
    CHECK(refused('T', "_ZNSt6chrono3_V212steady_clock3nowEv"));   // steady_clock::now()
    CHECK(refused('T', "_Znwm"));                                   // operator new
    CHECK(refused('W', "fwrite"));                                  // weak, but a C name
    CHECK(refused('B', "index"));                                   // a variable named like libc's function
    CHECK(refused('T', "y1"));
    // A strong explicit specialisation of a template whose weak copy the runner has.
    CHECK(refused('T', "_ZNSt6chrono8durationIdSt5ratioILl1ELl1EEEC2IdvEERKT_"));
    const auto why = definition_refused(defined('T', "_ZNSt6chrono3_V212steady_clock3nowEv"), context);
    CHECK(why->find("the C++ standard library defines it too") != std::string::npos);
  }
  SUBCASE("symbol versions, reserved names, GNU unique and common symbols") {
    CHECK(refused('T', "my_clock@GLIBC_2.17"));
    CHECK(refused('T', "__gmon_start__"));
    CHECK(refused('T', "_ITM_registerTMCloneTable"));
    CHECK(refused('u', "_ZZ1fvE1x"));
    CHECK(refused('C', "buffer"));
  }
  SUBCASE("the student's own code and the headers' inline copies are allowed") {
    CHECK_FALSE(refused('T', "_Z6vecAddPKfS0_Pfi"));
    CHECK_FALSE(refused('T', "_Z10cudaHelperi"));                   // C++: mangled, cannot interpose
    CHECK_FALSE(refused('B', "cuA"));                               // a variable, not a function
    CHECK_FALSE(refused('T', "cuda_add"));
    CHECK_FALSE(refused('T', "_ZN7student4mainEv"));                // student::main()
    CHECK_FALSE(refused('T', "_Z3runRKN7cugrade4CallE"));           // uses a harness type, defines none
    CHECK_FALSE(refused('W', "_ZN4dim3C1Ejjj"));                    // weak in the runner too
    CHECK_FALSE(refused('W', "_ZNSt6chrono8durationIlSt5ratioILl1ELl1000000000EEE4zeroEv"));
    CHECK_FALSE(refused('V', "DW.ref.__gxx_personality_v0"));
    CHECK_FALSE(refused('W', "_ZN11cugrade_cpu6launchIJEEEvv"));    // the CPU shims' inline code
    CHECK(refused('T', "_ZN11cugrade_cpu8run_gridEv"));             // ... but not a strong definition
  }
  SUBCASE("without the library listing, the fixed table still holds") {
    const SymbolContext bare{nullptr, {}, {}};
    CHECK(definition_refused(defined('T', "fwrite"), bare).has_value());
    CHECK_FALSE(definition_refused(defined('T', "index"), bare).has_value());
  }
}

TEST_CASE("build::use_refused") {
  const LibrarySymbols libraries = sample_libraries();
  SymbolContext context{&libraries, {}, {}};
  const auto refused = [&](const std::string& name) { return use_refused(used(name), context).has_value(); };
  SUBCASE("what reaches past the checked libraries") {
    for (const char* name : {"dlopen", "dlsym", "dlmopen", "dlvsym", "_dl_sym", "cudaGetDriverEntryPoint",
                             "cuGetProcAddress_v2", "ptrace", "process_vm_readv", "process_vm_writev",
                             "syscall", "fork", "execve", "system", "popen", "mprotect", "__real_cudaLaunchKernel"})
      CHECK_MESSAGE(refused(name), name);
  }
  SUBCASE("libraries the assignment does not allow, unless it does") {
    CHECK(refused("cublasSgemm_v2"));
    CHECK(refused("cufftPlan1d"));
    CHECK(refused("curandCreateGenerator"));
    CHECK(refused("cudnnCreate"));
    CHECK(refused("cusparseCreate"));
    CHECK(refused("cuModuleLoad"));
    CHECK(refused("cuLaunchKernel"));
    CHECK(use_refused(used("cublasSgemm_v2"), context)->find("allowed_libraries") != std::string::npos);
    context.allowed_libraries = {"cublas", "cuda_driver"};
    CHECK_FALSE(refused("cublasSgemm_v2"));
    CHECK_FALSE(refused("cuModuleLoad"));
    CHECK(refused("cuGetProcAddress"));  // never: it hands out anything
    CHECK(refused("cufftPlan1d"));
  }
  SUBCASE("GPU memory the runner's limit cannot count, even where the driver API is allowed") {
    context.allowed_libraries = {"cuda_driver"};
    for (const char* name : {"cudaMallocArray", "cudaMalloc3DArray", "cudaMallocMipmappedArray",
                             "cudaMallocFromPoolAsync", "cudaMallocAsync_ptsz", "cudaFreeAsync_ptsz",
                             "cudaMemPoolCreate", "cudaGraphAddMemAllocNode", "cuMemAlloc_v2", "cuMemCreate",
                             "cuMemAllocManaged", "cuArrayCreate_v2", "__real_cudaMallocManaged"}) {
      CHECK_MESSAGE(refused(name), name);
      if (!std::string_view(name).starts_with("__"))
        CHECK(use_refused(used(name), context)->find("limits.gpu_memory_mb") != std::string::npos);
    }
    for (const char* name : {"cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocAsync",
                             "cudaFreeAsync", "cudaDeviceSetLimit", "cuModuleLoad"})
      CHECK_FALSE_MESSAGE(refused(name), name);
  }
  SUBCASE("the harness's own code: namespaces, and names only the runner library defines") {
    CHECK(refused("_ZN7cugrade13adapter_stepsEv"));
    CHECK(refused("_ZN17cugrade_reference12matmul_tiledEPKfS1_Pfiii"));
    CHECK(refused("__wrap_cudaLaunchKernel"));
    CHECK(refused("_ZN11cugrade_cpu8run_gridEv"));
    context.harness_api = [](const Symbol& s) { return qualified_name(s.demangled) == "cugrade_cpu::run_grid"; };
    CHECK_FALSE(refused("_ZN11cugrade_cpu8run_gridEv"));           // the CPU shims' API
    CHECK(refused("_ZN11cugrade_cpu14reset_poisonedEv"));           // the executor's internals
  }
  SUBCASE("the C and C++ libraries and the CUDA runtime") {
    for (const char* name : {"cudaMalloc", "__cudaLaunchKernel", "fwrite", "_Znwm", "memcpy", "_Unwind_Resume"})
      CHECK_MESSAGE(!refused(name), name);
  }
}

TEST_CASE("build::entry_point_symbols") {
  const auto symbols = parse_nm_output(build_sample("nm_attack_object.txt"));
  CHECK(entry_point_symbols(symbols, {"vecAdd", "if", "main_missing"}) ==
        std::vector<std::string>{"_Z6vecAddPKfS0_Pfi"});
  CHECK(entry_point_symbols({defined('b', "_ZZ6vecAddPfE7counter"), defined('V', "_ZZ6vecAddPfE7counter")},
                            {"vecAdd"})
            .empty());  // vecAdd(float*)::counter is not the function
  CHECK(entry_point_symbols({used("_Z6vecAddPKfS0_Pfi")}, {"vecAdd"}).empty());
}
