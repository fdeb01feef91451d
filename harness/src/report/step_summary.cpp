#include "report/step_summary.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/not_run.hpp"
#include "report/report_format.hpp"

namespace cugrade {
namespace {

/// A step's diagnosis at most: a CUDA error's whole sentence (the call, the kernel, the thread, the
/// array, the hint), not a case's every detail.
constexpr std::size_t kDiagnosisChars = 320;

/// Sizes a group's label lists before "…": enough to see the range, few enough for one line.
constexpr std::size_t kListedSizes = 6;

/// The headline with every number (a size, a count, an index, a value) replaced by '#', so that
/// cases failing the same way at different sizes compare equal.
std::string without_numbers(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
      out += '#';
    } else {
      out += text[i++];
    }
  }
  return out;
}

/// A group's sizes: "n = 1, 7, 1024" when the step has one size parameter, else
/// "K=47,M=65,N=33; K=1,M=1,N=1000"; each size once, at most kListedSizes, then "…".
std::string listed_sizes(const std::vector<const CaseResult*>& cases) {
  std::vector<const Params*> sizes;
  for (const CaseResult* c : cases)
    if (std::none_of(sizes.begin(), sizes.end(), [&](const Params* p) { return *p == c->params; }))
      sizes.push_back(&c->params);
  const bool one_parameter = std::all_of(sizes.begin(), sizes.end(), [&](const Params* p) {
    return p->size() == 1 && p->begin()->first == sizes.front()->begin()->first;
  });
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < sizes.size() && i < kListedSizes; ++i)
    shown.push_back(one_parameter ? std::to_string(sizes[i]->begin()->second) : params_to_string(*sizes[i]));
  if (sizes.size() > kListedSizes) shown.emplace_back("…");
  if (one_parameter) return fmt::format("{} = {}", sizes.front()->begin()->first, fmt::join(shown, ", "));
  return fmt::format("{}", fmt::join(shown, "; "));
}

/// The group that best explains a step's failures: a wrong answer a mistake model named, else
/// the visible failure shared by the most cases (the first of equals: a size-1 edge case tells
/// less than what went wrong at every other size), else the first hidden one; nullptr when
/// nothing failed.
const SimilarCases* most_telling(const std::vector<SimilarCases>& groups) {
  const auto failed = [](const SimilarCases& g) {
    return g.outcome != Outcome::passed && is_student_outcome(g.outcome);
  };
  for (const SimilarCases& g : groups)
    if (failed(g) && !g.hidden && g.outcome == Outcome::wrong_answer && !g.cases.front()->message.empty())
      return &g;
  // Cases left unrun after an earlier one hung or crashed ("not run: an earlier case of this
  // step timed out") tell less than that case itself, however many they are.
  const auto consequence = [](const SimilarCases& g) { return left_unrun(*g.cases.front()); };
  for (const bool consequences : {false, true}) {
    const SimilarCases* widest = nullptr;
    for (const SimilarCases& g : groups)
      if (failed(g) && !g.hidden && consequence(g) == consequences &&
          (widest == nullptr || g.cases.size() > widest->cases.size()))
        widest = &g;
    if (widest != nullptr) return widest;
  }
  for (const SimilarCases& g : groups)
    if (failed(g)) return &g;
  return nullptr;
}

/// Why nothing of an ungradable report ran, in a few words: the build failed, or (no build to
/// speak of) what stopped it — a refused submission's reason, a fault of cugrade's.
std::string why_not_run(const GradeReport& report) {
  const Outcome build = report.build.outcome;
  if (build == Outcome::compile_error || build == Outcome::link_error || build == Outcome::forbidden_symbol ||
      build == Outcome::timeout)
    return "the build failed";
  // Its why once, in the notes, not again in every step's row.
  if (report.outcome == Outcome::harness_error) return "a fault of cugrade's, not of the submission (see the notes)";
  if (!report.build.message.empty()) return one_line(report.build.message, 160);
  return std::string(to_string(report.outcome));
}

}  // namespace

std::string one_line(std::string_view text, std::size_t width) {
  std::string line(text.substr(0, text.find('\n')));
  std::size_t shown = 0, cut = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((line[i] & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: not a character
    if (shown == width - 1) cut = i;
    if (++shown > width) return line.substr(0, cut) + "…";
  }
  return line;
}

std::string case_headline(const CaseResult& c) {
  if (c.outcome == Outcome::passed || c.visibility == Visibility::hidden) return "";
  if (c.outcome != Outcome::wrong_answer || !c.message.empty()) return c.message;
  for (const Comparison& comparison : c.comparisons) {
    if (comparison.wrong == 0) continue;
    const std::string array = c.comparisons.size() > 1 ? comparison.array + ": " : "";
    if (!comparison.pattern.empty()) return array + comparison.pattern;
    return array + fmt::format("{} of {} elements wrong", comparison.wrong, comparison.checked);
  }
  return "";
}

std::vector<SimilarCases> gather_cases(const GradeReport& report, const std::string& step) {
  std::vector<SimilarCases> groups;
  std::vector<std::string> keys;
  for (const CaseResult& c : report.cases) {
    if (c.step != step) continue;
    const bool hidden = c.visibility == Visibility::hidden;
    const std::string headline = case_headline(c);
    const std::string key = fmt::format("{}|{}|{}", to_string(c.outcome), hidden, without_numbers(headline));
    auto at = std::find(keys.begin(), keys.end(), key);
    if (at == keys.end()) {
      keys.push_back(key);
      SimilarCases group;
      group.step = step;
      group.outcome = c.outcome;
      group.hidden = hidden;
      group.headline = headline;
      groups.push_back(std::move(group));
      at = keys.end() - 1;
    }
    SimilarCases& group = groups[static_cast<std::size_t>(at - keys.begin())];
    group.cases.push_back(&c);
    group.points += c.points;
    group.max_points += c.max_points;
  }
  // Passes first, visible before hidden; the rest keep the order of their first case.
  std::stable_sort(groups.begin(), groups.end(), [](const SimilarCases& a, const SimilarCases& b) {
    const auto rank = [](const SimilarCases& g) { return g.outcome != Outcome::passed ? 2 : g.hidden ? 1 : 0; };
    return rank(a) < rank(b);
  });
  return groups;
}

std::string similar_cases_label(const SimilarCases& group) {
  const std::size_t n = group.cases.size();
  if (group.hidden) return n == 1 ? "hidden case" : fmt::format("{} hidden cases", n);
  if (n == 1) return case_label(*group.cases.front());
  return fmt::format("{} cases ({})", n, listed_sizes(group.cases));
}

std::string similar_cases_line(const SimilarCases& group) {
  const std::size_t n = group.cases.size();
  const std::string where = group.hidden ? (n == 1 ? "a hidden case" : fmt::format("{} hidden cases", n))
                            : n == 1     ? case_label(*group.cases.front())
                                         : fmt::format("{} cases ({})", n, listed_sizes(group.cases));
  const std::string what = is_student_outcome(group.outcome)
                               ? std::string(to_string(group.outcome))
                               : fmt::format("not graded ({})", to_string(group.outcome));
  return fmt::format("{} in {}{}", what, where, group.headline.empty() ? "" : ": " + group.headline);
}

std::vector<std::string> similar_cases_details(const SimilarCases& group) {
  if (group.outcome == Outcome::passed || group.hidden) return {};
  const CaseResult& first = *group.cases.front();
  if (group.cases.size() == 1) return case_detail_lines(first);
  const std::string what = is_student_outcome(group.outcome)
                               ? std::string(to_string(group.outcome))
                               : fmt::format("not graded ({})", to_string(group.outcome));
  std::vector<std::string> lines{group.headline.empty() ? what : what + ": " + group.headline};
  for (const Comparison& comparison : first.comparisons) {
    if (comparison.wrong == 0) continue;
    const std::string array = first.comparisons.size() > 1 ? comparison.array + ": " : "";
    lines.push_back(fmt::format("e.g. {}: {}{}", case_label(first), array, describe_comparison(comparison)));
  }
  return lines;
}

std::vector<StepSummary> summarize_steps(const GradeReport& report) {
  std::vector<std::string> steps;
  const auto add = [&](const std::string& step) {
    if (std::find(steps.begin(), steps.end(), step) == steps.end()) steps.push_back(step);
  };
  for (const CaseResult& c : report.cases) add(c.step);
  for (const PerformanceResult& p : report.performance) add(p.step);

  std::vector<StepSummary> rows;
  for (const std::string& step : steps) {
    StepSummary row;
    row.step = step;
    for (const CaseResult& c : report.cases) {
      if (c.step != step) continue;
      ++row.cases;
      row.passed += c.outcome == Outcome::passed;
      row.points += c.points;
      row.max_points += c.max_points;
    }
    for (const PerformanceResult& p : report.performance) {
      if (p.step != step || !is_student_outcome(p.outcome)) continue;
      row.performance_points = row.performance_points.value_or(0.0) + p.points;
      row.performance_max = row.performance_max.value_or(0.0) + p.max_points;
    }
    if (!report.gradable) {
      // Nothing ran: why is the story, told in the build section (or the notes).
      row.status = Outcome::not_run;
      row.diagnosis = "not run: " + why_not_run(report);
      row.performance_points.reset();
      row.performance_max.reset();
    } else if (row.passed == row.cases) {
      row.diagnosis = row.cases == 0 ? "no cases" : "all passed";
      // A correct step that lost performance points: why it is slower, when the counters said.
      for (const PerformanceResult& p : report.performance)
        if (p.step == step && p.diagnosis && p.diagnosis->cause != "unavailable" && p.diagnosis->cause != "none")
          row.diagnosis = one_line(row.diagnosis + "; slower: " + p.diagnosis->message, kDiagnosisChars);
    } else {
      const std::vector<SimilarCases> groups = gather_cases(report, step);
      const SimilarCases* telling = most_telling(groups);
      // Only harness faults (never the student's): say so, not "all passed".
      if (telling == nullptr)
        telling = &*std::find_if(groups.begin(), groups.end(),
                                 [](const SimilarCases& g) { return g.outcome != Outcome::passed; });
      row.status = telling->outcome;
      const std::string what = is_student_outcome(telling->outcome)
                                   ? std::string(to_string(telling->outcome))
                                   : fmt::format("not graded ({})", to_string(telling->outcome));
      // A hidden case tells its outcome only ("wrong_answer in a hidden case").
      row.diagnosis = telling->hidden              ? similar_cases_line(*telling)
                      : telling->headline.empty() ? what
                                                  : what + ": " + telling->headline;
      row.diagnosis = one_line(row.diagnosis, kDiagnosisChars);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace cugrade
