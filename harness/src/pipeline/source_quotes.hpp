#pragma once
// A message that says where the student's code went wrong ("the write is at matmul.cu:42", the
// CPU backend's out-of-bounds access) also shows that line, read from the submission's own
// files: "the write is at matmul.cu:42: `C[row * N + col] = sum;`".
#include <filesystem>
#include <map>
#include <string>

#include "report/grade_report.hpp"

namespace cugrade {

/// `text` with the quoted line (report_format's quoted_source_line) after each "is at NAME:LINE"
/// whose NAME is a key of `files` (the student's name of a file → the file to read) and whose
/// file has that line; a site already quoted, or of another file, is left as it is.
std::string with_quoted_lines(std::string text, const std::map<std::string, std::filesystem::path>& files);

/// The student's files of a build in `work_dir`, by the names messages give them: each of
/// `submission` (the student's names, in order) as staged (src/submission_<i>.cu), and the
/// student's headers staged beside them under their own names.
std::map<std::string, std::filesystem::path> staged_student_files(const std::vector<std::string>& submission,
                                                                  const std::filesystem::path& work_dir);

/// Every case message of `report` with its lines quoted, from the files staged in `work_dir`
/// (after show_student_file_names, which gives the messages the student's names).
void quote_student_lines(GradeReport& report, const std::filesystem::path& work_dir);

}  // namespace cugrade
