#include "similarity/class_similarity.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/utc_time.hpp"
#include "similarity/class_code.hpp"
#include "similarity/similarity_report.hpp"

namespace cugrade {
namespace fs = std::filesystem;

Result<SimilarityWritten> write_class_similarity(ProcessRunner& processes, const Spec& spec,
                                                 const SimilarityRequest& request) {
  auto base = read_template_code(request.template_dir);
  if (!base) return fail(base.error().message);
  std::error_code ec;
  fs::create_directories(request.out, ec);
  if (ec) return fail("cannot create " + request.out.string() + ": " + ec.message());
  // No student's folder starts with '.' (batch/student_paths), so this one is nobody's.
  const fs::path work = request.out / "work" / ".similarity";
  auto code = read_class_code(request.submissions, work / "read", spec);
  if (!code) return fail(code.error().message);
  auto compared = compare_class(processes, std::move(code->students), *base, work / "sim", request.sim);
  if (!compared) return fail(compared.error().message);

  SimilarityWritten written;
  written.csv = request.out / "similarity.csv";
  written.html = request.out / "similarity.html";
  written.students = compared->students.size();
  written.pairs = compared->pairs.size();
  written.left_out = code->left_out;
  for (std::size_t i = 0; i < std::min<std::size_t>(5, compared->pairs.size()); ++i) {
    const SimilarPair& p = compared->pairs[i];
    written.top.push_back(fmt::format("{} and {}: {} %", compared->students[p.a].student, compared->students[p.b].student,
                                      p.percent()));
  }
  SimilarityPageOptions page;
  page.assignment = spec.id;
  page.subtitle = fmt::format("{} students, compared {}", written.students, utc_now_iso8601());
  page.side_by_side = request.side_by_side;
  page.left_out = code->left_out;
  if (auto ok = write_file_atomically(written.csv, similarity_csv(*compared)); !ok) return fail(ok.error().message);
  if (auto ok = write_file_atomically(written.html, render_similarity_html(*compared, page)); !ok)
    return fail(ok.error().message);
  if (!request.keep_work) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
    fs::remove(request.out / "work", ignored);  // only when empty: a batch's work/ stays
  }
  return written;
}

}  // namespace cugrade
