#pragma once
// Reading nm's listing of an object or a library (BSD format, names not demangled): the raw
// names are what the linker matches, the demangled ones what a student reads.
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// One symbol of an nm listing.
struct Symbol {
  char type = '?';        ///< nm's letter: T text, D data, B bss, W/V weak, u unique, U undefined, ...
  std::string name;       ///< as the linker sees it: "_Z6vecAddPKfS0_Pfi", "clock_gettime@GLIBC_2.17"
  std::string demangled;  ///< for people: "vecAdd(float const*, float const*, float*, int)"

  /// Defined here (not U, w or v).
  bool defined() const;
  /// Visible to the linker outside its object: nm's upper-case letters, 'u', and weak ones.
  bool global() const;
  /// A weak definition or a unique one (an inline function's or a template's copy: W, V, u).
  bool weak() const;
};

/// The symbols of `nm` output ("0000000000000010 T main", "                 U cudaMalloc");
/// headers of archive members and blank lines are skipped.
std::vector<Symbol> parse_nm_output(std::string_view output);

/// The demangled form of a C++ name (a version suffix kept), or the name itself.
std::string demangle(std::string_view name);

/// "vecAdd(float const*, ...)" -> "vecAdd"; "void cugrade::f<int>(int)" -> "cugrade::f";
/// "vtable for cugrade::X" -> "cugrade::X": the qualified name of a demangled symbol.
std::string qualified_name(std::string_view demangled);

}  // namespace cugrade
