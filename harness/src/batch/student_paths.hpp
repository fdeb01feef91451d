#pragma once
// Where a student's files go under OUT. A student id is a name from the submissions folder and
// may hold any bytes but '/' and NUL (spaces, quotes, newlines, "$(...)", bytes that are not
// UTF-8, 255 of them); as a file name it is made plain first, by a stable mapping that never
// gives two students the same folder.
#include <filesystem>
#include <string>
#include <string_view>

namespace cugrade {

/// The file-name form of a student id: the id itself when it is made of letters, digits, '-',
/// '_' and '.' (not first) and is at most 64 bytes long ("alice", "s001-bob.smith"); otherwise
/// every other byte as %XX ("bob smith" → "bob%20smith", "ünal" → "%C3%BCnal"), and when that is
/// longer than 64 bytes, its first 40 bytes, '~' and 16 hex digits of the id's SHA-256. Distinct
/// ids give distinct names: kept names hold neither '%' nor '~', %-mapped ones decode back to the
/// id, and shortened ones differ in a 64-bit hash (the same for two ids: not a practical concern).
std::string student_path_name(std::string_view student);

/// OUT/students/<name>/: the reports a student may see.
std::filesystem::path student_reports_dir(const std::filesystem::path& out, std::string_view student);

/// OUT/results/<name>.json: the batch's record of the student.
std::filesystem::path student_record_file(const std::filesystem::path& out, std::string_view student);

/// OUT/work/<name>/: unpacked files and the build while the student is graded.
std::filesystem::path student_work_dir(const std::filesystem::path& out, std::string_view student);

}  // namespace cugrade
