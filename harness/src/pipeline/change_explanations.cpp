#include "pipeline/change_explanations.hpp"

#include "pipeline/schedule_race.hpp"
#include "pipeline/sentences.hpp"

namespace cugrade {

std::size_t explain_changes_by_findings(std::vector<CaseResult>& cases, const StepFindings& found) {
  // Race-free steps where a case changed between runs that started alike: a race on global memory.
  std::set<std::string> global_race;
  for (const CaseResult& result : cases)
    if (found.race_free.contains(result.step) && result.message.find(gpu_unsteady_message) != std::string::npos)
      global_race.insert(result.step);
  std::size_t changed = 0;
  for (CaseResult& result : cases) {
    bool told = false;
    if (found.bad_access.contains(result.step)) {
      told = replace_change_guesses(result.message, gpu_changed_by_bad_access_message);
      told = replace_uninitialised_shared(result.message, gpu_shared_start_by_bad_access_message) || told;
    } else if (found.shared_race.contains(result.step)) {
      told = replace_change_guesses(result.message, gpu_changed_by_shared_race_message);
      told = replace_uninitialised_shared(result.message, gpu_shared_start_by_shared_race_message) || told;
    } else if (found.race_free.contains(result.step)) {
      told = replace_sentence(result.message, gpu_unsteady_message, gpu_global_race_after_racecheck_message);
      if (global_race.contains(result.step))
        told = replace_uninitialised_shared(result.message, gpu_shared_start_in_global_race_message) || told;
    }
    if (told) ++changed;
  }
  return changed;
}

}  // namespace cugrade
