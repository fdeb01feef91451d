// Which of a step's cases racecheck checks first, and which only after a race in those
// (pipeline/sanitizer_pass.hpp declares it).
#include <algorithm>
#include <set>

#include "pipeline/sanitizer_pass.hpp"

namespace cugrade {
namespace {

/// racecheck follows every shared-memory access, costs 1.5 s per runner besides and 0.07 to
/// 0.17 s per small case (an H100, matmul); the largest (257×129×200) took 1.3 s. It first checks
/// three cases of a step whose inputs take at most this much, and every other case of the step
/// only where those had a race (racecheck_cases). On their own, the three largest per step left 7
/// matmul and transpose cases failing on the CPU backend and passing on the GPU (a missing first
/// __syncthreads() the CPU backend sees at 1×1×1): the rest after a race closes that
/// (docs/measurements.md).
constexpr std::size_t kRacecheckInputBytes = 64 * 1024;
/// The most work (FLOPs plus domain items) of a case racecheck checks first: matmul's and
/// transpose's cases within 64 KiB stay below it; N-body's 2049 bodies (4.2 million
/// interactions) and its 1000 bodies over 10 steps do not, and made its pass 4.8 s.
constexpr double kRacecheckWork = 0x1p22;

}  // namespace

RacecheckCases racecheck_cases(const std::vector<std::string>& step_ids,
                               const std::map<std::string, std::size_t>& bytes_of,
                               const std::map<std::string, double>& work_of) {
  std::vector<std::string> fitting;  // by size, the job's order among equals
  for (const auto& id : step_ids) {
    const auto work = work_of.find(id);
    if (bytes_of.at(id) <= kRacecheckInputBytes && (work == work_of.end() || work->second <= kRacecheckWork))
      fitting.push_back(id);
  }
  std::ranges::stable_sort(fitting, {}, [&](const std::string& id) { return bytes_of.at(id); });
  std::set<std::string> chosen;
  if (!fitting.empty()) chosen.insert(fitting.front());
  for (std::size_t i = 0; i < 2 && i < fitting.size(); ++i) chosen.insert(fitting[fitting.size() - 1 - i]);
  RacecheckCases cases;
  for (const auto& id : step_ids) (chosen.contains(id) ? cases.first : cases.after_race).push_back(id);
  return cases;
}

}  // namespace cugrade
