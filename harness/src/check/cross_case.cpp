#include "check/cross_case.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "check/index_evidence.hpp"
#include "check/pattern.hpp"

namespace cugrade {
namespace {

using Line = std::optional<std::string>;

/// A case reduced to what the patterns look at.
struct Seen {
  const Params* params;
  bool failed;
  bool grid_large_enough = false;  ///< failed, and an output's pattern says its grid had a thread for every element
  bool explained = false;          ///< failed, and named: a grader's mistake model, or its wrong index
};

// Multiples tried, largest first: when several fit the evidence (vecadd's sizes that are not
// multiples of its block of 256 are not multiples of 32 either), the largest one is the real
// block or tile, and naming 32 where the block is 256 would send the student to the wrong number.
// A smaller one is named only when a size that is a multiple of it but not of the larger passed.
constexpr std::int64_t kMultiples[] = {256, 128, 64, 32, 16, 8, 4};

/// Same params, different outcomes: the data or the timing decides, not the size.
Line differs_at_same_size(const std::vector<Seen>& seen) {
  for (std::size_t a = 0; a < seen.size(); ++a)
    for (std::size_t b = a + 1; b < seen.size(); ++b)
      if (*seen[a].params == *seen[b].params && seen[a].failed != seen[b].failed)
        return fmt::format("wrong at some seeds but right at others of the same size ({}): the "
                           "result depends on the input values, not only on the size",
                           params_to_string(*seen[a].params));
  return std::nullopt;
}

/// True when, for every case, failing is the same as `predicate`.
template <class Predicate>
bool fails_exactly_when(const std::vector<Seen>& seen, Predicate predicate) {
  return std::all_of(seen.begin(), seen.end(),
                     [&](const Seen& s) { return s.failed == predicate(*s.params); });
}

Line not_a_multiple(const std::vector<Seen>& seen) {
  // Two passes, each largest multiple first: a rule over all parameters at any multiple comes
  // before a rule about one parameter (which, with fewer sizes to explain, fits more by chance).
  for (std::int64_t m : kMultiples) {
    auto off = [m](std::int64_t v) { return v % m != 0; };
    const bool any_param_off = fails_exactly_when(seen, [&](const Params& p) {
      return std::any_of(p.begin(), p.end(), [&](const auto& kv) { return off(kv.second); });
    });
    if (!any_param_off) continue;
    // Only one parameter is ever off the multiple: the evidence points at it by name.
    std::set<std::string> off_names;
    for (const auto& s : seen)
      for (const auto& [name, value] : *s.params)
        if (off(value)) off_names.insert(name);
    if (off_names.size() == 1) return fmt::format("wrong only when {} is not a multiple of {}", *off_names.begin(), m);
    return fmt::format("wrong only at sizes that are not a multiple of {}", m);
  }
  std::set<std::string> names;
  for (const auto& s : seen)
    for (const auto& kv : *s.params) names.insert(kv.first);
  for (std::int64_t m : kMultiples)
    for (const auto& name : names) {
      const bool holds = fails_exactly_when(seen, [&](const Params& p) {
        const auto it = p.find(name);
        return it != p.end() && it->second % m != 0;
      });
      if (holds) return fmt::format("wrong only when {} is not a multiple of {}", name, m);
    }
  return std::nullopt;
}

double size_of(const Params& params) {
  double n = 1.0;
  for (const auto& kv : params) n *= static_cast<double>(kv.second);
  return n;
}

/// Every failing case is larger (or every one smaller) than every passing case, and they are
/// no more than half of the cases.
Line by_size(const std::vector<Seen>& seen, bool results_change_between_runs) {
  const Seen* smallest_fail = nullptr;
  const Seen* largest_fail = nullptr;
  double max_pass = -1.0, min_pass = -1.0;
  // Only a minority of failures is a pattern: "all but the smallest case fail" says nothing.
  const auto failures = std::count_if(seen.begin(), seen.end(), [](const Seen& s) { return s.failed; });
  if (2 * static_cast<std::size_t>(failures) > seen.size()) return std::nullopt;
  for (const auto& s : seen) {
    const double n = size_of(*s.params);
    if (s.failed) {
      if (!smallest_fail || n < size_of(*smallest_fail->params)) smallest_fail = &s;
      if (!largest_fail || n > size_of(*largest_fail->params)) largest_fail = &s;
    } else {
      max_pass = std::max(max_pass, n);
      min_pass = min_pass < 0 ? n : std::min(min_pass, n);
    }
  }
  // A grid each failing case's evidence says was large enough is not asked about again.
  const bool grids_large_enough =
      std::all_of(seen.begin(), seen.end(), [](const Seen& s) { return !s.failed || s.grid_large_enough; });
  // Every failing case already named (a mistake model, or its wrong index): a guess about the grid
  // or an overflow would only contradict it.
  const bool all_explained =
      std::all_of(seen.begin(), seen.end(), [](const Seen& s) { return !s.failed || s.explained; });
  if (size_of(*smallest_fail->params) > max_pass && results_change_between_runs)
    return fmt::format("wrong only at the largest sizes ({} and up), and results change between runs of the same "
                       "inputs (each case says why)",
                       params_to_string(*smallest_fail->params));
  if (size_of(*smallest_fail->params) > max_pass && grids_large_enough && !all_explained)
    return fmt::format("wrong only at the largest sizes ({} and up), though each launch had a thread for every "
                       "element: does an index overflow there?",
                       params_to_string(*smallest_fail->params));
  // An int overflows only past 2^31: the question is asked only where the sizes reach that far.
  if (size_of(*smallest_fail->params) > max_pass && !all_explained)
    return fmt::format("wrong only at the largest sizes ({} and up): does the grid cover the whole input{}?",
                       params_to_string(*smallest_fail->params),
                       size_of(*smallest_fail->params) >= 2147483648.0 ? ", and do the indices fit in an int" : "");
  if (size_of(*largest_fail->params) < min_pass)
    return fmt::format("wrong only at the smallest sizes ({} and below)",
                       params_to_string(*largest_fail->params));
  return std::nullopt;
}

}  // namespace

std::string cross_case_pattern(const std::vector<CaseResult>& cases_of_one_step, bool results_change_between_runs) {
  std::vector<Seen> seen;
  for (const auto& c : cases_of_one_step) {
    if (!is_student_outcome(c.outcome)) continue;
    const auto says = [&c](std::string_view words) {
      return std::any_of(c.comparisons.begin(), c.comparisons.end(),
                         [words](const Comparison& o) { return o.pattern.find(words) != std::string::npos; });
    };
    const bool failed = c.outcome != Outcome::passed;
    const bool named = c.outcome == Outcome::wrong_answer && (!c.message.empty() || says(index_is_wrong));
    seen.push_back(Seen{&c.params, failed, says(grid_was_large_enough), failed && named});
  }
  const bool any_failed = std::any_of(seen.begin(), seen.end(), [](const Seen& s) { return s.failed; });
  const bool any_passed = std::any_of(seen.begin(), seen.end(), [](const Seen& s) { return !s.failed; });
  if (!any_failed || !any_passed) return "";
  if (auto line = differs_at_same_size(seen)) return *line;
  if (auto line = not_a_multiple(seen)) return *line;
  if (auto line = by_size(seen, results_change_between_runs)) return *line;
  return "";
}

}  // namespace cugrade
