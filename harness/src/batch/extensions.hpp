#pragma once
// `--extensions FILE.csv`: students given a deadline of their own. The file is the course's:
// a header naming the columns student and deadline (others, e.g. a reason, are kept out of the
// way), then one row per student, an id with a comma quoted as spreadsheets write it.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// Each student's own deadline (seconds since the epoch), replacing the class's for them alone.
struct Extensions {
  std::map<std::string, std::int64_t> deadlines;  ///< student id → deadline
  std::string shown;                              ///< the file as messages name it
};

/// Reads extensions from CSV `text` (named `shown` in messages): RFC 4180 fields, a header with
/// the columns student and deadline (any case, any order, more columns allowed), each deadline in
/// the forms --deadline takes (batch/deadline.hpp). An error names the file and line: a missing
/// column, an empty id, a date that is not one, a student twice, or a deadline before
/// `class_deadline_unix` (an extension that shortens is a typo, not an extension).
Result<Extensions> parse_extensions(std::string_view text, const std::string& shown, std::int64_t class_deadline_unix);

/// parse_extensions() of the regular file at `path` (at most 4 MiB).
Result<Extensions> read_extensions(const std::filesystem::path& path, std::int64_t class_deadline_unix);

/// An error naming every student of `extensions` who has no submission among `students` (each
/// with the nearest id, so a typo is caught before a class is graded); true when all have one.
Result<bool> check_extension_students(const Extensions& extensions, const std::vector<std::string>& students);

}  // namespace cugrade
