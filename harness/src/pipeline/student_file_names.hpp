#pragma once
// The build stages a submission's files as submission_<i>.cu (build/staging.hpp), so what the
// runner and the tools around it say names those files: "cudaMemcpy (submission_0.cu:29)
// failed", "__shared__ tile in transpose, submission_0.cu:14". A student knows their files by
// their own names.
#include "report/grade_report.hpp"

namespace cugrade {

/// `text` with each staged file name ("submission_0.cu", "src/submission_0.cu") of a file of
/// `names` replaced by that name ("vecadd.cu"); other text is left as it is.
std::string with_student_file_names(std::string text, const std::vector<std::string>& names);

/// Every message of `report` (cases, performance and their diagnoses, notes) with the student's
/// file names (report.submission) in place of the staged ones.
void show_student_file_names(GradeReport& report);

}  // namespace cugrade
