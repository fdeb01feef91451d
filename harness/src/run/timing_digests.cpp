// Comparing two runners' digests of one timed call (timing_digests.hpp).
#include "run/timing_digests.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

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

std::size_t digest_reply_values(const TimeTask& task) {
  std::size_t count = timing_digest_values;
  for (const auto& [name, decl] : task.outputs)
    if (element_count(decl.dims) > 0) count += timing_digest_spots;
  return count;
}

bool spots_agree(const std::vector<double>& student, const std::vector<double>& reference, double atol, double rtol,
                 std::string* why) {
  for (std::size_t j = 0; j < reference.size(); ++j) {
    const double s = j < student.size() ? student[j] : NAN, r = reference[j];
    if (!std::isfinite(r)) continue;
    const double allowed = atol + rtol * std::fabs(r);
    if (std::fabs(s - r) <= allowed) continue;  // false for NaN
    if (why)
      *why = fmt::format("outputs differ from the reference's on the same inputs (an element the digest's key chose, "
                         "compared alone: {:.9g} against {:.9g}, allowed ±{:.3g})", s, r, allowed);
    return false;
  }
  return true;
}

bool replies_agree(const std::vector<double>& student, const std::vector<double>& reference, const TimeTask& task,
                   std::string* why) {
  const auto part = [](const std::vector<double>& values, std::size_t from, std::size_t to) {
    from = std::min(from, values.size());
    return std::vector<double>(values.begin() + from, values.begin() + std::max(from, std::min(to, values.size())));
  };
  constexpr std::size_t n = timing_digest_buckets, spots = timing_digest_values;
  return digests_agree(part(student, 0, n), part(reference, 0, n), part(reference, n, 2 * n), why) &&
         (!exact_tolerance(task) ||
          exact_parts_agree(part(student, 2 * n, 2 * n + 2), part(reference, 2 * n, 2 * n + 2), why)) &&
         spots_agree(part(student, spots, SIZE_MAX), part(reference, spots, SIZE_MAX), task.atol, task.rtol, why);
}

}  // namespace cugrade
