// Comparing two runners' digests of one timed call (timing_digests.hpp).
#include "run/timing_digests.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cugrade {

bool exact_tolerance(const TimeTask& task) { return task.atol == 0.0 && task.rtol == 0.0; }

bool exact_parts_agree(const std::vector<double>& student, const std::vector<double>& reference, std::string* why) {
  if (student == reference) return true;
  if (why) *why = "outputs differ from the reference's on the same inputs (their exact digest: some element is not the reference's)";
  return false;
}

bool digests_agree(const std::vector<double>& student, const std::vector<double>& reference,
                   const std::vector<double>& bounds, std::string* why) {
  for (std::size_t b = 0; b < reference.size(); ++b) {
    const double s = b < student.size() ? student[b] : NAN, r = reference[b];
    // Summing the same terms in another order moves a double sum by far less than 1e-9 of it.
    const double allowed = (b < bounds.size() ? bounds[b] : 0.0) + 1e-9 * (std::fabs(s) + std::fabs(r));
    if (std::isfinite(s) && std::fabs(s - r) <= allowed) continue;
    if (why)
      *why = std::isfinite(s) ? fmt::format("outputs differ from the reference's on the same inputs (part {} of the "
                                            "digest: {:.6g} against {:.6g}, allowed ±{:.3g})", b, s, r, allowed)
                              : "outputs hold NaN or Inf (never written, or not finished?)";
    return false;
  }
  return true;
}

bool replies_agree(const std::vector<double>& student, const std::vector<double>& reference, bool exact,
                   std::string* why) {
  const auto part = [](const std::vector<double>& values, std::size_t from, std::size_t to) {
    from = std::min(from, values.size());
    return std::vector<double>(values.begin() + from, values.begin() + std::max(from, std::min(to, values.size())));
  };
  constexpr std::size_t n = timing_digest_buckets;
  return digests_agree(part(student, 0, n), part(reference, 0, n), part(reference, n, 2 * n), why) &&
         (!exact || exact_parts_agree(part(student, 2 * n, 2 * n + 2), part(reference, 2 * n, 2 * n + 2), why));
}

}  // namespace cugrade
