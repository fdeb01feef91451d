#include "pipeline/verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <stdexcept>
#include <thread>

#include "check/compare.hpp"
#include "check/mistake_match.hpp"
#include "check/modified_inputs.hpp"
#include "timing/timing_stats.hpp"
#include "timing/performance.hpp"

namespace cugrade {
namespace {
/// "312 of 2145 elements of C are wrong: <pattern>" for the first failing comparison.
std::string wrong_answer_message(const std::vector<Comparison>& comparisons) {
  for (const auto& c : comparisons) {
    if (c.wrong == 0) continue;
    const std::string count = fmt::format("{} of {} elements of {} are wrong", c.wrong, c.checked, c.array);
    // The pattern's own fallback repeats the count; say it once.
    const bool adds = !c.pattern.empty() && c.pattern != fmt::format("{} of {} elements are wrong", c.wrong, c.checked);
    return adds ? count + ": " + c.pattern : count;
  }
  return "";
}

/// True when any comparison found a wrong element.
bool any_wrong(const std::vector<Comparison>& comparisons) {
  return std::any_of(comparisons.begin(), comparisons.end(), [](const Comparison& c) { return c.wrong > 0; });
}

/// Reads an output file the runner wrote; a missing or malformed one is a protocol error.
Result<ArraySet> read_runner_file(const std::string& path) {
  std::string error;
  auto arrays = read_array_file(path, &error);
  if (!arrays) return fail("the program's output could not be read (" + error + ")");
  return *arrays;
}

/// Compares every output of `expected` (with its "<output>.slack", where the gold has one); an
/// output of the wrong shape is a protocol error. `launched_threads`: the call's largest launch
/// (TaskStatus::launched_threads; 0 unknown), for the patterns' words.
Result<std::vector<Comparison>> compare_outputs(const ArraySet& actual, const ArraySet& expected,
                                                const Tolerance& tolerance, long long launched_threads) {
  std::vector<Comparison> comparisons;
  for (const auto& [name, gold] : expected) {
    if (is_slack_name(name)) {
      // A slack without its output would be silently ignored: the grader's bug, not the student's.
      if (!expected.contains(name.substr(0, name.size() - slack_name("").size())))
        throw std::logic_error("the gold has " + name + " but no output it belongs to");
      continue;
    }
    auto it = actual.find(name);
    if (it == actual.end()) return fail("the output " + name + " is missing");
    const auto slack = expected.find(slack_name(name));
    auto comparison = compare_array(name, it->second, gold, tolerance, 5,
                                    slack == expected.end() ? nullptr : &slack->second, launched_threads);
    if (!comparison) return std::unexpected(comparison.error());
    comparisons.push_back(std::move(*comparison));
  }
  return comparisons;
}
}  // namespace

CaseResult judge_case(const Spec& spec, const PlannedCase& planned, const CheckTask& task,
                      const TaskStatus& status) {
  const Case& c = planned.spec_case;
  CaseResult result{c.id, c.step, c.visibility, c.params, c.seed, status.outcome, 0.0, c.points,
                    status.seconds, status.message, {}};
  // A failure after the GPU memory limit refused an allocation: that refusal is the likely cause.
  const auto with_refusal = [&](CaseResult judged) {
    if (judged.outcome != Outcome::passed) judged.message = with_memory_refusal(judged.message, status.memory_refused);
    return judged;
  };
  if (status.outcome != Outcome::passed) return with_refusal(result);
  const Step* step = spec.find_step(c.step);
  auto outputs = read_runner_file(task.output_file);
  auto readback = read_runner_file(task.readback_file);
  if (!outputs || !readback) {
    result.outcome = Outcome::protocol_error;
    result.message = (outputs ? readback.error() : outputs.error()).message;
    return result;
  }
  auto comparisons = compare_outputs(*outputs, planned.gold(), step->tolerance, status.launched_threads);
  if (!comparisons) {
    result.outcome = Outcome::protocol_error;
    result.message = comparisons.error().message;
    return result;
  }
  result.comparisons = std::move(*comparisons);
  // The comparisons already say how many elements are wrong, where, and the pattern; the
  // message adds only what they cannot: a modified const input. An input that is also an output
  // is in-out (the runner restores it before the call and the call writes it): not const.
  std::set<std::string> in_out;
  for (const auto& [name, output] : task.outputs) in_out.insert(name);
  std::string modified = describe_modified_inputs(planned.inputs(), *readback, in_out);
  if (modified.empty()) {
    // Made once per case with its material (a batch's checks share it); any input it lacks, here.
    std::map<std::string, std::string> before = planned.material->input_digests;
    for (const auto& [name, array] : planned.inputs())
      if (!in_out.contains(name) && !before.contains(name)) before[name] = array_digest(array);
    modified = describe_input_digests(before, status.input_digests, in_out);
  }
  if (any_wrong(result.comparisons) || !modified.empty()) {
    result.outcome = Outcome::wrong_answer;
    // Wrong outputs against the grader's mistake models: a match names the mistake (only the
    // message: the verdict and the points stay as the gold decided). A modified input alone
    // leaves the outputs the gold's, which no model may name.
    const CaseMaterial& material = *planned.material;
    const std::string mistake = material.mistakes && any_wrong(result.comparisons)
                                    ? match_mistake(*material.mistakes, c, material.inputs, material.gold, *outputs,
                                                    step->tolerance, *material.mistake_golds)
                                    : "";
    result.message = mistake.empty() || modified.empty() ? mistake + modified : mistake + "; " + modified;
  }
  // A right result that is not a kernel's work earns nothing (the runner's evidence:
  // runtime/host_work.hpp), unless the step's lecture does host work itself. A wrong one keeps
  // the comparison's words: a kernel that wrote nothing leaves what the host sent, and "computed
  // without a kernel" would blame an honest bug on cheating.
  if (result.outcome == Outcome::passed && !status.host_work.empty() && !step->host_work_allowed) {
    result.outcome = Outcome::wrong_answer;
    result.message = status.host_work;
  }
  return with_refusal(std::move(result));
}

std::vector<CaseResult> judge_cases(const Spec& spec, const CasePlan& plan, const RunOutcome& ran) {
  std::vector<CaseResult> judged(plan.cases.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < judged.size(); i = next++)
      judged[i] = judge_case(spec, plan.cases[i], plan.job.checks[i], ran.tasks.at(plan.job.checks[i].id));
  };
  const std::size_t threads = std::min<std::size_t>({judged.size(), std::max(1u, std::thread::hardware_concurrency()), 8});
  std::vector<std::future<void>> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.push_back(std::async(std::launch::async, work));
  work();
  for (auto& helper : helpers) helper.get();  // a grader's fault thrown on a helper reaches the caller
  return judged;
}

PerformanceResult judge_timing(const Spec& spec, const PlannedTiming& planned, const TimeTask& task,
                               const TimingOutcome& timed, const std::optional<Ceilings>& ceilings) {
  PerformanceResult result;
  result.step = planned.target.step;
  result.reference = planned.target.reference;
  result.params = planned.target.params;
  result.max_points = planned.target.points;
  result.outcome = timed.status.outcome;
  result.message = timed.status.message;
  if (timed.status.outcome != Outcome::passed) return result;
  if (timed.student_ms.empty() || timed.reference_ms.empty()) {
    result.outcome = Outcome::harness_error;
    result.message = "the timing run took no samples";
    return result;
  }
  // Event times, the student's checked against the harness's own clock around every sample
  // (timing_stats): when it typically reads far beyond the events, the clock's times count. The
  // reference's runner is ours and its events are believed: a host that delayed a few of its
  // round trips must not move the ratio.
  result.student = timing_stats(timed.student_ms, timed.student_wall_ms);
  // A reference that ran slower beside the student's runner than beside its twin was slowed by it (GPU
  // work of the student's while the reference took its turn): the baseline counts instead.
  const CountedReference reference_times = counted_reference(timed.reference_ms, timed.reference_alone_ms);
  result.reference_time = reference_times.counted();
  result.reference_alone = reference_times.alone;
  std::string disturbed;
  if (reference_times.disturbed)
    disturbed = fmt::format("the reference ran at {:.3g} ms beside your runner but {:.3g} ms beside a copy of "
                            "itself: something of yours kept the GPU busy during its turns, so its baseline counts",
                            reference_times.beside.median_ms, reference_times.alone->median_ms);
  assess_performance(result, planned.work, ceilings);
  if (!disturbed.empty()) {
    result.flags.push_back("reference_disturbed");
    result.message += (result.message.empty() ? "" : " ") + disturbed;
  }

  // Why: a submission could detect timed calls and skip, defer or cache its work. Every timed
  // call ran on fresh inputs and was checked by digest against the reference on the same
  // inputs (every element, where the tolerance is exact); elsewhere the last one's outputs are
  // also compared element by element.
  const std::string skipped = ": performance earns nothing unless the timed code is correct";
  if (!timed.verified) {
    result.outcome = Outcome::wrong_answer;
    result.flags.push_back("output_mismatch");
    result.message = "while being timed, your " + task.step + " " + timed.mismatch + skipped;
    return result;
  }
  if (timed.student_output_file.empty()) return result;  // exact tolerance: the digests compared every element
  auto student = read_runner_file(timed.student_output_file);
  auto reference = read_runner_file(timed.reference_output_file);
  if (!reference) {  // the reference is ours: a fault here is the harness's
    result.outcome = Outcome::harness_error;
    result.message = "the reference's timed output could not be read: " + reference.error().message;
    return result;
  }
  if (!student) {
    result.outcome = Outcome::protocol_error;
    result.message = student.error().message;
    return result;
  }
  ArraySet expected;
  for (const auto& [name, array] : *reference) {
    for (std::int64_t i = 0; i < array.size(); ++i)
      if (!std::isfinite(array.value(i))) {
        result.outcome = Outcome::harness_error;
        result.message = "the reference's timed output holds NaN or Inf; performance could not be verified";
        return result;
      }
    expected[name] = array;
  }
  auto comparisons = compare_outputs(*student, expected, spec.find_step(task.step)->tolerance, 0);
  if (!comparisons || any_wrong(*comparisons)) {
    result.outcome = Outcome::wrong_answer;
    result.flags.push_back("output_mismatch");
    result.message = "while being timed, your " + task.step +
                     " gave results that differ from the reference on the same fresh inputs" +
                     (comparisons ? " (" + wrong_answer_message(*comparisons) + ")" : "") + skipped;
  }
  return result;
}

}  // namespace cugrade
