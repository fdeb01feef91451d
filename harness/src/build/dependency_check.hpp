#pragma once
// Which files a student's compile may read (design.md §4, trust): its own staged files in the
// work folder and the system headers (the host compiler's, the CUDA toolkit's, the CPU
// backend's shims), checked against the dependency lists the compiler (-MD) and the assembler
// (--MD) write. Those lists name every file really read, however a macro built the name.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// The folders a compile may read from.
struct ReadableFolders {
  std::filesystem::path work_dir;  ///< the build's own folder: relative names resolve here
  std::vector<std::filesystem::path> system;  ///< system header folders (absolute)

  /// Whether `file`, as a compiler or assembler names it (relative to work_dir, or absolute),
  /// lies inside work_dir or a system folder, after `..` is resolved (and, for an absolute
  /// path, symbolic links too). `<built-in>` and `<command-line>` count as inside.
  bool contains(std::string_view file) const;
};

/// The prerequisites a make-style dependency file lists (`obj.o: a.cu /usr/include/x.h \`),
/// unescaped (`\ ` is a space, `$$` a dollar, `\#` a hash), in order.
std::vector<std::string> parse_dependency_file(std::string_view text);

/// The files in `dependencies` outside `folders`, each once, in order.
std::vector<std::string> files_outside(const std::vector<std::string>& dependencies,
                                       const ReadableFolders& folders);

}  // namespace cugrade
