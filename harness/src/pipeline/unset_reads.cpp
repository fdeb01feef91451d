#include "pipeline/unset_reads.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "build/unset_read_warnings.hpp"
#include "cpu_build.hpp"
#include "pipeline/build_for_check.hpp"
#include "pipeline/sanitized_runs.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/sentences.hpp"

namespace cugrade {

std::string unset_reads_clauses(const std::vector<Diagnostic>& reads) {
  std::set<std::string> seen;
  std::string clauses;
  for (const Diagnostic& read : reads) {
    const std::string variable = unset_variable(read);
    if (variable.empty() || !seen.insert(variable).second) continue;
    clauses += fmt::format("{}`{}` is used uninitialised, read before it is set (the read is at {}:{})",
                           clauses.empty() ? "" : "; ", variable, read.file, read.line);
  }
  return clauses;
}

namespace {

/// unset_reads_sentence of the clauses already written.
std::string sentence_of(const std::string& clauses) {
  if (clauses.empty()) return "";
  return "results change between runs of the same inputs: " + clauses +
         ", so it starts as whatever the memory or register held; give it a value before its first use (`= 0` "
         "where it is declared, for a sum)";
}

}  // namespace

std::string unset_reads_sentence(const std::vector<Diagnostic>& reads) { return sentence_of(unset_reads_clauses(reads)); }

bool guesses_unset_read(const CaseResult& result) { return has_change_guess(result.message); }

std::size_t explain_by_unset_reads(std::vector<CaseResult>& cases, const std::vector<Diagnostic>& reads) {
  const std::string clauses = unset_reads_clauses(reads);
  if (clauses.empty()) return 0;
  const std::string sentence = sentence_of(clauses);
  std::size_t changed = 0;
  std::set<std::string> explained;  // the steps told already
  for (CaseResult& result : cases)
    if (replace_change_guesses(result.message, sentence)) {
      drop_right_when_sanitized(result.message);  // the unset value explains that disagreement too
      ++changed;
      explained.insert(result.step);
    }
  // A step's first wrong answer that the student sees (a hidden case's words are not shown).
  for (const bool visible_only : {true, false})
    for (CaseResult& result : cases) {
      if (result.outcome != Outcome::wrong_answer || (visible_only && result.visibility != Visibility::visible) ||
          !explained.insert(result.step).second)
        continue;
      append_sentence(result.message, "the compiler warns: " + clauses);
      ++changed;
    }
  return changed;
}

void name_unset_reads(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                      const BuiltSubmission& built, GradeReport& report) {
  if (!built.use_cuda) {
    explain_by_unset_reads(report.cases, built.unset_reads);
    return;
  }
  // On the GPU a compile more (about a second of CPU, off the GPU), for a failure it may explain,
  // where the CPU backend is installed (its runner library is what that build links).
  const bool explainable = std::any_of(report.cases.begin(), report.cases.end(), [](const CaseResult& c) {
    return c.outcome == Outcome::wrong_answer || guesses_unset_read(c);
  });
  if (!explainable || !std::filesystem::exists(context.locations.cpu_runner_library(spec.id))) return;
  const BuildOutput compiled =
      build_submission_cpu(context.processes, cpu_build_request(context, spec, options, built.work_dir / "unset-reads"));
  explain_by_unset_reads(report.cases, compiled.unset_reads);
}

}  // namespace cugrade
