#pragma once
// Which symbols a student's object may define and use (design.md §4, trust), by allowlist. It
// may define its entry points and its own code; a definition that would replace something of
// the runner, the C and C++ libraries or the CUDA runtime for the whole program is refused, and
// so is a use of what would reach past them (dlopen, other libraries, the driver, the harness's
// own functions). After the check the build makes every definition but the entry points private
// to the student's object (seal_command, nvcc_command.hpp), so a name the tables miss still
// cannot replace anything. One table of fixed rules, each with its reason, plus the library
// collision rule.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/library_symbols.hpp"
#include "build/nm_output.hpp"

namespace cugrade {

/// A refused definition or use.
struct SymbolViolation {
  std::string symbol;   ///< as a student reads it: demangled, "fwrite", "std::chrono::...::now()"
  std::string reason;   ///< why, and what to do instead
  bool use = false;     ///< the object uses (imports) it rather than defines it
};

/// What the check knows besides the object's own symbols.
struct SymbolContext {
  /// The link's libraries; nullptr: only the fixed table applies.
  const LibrarySymbols* libraries = nullptr;
  /// assignment.yaml's allowed_libraries (spec/libraries.hpp): their API may be used.
  std::vector<std::string> allowed_libraries;
  /// Whether a name only the runner library defines is part of the API the backend gives
  /// student code (the CPU backend's shims); unset: none is.
  std::function<bool(const Symbol&)> harness_api;
};

/// Why the object may not define `symbol` (a global definition), or nullopt.
std::optional<std::string> definition_refused(const Symbol& symbol, const SymbolContext& context);

/// Why the object may not use `symbol` (an undefined reference), or nullopt.
std::optional<std::string> use_refused(const Symbol& symbol, const SymbolContext& context);

/// The refused definitions and uses among an object's symbols, in nm's order; local symbols
/// are never refused (they cannot replace anything).
std::vector<SymbolViolation> find_forbidden_symbols(const std::vector<Symbol>& symbols,
                                                    const SymbolContext& context);

/// The global definitions of the entry points: those whose demangled name, at global scope, is
/// one of `entry_names` (interface.cuh's functions). The raw names, each once, in order.
std::vector<std::string> entry_point_symbols(const std::vector<Symbol>& symbols,
                                             const std::vector<std::string>& entry_names);

}  // namespace cugrade
