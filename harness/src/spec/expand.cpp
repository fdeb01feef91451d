// expand_cases (declared in spec_loader.hpp): the concrete cases a spec asks for.
#include <algorithm>

#include "core/course_secret.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {

std::vector<Case> expand_cases(const Spec& spec, const std::optional<CourseSecret>& course_secret) {
  std::vector<Case> cases;
  std::map<std::string, int> hidden_count;  // per step: hidden cases are numbered, not described
  for (const auto& group : spec.cases) {
    const bool hidden = group.visibility == Visibility::hidden;
    if (hidden && !course_secret) continue;
    // Steps run in the order the spec declares them, whatever order the group lists them in.
    for (const auto& step : spec.steps) {
      if (!group.steps.empty() &&
          std::find(group.steps.begin(), group.steps.end(), step.name) == group.steps.end())
        continue;
      for (const auto& size : group.sizes) {
        for (const std::uint64_t seed : group.seeds) {
          const std::string shown = params_to_string(size);
          Case c{.id = step.name + "/" + shown + "/seed=" + std::to_string(seed),
                 .step = step.name,
                 .params = size,
                 .seed = seed,
                 .points = group.points,
                 .visibility = group.visibility,
                 .sanitize = group.sanitize};
          if (hidden) {
            // The seed a student could read in the spec is only a label: keyed by the course
            // secret (HMAC-SHA256) it gives inputs nobody without the secret can regenerate, and
            // no number of hidden seeds gives the secret back.
            c.seed = hidden_seed(*course_secret, spec.id + "/" + step.name + "/" + shown + "/" +
                                                     std::to_string(seed));
            c.id = "hidden/" + step.name + "/" + std::to_string(++hidden_count[step.name]);
          }
          cases.push_back(std::move(c));
        }
      }
    }
  }
  return cases;
}

}  // namespace cugrade
