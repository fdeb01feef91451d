#include "cli/late_options.hpp"

#include "batch/submission_source.hpp"
#include "cli/cli_support.hpp"

namespace cugrade {

Result<std::optional<LatePlan>> late_plan_of(const GradeArgs& args, std::optional<std::int64_t> deadline_unix) {
  if (args.late_policy.empty() && args.extensions.empty()) return std::optional<LatePlan>{};
  if (!deadline_unix)
    return fail(std::string(args.late_policy.empty() ? "--extensions" : "--late-policy") +
                " counts from the class's deadline: give --deadline too (e.g. --deadline 2026-03-01T23:59)");
  LatePlan plan;
  plan.deadline_unix = *deadline_unix;
  if (!args.late_policy.empty()) {
    auto policy = parse_late_policy(args.late_policy);
    if (!policy) return std::unexpected(policy.error());
    plan.policy = *policy;
  }
  if (!args.extensions.empty()) {
    auto extensions = read_extensions(absolute_path(args.extensions), *deadline_unix);
    if (!extensions) return std::unexpected(extensions.error());
    plan.extensions = std::move(*extensions);
    // The class's ids as the batch will see them: a typo in the file is caught now, not after the grading.
    auto listing = list_submissions(absolute_path(args.submissions), absolute_path(args.out));
    if (!listing) return std::unexpected(listing.error());
    std::vector<std::string> students;
    for (const auto& source : listing->submissions) students.push_back(source.student);
    if (auto known = check_extension_students(plan.extensions, students); !known) return std::unexpected(known.error());
  }
  return std::optional<LatePlan>{std::move(plan)};
}

std::vector<std::string> late_words(const GradeArgs& args) {
  std::vector<std::string> words;
  if (!args.late_policy.empty()) words.insert(words.end(), {"--late-policy", args.late_policy});
  if (!args.extensions.empty()) words.insert(words.end(), {"--extensions", absolute_path(args.extensions).string()});
  return words;
}

}  // namespace cugrade
