#include "similarity/class_code.hpp"

#include <algorithm>

#include "batch/canvas_download.hpp"
#include "batch/student_paths.hpp"
#include "batch/submission_source.hpp"
#include "core/printable.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// `files` (under `root`) read one after the other into one text.
Result<StudentCode> concatenate(const std::string& student, const fs::path& root, const std::vector<fs::path>& files,
                                std::uint64_t max_file_bytes) {
  StudentCode code{student, "", {}};
  int line = 1;
  for (const fs::path& file : files) {
    const std::string shown = printable(file.lexically_relative(root).string());
    auto text = read_regular_file(file, shown, max_file_bytes);
    if (!text) return fail(text.error().message);
    if (!text->empty() && text->back() != '\n') *text += '\n';
    code.files.push_back({shown, line});
    line += static_cast<int>(std::count(text->begin(), text->end(), '\n'));
    code.text += *text;
  }
  return code;
}

}  // namespace

Result<ClassCode> read_class_code(const fs::path& submissions, const fs::path& work, const Spec& spec,
                                  const UnpackLimits& unpack) {
  auto listing = list_submissions(submissions);
  if (!listing) return fail(listing.error().message);
  if (listing->submissions.empty()) return fail(no_submission_message(submissions, *listing, spec.id));
  const Limits& limits = spec.limits;
  ClassCode code;
  code.left_out = listing->skipped;
  std::error_code ec;
  fs::remove_all(work, ec);
  for (const SubmissionSource& source : listing->submissions) {
    const fs::path student_work = work / student_path_name(source.student);
    fs::create_directories(student_work, ec);
    if (ec) return fail("cannot create " + student_work.string() + ": " + ec.message());
    auto root = submission_root(source, student_work, unpack);
    auto files = root ? find_submission_files(root->folder, limits) : Result<std::vector<fs::path>>(fail(root.error().message));
    auto text = files ? concatenate(source.student, root->folder, *files, limits.submission_file_bytes)
                      : Result<StudentCode>(fail(files.error().message));
    if (text) code.students.push_back(std::move(*text));
    else code.left_out.push_back(printable(source.student) + ": " + text.error().message);
  }
  return code;
}

Result<StudentCode> read_template_code(const fs::path& template_dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(template_dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".cu") files.push_back(entry.path());
  if (ec) return fail("cannot read the template folder " + template_dir.string() + ": " + ec.message());
  if (files.empty()) return fail("the template folder " + template_dir.string() + " holds no .cu file");
  std::sort(files.begin(), files.end());
  return concatenate("template", template_dir, files, std::uint64_t{16} << 20);
}

}  // namespace cugrade
