#pragma once
// What the libraries of a runner's link define (design.md §4, trust): the names a submission
// may not define, because its definition would replace the library's for the runner too, and
// the names its imports resolve to (a name only the harness's runner library defines is the
// harness's own code, not an API).
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cugrade {

/// One library file of a link.
struct LinkLibrary {
  std::filesystem::path file;  ///< a shared object (.so*) or an archive (.a)
  std::string shown;           ///< for messages: "the C library", "the CUDA runtime"
  bool harness = false;        ///< the runner library (the harness's code), not a system library
};

/// What the libraries define under one name.
struct LibraryDefinition {
  std::string library;    ///< the `shown` name of the first library defining it
  bool weak = true;       ///< every definition is weak or unique (an inline/template copy)
  bool in_system = false; ///< a system or CUDA library defines it
  bool in_harness = false;///< the runner library defines it
};

/// The global definitions of a link's libraries, by name without a symbol version
/// ("clock_gettime@@GLIBC_2.17" is "clock_gettime").
struct LibrarySymbols {
  std::unordered_map<std::string, LibraryDefinition> defined;
  std::vector<std::string> unreadable;  ///< libraries that could not be listed, with nm's reason

  /// The definition of `name` (a version suffix is ignored), or nullptr.
  const LibraryDefinition* find(std::string_view name) const;
};

/// `name` without its symbol version: "clock_gettime@GLIBC_2.2.5" -> "clock_gettime".
std::string_view unversioned(std::string_view name);

/// Adds one library's `nm` listing (BSD format; `nm -D --defined-only` for a shared object,
/// `nm -g --defined-only` for an archive) to `symbols`.
void add_library_listing(LibrarySymbols& symbols, const LinkLibrary& library,
                         std::string_view nm_output);

/// Lists every library with nm (trusted tools on installed files, not sandboxed), cached per
/// set of files and their modification times, and safe to call from several threads. A file
/// that does not exist is skipped; one nm cannot read is named in `unreadable`.
std::shared_ptr<const LibrarySymbols> list_library_symbols(const std::vector<LinkLibrary>& libraries);

}  // namespace cugrade
