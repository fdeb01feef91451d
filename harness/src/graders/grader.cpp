#include "graders/grader.hpp"

namespace cugrade {
namespace {
std::vector<const Grader*>& registry() {
  static std::vector<const Grader*> graders;
  return graders;
}
}  // namespace

const std::vector<const Grader*>& all_graders() { return registry(); }

const Grader* find_grader(const std::string& assignment) {
  for (const Grader* grader : registry())
    if (grader->assignment == assignment) return grader;
  return nullptr;
}

SizeRules size_rules(const Grader& grader) {
  return SizeRules{grader.assignment, grader.parameters,
                   [&grader](const std::string& step, const Params& params) {
                     return grader.work(step, params).bytes;
                   }};
}

bool register_grader(const Grader* grader) {
  registry().push_back(grader);
  return true;
}

}  // namespace cugrade
