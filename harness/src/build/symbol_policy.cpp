// The symbol policy: one table of refused names, each with its reason.
#include "build/symbol_policy.hpp"

#include <cctype>

namespace cugrade {

namespace {

/// A name refused outright, and why.
struct ReservedName {
  std::string_view name;
  std::string_view reason;
};

// The reserved names. Each is here because a student's definition would replace the harness's
// (or libc's) at link time and could fake a result or a time.
constexpr ReservedName reserved_names[] = {
    {"main",
     "the runner's main is the harness's: it reads the inputs, calls your functions and "
     "writes the outputs; remove your main (or keep it out of the submitted file)"},
    {"exit",
     "it would replace the C library's exit, which the runner uses to report how a case "
     "ended"},
    {"_exit", "it would replace the C library's _exit, which the runner uses to end a case"},
    {"abort",
     "it would replace the C library's abort, which turns a failed check into a crash "
     "report"},
    {"clock_gettime", "it would replace the clock the runner times kernels with"},
    {"gettimeofday", "it would replace a clock the runner may time with"},
    {"time", "it would replace the C library's clock"},
    {"dlsym", "it would let your code look up and replace the harness's functions at run time"},
};

// Reserved prefixes of C (unmangled) names, and why.
constexpr ReservedName reserved_prefixes[] = {
    {"__wrap_",
     "names starting with __wrap_ are the runner's wrappers around the CUDA API "
     "(the linker's --wrap); defining one would bypass the kernel-launch record"},
    {"__real_",
     "names starting with __real_ reach the unwrapped CUDA API through the linker's "
     "--wrap; defining one would bypass the kernel-launch record"},
};

// Reserved namespaces (a definition there could replace an inline or template function of the
// harness or of the reference solution, which the linker merges with ours).
constexpr ReservedName reserved_namespaces[] = {
    {"cugrade::", "namespace cugrade belongs to the harness"},
    {"cugrade_reference::", "namespace cugrade_reference belongs to the reference solution"},
};

/// A global (link-visible) symbol: nm's upper-case letters, plus 'u' (GNU unique global).
bool is_global(char type) { return std::isupper(static_cast<unsigned char>(type)) || type == 'u'; }

/// A function: text, weak (functions show as W), or an indirect function.
bool is_function(char type) { return type == 'T' || type == 'W' || type == 'i'; }

/// The qualified name without return type, template arguments or parameters:
/// "void cugrade::f<int>(int)" -> "cugrade::f"; "vtable for cugrade::X" -> "cugrade::X".
std::string qualified_name(std::string_view demangled) {
  std::string head;
  int depth = 0;
  for (char c : demangled) {
    if (c == '<')
      ++depth;
    else if (c == '>' && depth > 0)
      --depth;
    else if (depth == 0 && c == '(')
      break;
    else if (depth == 0)
      head += c;
  }
  const auto space = head.rfind(' ');
  return space == std::string::npos ? head : head.substr(space + 1);
}

}  // namespace

std::vector<DefinedSymbol> parse_defined_symbols(std::string_view nm_output) {
  std::vector<DefinedSymbol> symbols;
  while (!nm_output.empty()) {
    const auto end = nm_output.find('\n');
    std::string_view line = nm_output.substr(0, end);
    nm_output = end == std::string_view::npos ? std::string_view{} : nm_output.substr(end + 1);
    // "<address> <type> <name>"; the name may contain spaces ("vecadd(float const*, int)").
    const auto first = line.find(' ');
    if (first == std::string_view::npos || line.size() < first + 4 || line[first + 2] != ' ') {
      continue;
    }
    symbols.push_back(DefinedSymbol{line[first + 1], std::string(line.substr(first + 3))});
  }
  return symbols;
}

std::optional<std::string> forbidden_reason(const DefinedSymbol& symbol) {
  // A local symbol (static function, anonymous namespace) cannot replace anything at link time.
  if (!is_global(symbol.type)) return std::nullopt;
  const std::string& name = symbol.name;
  for (const auto& reserved : reserved_names) {
    if (name == reserved.name) return std::string(reserved.reason);
  }
  for (const auto& reserved : reserved_prefixes) {
    if (name.starts_with(reserved.name)) return std::string(reserved.reason);
  }
  const std::string qualified = qualified_name(name);
  for (const auto& reserved : reserved_namespaces) {
    if (qualified.starts_with(reserved.name)) return std::string(reserved.reason);
  }
  // The CUDA runtime (cudaMalloc, cudaEventRecord) and driver API (cuLaunchKernel) are C
  // functions: a C function of the same name would interpose on them, and could fake a timing
  // or a launch. C++ functions (with parameters in the demangled name) are mangled differently
  // and cannot collide, so `cudaHelper(int)` stays allowed, as do variables like `cuA`.
  const bool c_function = is_function(symbol.type) && name.find('(') == std::string::npos &&
                          name.find("::") == std::string::npos;
  const auto upper_at = [&](std::size_t i) {
    return name.size() > i && std::isupper(static_cast<unsigned char>(name[i]));
  };
  if (c_function &&
      ((name.starts_with("cuda") && upper_at(4)) || (name.starts_with("cu") && upper_at(2)))) {
    return "names of the form cuda<Name> and cu<Name> belong to the CUDA runtime and driver API; "
           "defining one would replace NVIDIA's function for the harness too";
  }
  return std::nullopt;
}

std::vector<SymbolViolation> find_forbidden_symbols(const std::vector<DefinedSymbol>& symbols) {
  std::vector<SymbolViolation> violations;
  for (const auto& symbol : symbols) {
    if (auto reason = forbidden_reason(symbol)) violations.push_back({symbol.name, *reason});
  }
  return violations;
}

}  // namespace cugrade
