// The symbol policy: one table of fixed rules, each with its reason, then the rules that need the
// link's libraries.
#include "build/symbol_policy.hpp"

#include <algorithm>
#include <cctype>

#include "spec/libraries.hpp"

namespace cugrade {

namespace {

/// How a rule's pattern matches a symbol.
enum class Match {
  exact,      ///< the raw name (C names), without a symbol version
  prefix,     ///< the raw name starts with it
  api,        ///< a C function whose name starts with it, then a capital letter (cudaMalloc)
  name_space  ///< the demangled qualified name starts with it ("cugrade::")
};

enum Applies : unsigned { defines = 1, uses = 2, both = 3 };

struct SymbolRule {
  Match match;
  std::string_view pattern;
  unsigned applies;
  std::string_view reason;
  bool weak_definition_allowed = false;  ///< an inline/template copy from a header is fine
};

constexpr std::string_view ends_a_case =
    "it would replace the C library's function of that name, which the runner uses to end a "
    "case and report how it ended";
constexpr std::string_view is_a_clock = "it would replace a clock the runner times kernels with";
constexpr std::string_view writes_results =
    "it would replace the C library's file output, which the runner writes its results with";
constexpr std::string_view opens_libraries =
    "it finds and opens libraries and functions at run time, past what the build checks; a "
    "submission uses only the C and C++ libraries and the CUDA runtime";
constexpr std::string_view reaches_driver =
    "it hands out the CUDA driver's functions directly, past the runtime the runner watches";
constexpr std::string_view other_processes =
    "it inspects or changes other processes (or makes any system call); a submission only "
    "computes";
constexpr std::string_view starts_programs = "it starts other programs; a submission only computes";
constexpr std::string_view uncounted_memory =
    "it takes GPU memory past the runner's count of what a submission holds (the assignment's "
    "limits.gpu_memory_mb); allocate with cudaMalloc, cudaMallocAsync, cudaMallocManaged or "
    "cudaMallocPitch";
constexpr std::string_view changes_protection =
    "it changes memory protection, which is how code patches the runner; a submission only "
    "computes";

// The fixed rules. Each is here because a definition would replace something the runner or the
// libraries rely on, or a use would reach past what the build checks.
constexpr SymbolRule fixed_rules[] = {
    {Match::exact, "main", defines,
     "the runner's main is the harness's: it reads the inputs, calls your functions and writes "
     "the outputs; remove your main (or keep it out of the submitted file)"},
    {Match::exact, "exit", defines, ends_a_case},
    {Match::exact, "_exit", defines, ends_a_case},
    {Match::exact, "_Exit", defines, ends_a_case},
    {Match::exact, "quick_exit", defines, ends_a_case},
    {Match::exact, "abort", defines, ends_a_case},
    {Match::exact, "atexit", defines, ends_a_case},
    {Match::exact, "clock_gettime", defines, is_a_clock},
    {Match::exact, "gettimeofday", defines, is_a_clock},
    {Match::exact, "time", defines, is_a_clock},
    {Match::exact, "clock", defines, is_a_clock},
    {Match::exact, "timespec_get", defines, is_a_clock},
    {Match::exact, "fwrite", defines, writes_results},
    {Match::exact, "write", defines, writes_results},
    {Match::exact, "fflush", defines, writes_results},
    {Match::exact, "fclose", defines, writes_results},
    {Match::exact, "fopen", defines, writes_results},
    {Match::exact, "rename", defines, writes_results},
    {Match::prefix, "__wrap_", defines,
     "names starting with __wrap_ are the runner's wrappers around the CUDA API (the linker's "
     "--wrap); defining one would bypass the kernel-launch record or the timed calls' kept "
     "allocations"},
    {Match::prefix, "__real_", both,
     "names starting with __real_ reach the unwrapped CUDA API through the linker's --wrap; "
     "they would bypass the kernel-launch record or the timed calls' kept allocations"},
    {Match::name_space, "cugrade::", both, "namespace cugrade belongs to the harness"},
    {Match::name_space, "cugrade_reference::", both,
     "namespace cugrade_reference belongs to the reference solution"},
    {Match::name_space, "cugrade_cpu::", defines,
     "namespace cugrade_cpu belongs to the CPU backend", true},
    {Match::api, "cuda", defines,
     "names of the form cuda<Name> belong to the CUDA runtime; defining one would replace "
     "NVIDIA's function for the harness too"},
    {Match::api, "cu", defines,
     "names of the form cu<Name> belong to the CUDA driver API; defining one would replace "
     "NVIDIA's function for the harness too"},
    {Match::api, "nvml", defines, "names of the form nvml<Name> belong to NVIDIA's NVML library"},
    {Match::exact, "dlopen", uses, opens_libraries},
    {Match::exact, "dlmopen", uses, opens_libraries},
    {Match::exact, "dlsym", both, opens_libraries},
    {Match::exact, "dlvsym", uses, opens_libraries},
    {Match::exact, "dlinfo", uses, opens_libraries},
    {Match::exact, "dladdr", uses, opens_libraries},
    {Match::exact, "dladdr1", uses, opens_libraries},
    {Match::exact, "dl_iterate_phdr", uses, opens_libraries},
    {Match::exact, "__libc_dlopen_mode", uses, opens_libraries},
    {Match::exact, "__libc_dlsym", uses, opens_libraries},
    {Match::prefix, "_dl_", uses, opens_libraries},
    {Match::exact, "cudaGetDriverEntryPoint", uses, reaches_driver},
    {Match::exact, "cudaGetDriverEntryPointByVersion", uses, reaches_driver},
    {Match::exact, "cudaGetExportTable", uses, reaches_driver},
    {Match::exact, "cuGetExportTable", uses, reaches_driver},
    {Match::prefix, "cuGetProcAddress", uses, reaches_driver},
    {Match::exact, "ptrace", uses, other_processes},
    {Match::exact, "process_vm_readv", uses, other_processes},
    {Match::exact, "process_vm_writev", uses, other_processes},
    {Match::exact, "syscall", uses, other_processes},
    {Match::exact, "fork", uses, starts_programs},
    {Match::exact, "vfork", uses, starts_programs},
    {Match::exact, "clone", uses, starts_programs},
    {Match::exact, "clone3", uses, starts_programs},
    {Match::exact, "system", uses, starts_programs},
    {Match::exact, "popen", uses, starts_programs},
    {Match::exact, "posix_spawn", uses, starts_programs},
    {Match::exact, "posix_spawnp", uses, starts_programs},
    {Match::exact, "fexecve", uses, starts_programs},
    {Match::exact, "execve", uses, starts_programs},
    {Match::exact, "execv", uses, starts_programs},
    {Match::exact, "execvp", uses, starts_programs},
    {Match::exact, "execvpe", uses, starts_programs},
    {Match::exact, "execl", uses, starts_programs},
    {Match::exact, "execlp", uses, starts_programs},
    {Match::exact, "execle", uses, starts_programs},
    {Match::exact, "execveat", uses, starts_programs},
    {Match::exact, "cudaMallocArray", uses, uncounted_memory},
    {Match::exact, "cudaMalloc3DArray", uses, uncounted_memory},
    {Match::exact, "cudaMallocMipmappedArray", uses, uncounted_memory},
    {Match::exact, "cudaMallocFromPoolAsync", uses, uncounted_memory},
    {Match::prefix, "cudaMallocFromPoolAsync_", uses, uncounted_memory},
    {Match::prefix, "cudaMallocAsync_", uses, uncounted_memory},  // the per-thread stream's, unwrapped
    {Match::prefix, "cudaFreeAsync_", uses, uncounted_memory},
    {Match::exact, "cudaMemPoolCreate", uses, uncounted_memory},
    {Match::exact, "cudaGraphAddMemAllocNode", uses, uncounted_memory},
    {Match::exact, "cudaGraphAddMemFreeNode", uses, uncounted_memory},
    // The driver API's, where an assignment allows it (allowed_libraries: [cuda_driver]).
    {Match::prefix, "cuMemAlloc", uses, uncounted_memory},
    {Match::prefix, "cuMemCreate", uses, uncounted_memory},
    {Match::prefix, "cuMemPoolCreate", uses, uncounted_memory},
    {Match::prefix, "cuArrayCreate", uses, uncounted_memory},
    {Match::prefix, "cuArray3DCreate", uses, uncounted_memory},
    {Match::prefix, "cuMipmappedArrayCreate", uses, uncounted_memory},
    {Match::prefix, "cuGraphAddMemAllocNode", uses, uncounted_memory},
    {Match::exact, "mprotect", uses, changes_protection},
    {Match::exact, "pkey_mprotect", uses, changes_protection},
};

// The rules that need more than the name, listed here with their reasons (applied in
// definition_refused and use_refused).
constexpr std::string_view versioned_reason =
    "a symbol version (.symver) makes your function stand in for a library's; rename it";
constexpr std::string_view reserved_reason =
    "names starting with __ or with _ and a capital letter are reserved for the compiler and its "
    "libraries (program startup calls some of them); rename it";
constexpr std::string_view unsealable_reason =
    "a GNU unique or common symbol (the compiler makes neither with cugrade's flags; assembler "
    "directives do) cannot be made private to your code; use an ordinary definition";
constexpr std::string_view harness_only_reason =
    "only the runner library (the harness's own code) defines it: it is not an API for "
    "submissions";

bool is_function(char type) { return type == 'T' || type == 'W' || type == 'i'; }

bool is_mangled(std::string_view name) { return name.starts_with("_Z"); }

bool matches(const SymbolRule& rule, const Symbol& symbol) {
  const std::string_view name = unversioned(symbol.name);
  switch (rule.match) {
    case Match::exact:
      return name == rule.pattern;
    case Match::prefix:
      return !is_mangled(name) && name.starts_with(rule.pattern);
    case Match::api:
      return !is_mangled(name) && (is_function(symbol.type) || !symbol.defined()) &&
             name.size() > rule.pattern.size() && name.starts_with(rule.pattern) &&
             std::isupper(static_cast<unsigned char>(name[rule.pattern.size()]));
    case Match::name_space:
      return qualified_name(symbol.demangled).starts_with(rule.pattern);
  }
  return false;
}

/// "fwrite", or "the weak copy of std::...": how a message names a library's definition.
std::string library_clash(const LibraryDefinition& definition) {
  if (definition.in_harness && !definition.in_system)
    return "the runner (the harness's own code) defines it too";
  return definition.library + " defines it too";
}

}  // namespace

std::optional<std::string> definition_refused(const Symbol& symbol, const SymbolContext& context) {
  for (const auto& rule : fixed_rules) {
    if (!(rule.applies & defines) || !matches(rule, symbol)) continue;
    if (rule.weak_definition_allowed && symbol.weak()) continue;
    return std::string(rule.reason);
  }
  if (symbol.type == 'u' || symbol.type == 'C') return std::string(unsealable_reason);
  const std::string_view name = unversioned(symbol.name);
  for (const auto& library : optional_libraries()) {
    if (!is_mangled(name) && is_function(symbol.type) && in_library_api(library, name))
      return "names of this form belong to " + std::string(library.what) +
             "; defining one would replace its function";
  }
  if (symbol.name.find('@') != std::string::npos) return std::string(versioned_reason);
  const bool reserved = !is_mangled(name) && name.size() > 1 && name[0] == '_' &&
                        (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1])));
  if (reserved) return std::string(reserved_reason);
  if (context.libraries) {
    if (const LibraryDefinition* found = context.libraries->find(name)) {
      // An inline function's or a template's copy, weak here and in the library, is the same
      // code the library has (the one-definition rule); the seal keeps it private anyway.
      const bool odr_copy = symbol.weak() && found->weak &&
                            (is_mangled(name) || name.starts_with("DW.ref."));
      if (!odr_copy)
        return "it would replace the library's definition for the whole program, the runner "
               "included (" + library_clash(*found) + "); rename yours or make it static";
    }
  }
  return std::nullopt;
}

std::optional<std::string> use_refused(const Symbol& symbol, const SymbolContext& context) {
  for (const auto& rule : fixed_rules) {
    if ((rule.applies & uses) && matches(rule, symbol)) return std::string(rule.reason);
  }
  const std::string_view name = unversioned(symbol.name);
  for (const auto& library : optional_libraries()) {
    if (is_mangled(name) || !in_library_api(library, name)) continue;
    const bool allowed = std::find(context.allowed_libraries.begin(), context.allowed_libraries.end(),
                                   library.name) != context.allowed_libraries.end();
    if (!allowed)
      return std::string(library.what) +
             " is not allowed in this assignment (assignment.yaml's allowed_libraries does not "
             "list " + std::string(library.name) + "): write the code yourself";
  }
  const bool harness_namespace = qualified_name(symbol.demangled).starts_with("cugrade_cpu::");
  const bool api = context.harness_api && context.harness_api(symbol);
  if (harness_namespace && !api) return "namespace cugrade_cpu belongs to the CPU backend";
  if (context.libraries) {
    if (const LibraryDefinition* found = context.libraries->find(name);
        found && found->in_harness && !found->in_system && !api)
      return std::string(harness_only_reason);
  }
  return std::nullopt;
}

std::vector<SymbolViolation> find_forbidden_symbols(const std::vector<Symbol>& symbols,
                                                    const SymbolContext& context) {
  std::vector<SymbolViolation> violations;
  for (const auto& symbol : symbols) {
    if (!symbol.global()) continue;
    const bool use = !symbol.defined();
    if (auto reason = use ? use_refused(symbol, context) : definition_refused(symbol, context))
      violations.push_back({symbol.demangled, *reason, use});
  }
  return violations;
}

std::vector<std::string> entry_point_symbols(const std::vector<Symbol>& symbols,
                                             const std::vector<std::string>& entry_names) {
  std::vector<std::string> kept;
  for (const auto& symbol : symbols) {
    if (!symbol.defined() || !symbol.global()) continue;
    const std::string& d = symbol.demangled;
    // A function at global scope: "vecAdd(float const*, ...)", not "vecAdd(float*)::counter".
    const std::string name = d.ends_with(")") && d.find('(') != std::string::npos
                                 ? qualified_name(d)
                                 : std::string(unversioned(symbol.name));
    if (name.find("::") != std::string::npos) continue;
    if (std::find(entry_names.begin(), entry_names.end(), name) == entry_names.end()) continue;
    if (std::find(kept.begin(), kept.end(), symbol.name) == kept.end()) kept.push_back(symbol.name);
  }
  return kept;
}

}  // namespace cugrade
