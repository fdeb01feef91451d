#pragma once
// The submissions of a class: a folder holding one entry per student, a folder or a .zip /
// .tar.gz / .tgz / .tar archive, the student id being the entry's name (without the extension);
// or an LMS's download of loose files named by their students (Canvas's, Blackboard's).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/archive.hpp"
#include "batch/blackboard_download.hpp"
#include "batch/canvas_download.hpp"
#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// How a student handed in. tar: .tar, .tar.gz or .tgz; canvas: loose files named as Canvas's
/// "Download Submissions" names them (canvas_file_name), a student's files side by side;
/// blackboard: loose files named as Blackboard's "Assignment File Download" names them
/// (blackboard_file_name), a student's last attempt.
enum class SourceKind { folder, zip, tar, canvas, blackboard };

/// One student's submission as found in the submissions folder.
struct SubmissionSource {
  std::string student;          ///< "alice": the folder's name, the archive's without extension, Canvas's "smithjohn_1234", Blackboard's user name
  std::filesystem::path path;   ///< the folder or archive; Canvas's and Blackboard's: the student's first file
  SourceKind kind = SourceKind::folder;
  std::vector<LooseFile> files;  ///< Canvas's and Blackboard's: every file of the student, by name
  bool late = false;             ///< Canvas's: its names mark the submission late (after Canvas's due date)
  std::string attempt;           ///< Blackboard's: the attempt's time in its names ("2026-11-28-10-00-00")

  /// Same student, path, kind, files, mark and attempt.
  bool operator==(const SubmissionSource&) const = default;
};

/// What the submissions folder holds: the submissions by student id, and one line for each
/// entry that is not a submission (or a second submission of the same student) and was skipped.
struct SubmissionListing {
  std::vector<SubmissionSource> submissions;  ///< sorted by student id
  std::vector<std::string> skipped;           ///< "notes.txt: not a folder or a .zip/.tar.gz archive"
  /// Loose files named as an LMS's download names them, skipped because DIR holds something else
  /// too (a download is read as Canvas's or Blackboard's only where nothing else is there), whose
  /// download ("Canvas's"), and the first such other entry, printable ("README.txt", "extracted/").
  std::size_t download_named_skipped = 0;
  std::string download;
  std::string not_download;
};

/// Lists `dir`: each sub-folder and archive is one student's, and loose files named as Canvas's
/// download names them are their student's together (canvas_file_name), as are those of a
/// student's last attempt named as Blackboard's names them (blackboard_file_name; the attempt's
/// text file is not one of them, and each earlier attempt is skipped with a line saying so),
/// where DIR holds nothing else; hidden entries are ignored. Two
/// entries with the same student id ("alice/" and "alice.zip") are both skipped with a message,
/// since guessing which one counts would be wrong either way. The entry that is `out` (the batch's
/// output folder, when the TA put it among the submissions) is skipped as such, and counts for
/// nothing else. Fails when `dir` is unreadable.
Result<SubmissionListing> list_submissions(const std::filesystem::path& dir, const std::filesystem::path& out = {});

/// Why a batch found no submission in `dir`, where list_submissions found `listing`: what a
/// submission is and, where `dir` holds files named as Canvas's or Blackboard's download names them
/// beside something else, that the rest keeps it from being read as that download; where it holds .cu files
/// itself (one student's folder given as the class's), that `cugrade check <assignment> -s <dir>`
/// grades it.
std::string no_submission_message(const std::filesystem::path& dir, const SubmissionListing& listing,
                                  const std::string& assignment);

/// The .cu files of an unpacked or folder submission, as `cugrade check` takes a folder (its .cu
/// files in name order); a folder holding no .cu file but a single sub-folder (how archives are
/// usually made: alice.zip → alice/matmul.cu; Gradescope's submission_metadata.json beside it
/// does not count) is looked into, a few levels deep; links are
/// never followed. The error says what the folder holds instead, or which file is not a regular
/// file or is past `limits` (submission_files(), file names relative to `root`).
Result<std::vector<std::filesystem::path>> find_submission_files(const std::filesystem::path& root,
                                                                 const Limits& limits = {});

/// The archive (.zip, .tar.gz, .tgz, .tar, a regular file) a student's folder holds instead of
/// .cu files, where it holds nothing else but lone wrapper folders, hidden entries, __MACOSX and
/// Gradescope's metadata: how an LMS's download of every submission hands in an uploaded archive
/// (Moodle: a folder per student holding what they uploaded). Nothing for any other folder.
std::optional<std::filesystem::path> lone_archive(const std::filesystem::path& folder);

/// A submission as a folder of its files, and how it became one.
struct SubmissionRoot {
  std::filesystem::path folder;
  bool from_archive = false;          ///< unpacked from an archive (its entries' times are its evidence)
  std::int64_t newest_file_unix = 0;  ///< the archive's newest entry; 0 where none or not an archive
};

/// Where `source`'s files lie as a folder: an LMS attempt's loose files copied to `work`/handed-in
/// under their own names, an archive (or a folder holding only one) unpacked to `work`/files.
/// Fails, in words for the student, when an attempt holds no file or an archive cannot be unpacked.
Result<SubmissionRoot> submission_root(const SubmissionSource& source, const std::filesystem::path& work,
                                       const UnpackLimits& unpack);

}  // namespace cugrade
