#include "report/not_run.hpp"

namespace cugrade {

void mark_not_run(GradeReport& report, const std::vector<Case>& cases, const std::vector<PerformanceTarget>& targets,
                  const std::string& message) {
  for (const auto& c : cases)
    report.cases.push_back({c.id, c.step, c.visibility, c.params, c.seed, Outcome::not_run, 0.0, c.points, 0.0,
                            message, {}});
  for (const auto& t : targets) {
    PerformanceResult p;
    p.step = t.step;
    p.reference = t.reference;
    p.params = t.params;
    p.max_points = t.points;
    p.message = message;
    report.performance.push_back(std::move(p));
  }
}

bool left_unrun(const CaseResult& c) { return c.message.starts_with("not run: "); }

}  // namespace cugrade
