#pragma once
// Canvas's "Download Submissions", unzipped: no folder per student but every file loose, named by
// its student. What such a name says, and a student's loose files copied under their own names.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// One file a student handed in, loose in the submissions folder (Canvas's download).
struct LooseFile {
  std::filesystem::path path;  ///< where it lies: "smithjohn_1234_5678_matmul.cu"
  std::string name;            ///< the name the student gave it: "matmul.cu"

  /// Same path and name.
  bool operator==(const LooseFile&) const = default;
};

/// What Canvas's "Download Submissions" name of a file says: Canvas names each file
/// "<name>[_late]_<user id>_<file id>_<the file's own name>", the name being the student's
/// sortable name lower-cased, without spaces or punctuation (left out where grading is
/// anonymous), and no name holding "_<digits>_"; a text entry or a link is the page
/// "<name>[_late]_<user id>_text.html" or "..._link.html".
struct CanvasFileName {
  std::string student;  ///< "smithjohn_1234" (the name and Canvas's user id; the id alone without a name)
  bool late = false;    ///< "_late_" (or "_LATE_") before the user id
  std::string name;     ///< the file's own name: "matmul.cu"
};

/// `file_name` read as Canvas names a downloaded submission's file; nothing for any other name.
std::optional<CanvasFileName> canvas_file_name(const std::string& file_name);

/// The name a file had before Canvas renamed it, or nothing where the name shows no renaming.
/// Canvas keeps names unique within a student's submissions folder, one per course, and so renames
/// a file handed in again, or under a name an earlier assignment's file had: "<base>-<n><ext>"
/// (n from 1; a UUID after 7), the extension being the name's tail of dotted words, each but the
/// last starting with a letter ("tiles-1.cuh" was "tiles.cuh", "data-2.tar.gz" "data.tar.gz").
std::optional<std::string> canvas_name_before_rename(const std::string& name);

/// A student's loose files (Canvas's) copied into the new folder `into`, each under the name the
/// student gave it (a second file of the same name, or a name that is no plain file name, under
/// its name in the download); only regular files are read, never through a link. A header Canvas
/// renamed ("tiles-1.cuh": .cuh, .h, .hpp and their kin) is also copied under its name before the
/// renaming, where no file of the student's is called so, so that the student's
/// `#include "tiles.cuh"` finds it; any other file keeps Canvas's name (a `.cu` file is compiled
/// by any name, and an archive must stay the only one to be unpacked).
Result<bool> copy_loose_files(const std::vector<LooseFile>& files, const std::filesystem::path& into);

}  // namespace cugrade
