#include "pipeline/sanitized_runs.hpp"

#include <fmt/format.h>

#include "array_file.hpp"
#include "check/compare.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/sentences.hpp"

namespace cugrade {

std::optional<bool> sanitized_outputs_pass(const std::string& output_file, const PlannedCase& planned,
                                           const Tolerance& tolerance) {
  const auto outputs = read_array_file(output_file);
  if (!outputs) return std::nullopt;
  for (const auto& [name, gold] : planned.gold()) {
    if (is_slack_name(name)) continue;
    const auto actual = outputs->find(name);
    if (actual == outputs->end()) return std::nullopt;
    const auto slack = planned.gold().find(slack_name(name));
    const auto compared = compare_array(name, actual->second, gold, tolerance, 0,
                                        slack == planned.gold().end() ? nullptr : &slack->second);
    if (!compared) return std::nullopt;
    if (compared->wrong > 0) return false;
  }
  return true;
}

namespace {
/// The sentence for a sanitized run that was right where the case's own was wrong: these two
/// around the tool's name.
constexpr std::string_view right_when_sanitized_start = "under compute-sanitizer (";
constexpr std::string_view right_when_sanitized_rest =
    ") this case's outputs were right, and without it wrong: the two runs of the same inputs disagree, which a race "
    "does (the sanitizer's slower schedule hides it), or code that behaves otherwise when it is watched";
}  // namespace

bool note_sanitized_disagreement(CaseResult& result, bool sanitized_passed, const std::string& tool) {
  if (sanitized_passed && result.outcome == Outcome::wrong_answer) {
    // Shared memory read before it is written explains it: the sanitizer's runner starts shared
    // memory with other contents, as the poisoned runs that found it did.
    if (result.message.find(uninitialised_shared_message) != std::string::npos) return false;
    const std::string sentence =
        std::string(right_when_sanitized_start) + tool + std::string(right_when_sanitized_rest);
    if (result.message.find(sentence) != std::string::npos) return false;
    append_sentence(result.message, sentence);
    return true;
  }
  if (!sanitized_passed && result.outcome == Outcome::passed) {
    result.outcome = Outcome::wrong_answer;
    result.points = 0.0;
    result.message = fmt::format(
        "under compute-sanitizer ({}) this case's outputs were wrong, and without it right: the two runs of the same "
        "inputs disagree, which a race does (the sanitizer's slower schedule exposed it), or code that behaves "
        "otherwise when it is watched",
        tool);
    return true;
  }
  return false;
}

bool drop_right_when_sanitized(std::string& message) {
  for (auto from = message.find(right_when_sanitized_start); from != std::string::npos;
       from = message.find(right_when_sanitized_start, from + 1)) {
    const auto rest = message.find(right_when_sanitized_rest, from);
    // The tool's name between the two parts: one word, no other sentence.
    if (rest == std::string::npos || rest - from > right_when_sanitized_start.size() + 16) continue;
    erase_sentence(message, from, rest + right_when_sanitized_rest.size());
    return true;
  }
  return false;
}

}  // namespace cugrade
