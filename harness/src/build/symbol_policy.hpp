#pragma once
// Which symbols a student's object may not define (design.md §4, trust): the runner's main,
// timing and CUDA API belong to the harness, and a definition in the student's object would
// silently replace them at link time.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// One symbol an object defines, from `nm --defined-only -C`.
struct DefinedSymbol {
  char type = '?';   ///< nm's letter: T text, D data, B bss, W weak, ...; lower case = local
  std::string name;  ///< demangled: "matmul_tiled(float const*, ...)", "main"
};

/// A refused definition.
struct SymbolViolation {
  std::string symbol;  ///< as nm shows it
  std::string reason;  ///< why it is refused, for the student
};

/// Parses `nm --defined-only -C` output ("0000000000000010 T main"); other lines are skipped.
std::vector<DefinedSymbol> parse_defined_symbols(std::string_view nm_output);

/// Why the symbol may not be defined by a student's object, or nullopt when it may.
std::optional<std::string> forbidden_reason(const DefinedSymbol& symbol);

/// The refused definitions among the symbols, in order (empty when the object is acceptable).
std::vector<SymbolViolation> find_forbidden_symbols(const std::vector<DefinedSymbol>& symbols);

}  // namespace cugrade
