#pragma once
// A class's code as the similarity check reads it: each student's .cu files, found as
// `cugrade grade` finds them (batch/submission_source: folders, archives unpacked safely, an
// LMS's loose files, student ids of any bytes), one text per student.
#include <filesystem>
#include <string>
#include <vector>

#include "batch/archive.hpp"
#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// One file of a student's text.
struct CodeFile {
  std::string name;    ///< relative to the submission, printable ("src/matmul.cu")
  int first_line = 1;  ///< where it starts in the student's text
};

/// One student's .cu files, one after the other.
struct StudentCode {
  std::string student;          ///< the id, as the batch has it
  std::string text;             ///< every .cu file in name order, each ending with a line break
  std::vector<CodeFile> files;  ///< in the order of `text`
};

/// The class: students by id, and why the others are not in it.
struct ClassCode {
  std::vector<StudentCode> students;
  std::vector<std::string> left_out;  ///< "bob: the archive cannot be unpacked: ...", entries that are not submissions
};

/// Reads every submission under `submissions`, unpacking archives and copying loose files under
/// `work` (a folder of the caller's, emptied first). A student whose files cannot be read (no .cu
/// file, a damaged archive, a file past `spec`'s limits) is left out with the reason. Fails when
/// the submissions folder cannot be listed or holds no submission (saying what one is, as
/// `cugrade grade` does).
Result<ClassCode> read_class_code(const std::filesystem::path& submissions, const std::filesystem::path& work,
                                  const Spec& spec, const UnpackLimits& unpack = {});

/// The assignment's starter code: every .cu file of `template_dir`, as one text.
Result<StudentCode> read_template_code(const std::filesystem::path& template_dir);

}  // namespace cugrade
