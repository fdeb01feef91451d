#include "cli/assignment_listing.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "spec/spec_loader.hpp"

namespace cugrade {

namespace {

/// One assignment's lines: its title, then the steps students write.
std::string describe(const Spec& spec) {
  std::string out = fmt::format("{:<12} {}\n", spec.id, spec.title);
  std::size_t name_width = 0, entry_width = 0, reference_only = 0;
  for (const auto& step : spec.steps)
    if (!step.reference_only) {
      name_width = std::max(name_width, step.name.size());
      entry_width = std::max(entry_width, step.entry.size() + 2);
    }
  for (const auto& step : spec.steps) {
    // Students write only the steps of interface.cuh; the others are the course's own.
    if (step.reference_only) {
      ++reference_only;
      continue;
    }
    std::string timed;
    for (const auto& p : spec.performance)
      if (p.step == step.name) timed = fmt::format("  [timed at {}, {} pts]", params_to_string(p.params), p.points);
    out += fmt::format("    {:<{}}  {:<{}}  {}{}\n", step.name, name_width, step.entry + "()", entry_width,
                       step.description, timed);
  }
  if (reference_only > 0)
    out += fmt::format("    (and {} reference-only step{} the course's reference implements)\n", reference_only,
                       reference_only == 1 ? "" : "s");
  return out;
}

}  // namespace

Result<std::string> assignment_listing(const Locations& where, const std::vector<std::string>& ids) {
  const std::vector<std::string> all = list_assignments(where.assignments());
  const std::vector<std::string>& chosen = ids.empty() ? all : ids;
  std::string out;
  for (const auto& id : chosen) {
    auto spec = load_assignment(where.assignments(), id);
    if (spec) {
      out += describe(*spec);
    } else if (std::ranges::find(all, id) != all.end()) {
      out += fmt::format("{:<12} (invalid spec: run `cugrade lint {}`)\n", id, id);
    } else {
      return fail(spec.error().message);  // the loader's "unknown assignment …; did you mean …?"
    }
  }
  return out;
}

}  // namespace cugrade
