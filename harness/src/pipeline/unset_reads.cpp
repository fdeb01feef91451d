#include "pipeline/unset_reads.hpp"

#include <fmt/format.h>

#include "build/build_request.hpp"
#include "cpu_build.hpp"
#include "pipeline/build_for_check.hpp"
#include "pipeline/schedule_race.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// What the compilers' warnings of an unset read say after the variable's name.
constexpr std::string_view unset_phrases[] = {" may be used uninitialized", " is used uninitialized",
                                              " is used before its value is set"};

/// The text between the first pair of quotes of `text` (‘x’, 'x' or "x"); empty without one.
std::string first_quoted(std::string_view text) {
  constexpr std::string_view open_curly = "\u2018", close_curly = "\u2019";
  if (const auto open = text.find(open_curly); open != std::string_view::npos) {
    const auto close = text.find(close_curly, open + open_curly.size());
    if (close != std::string_view::npos)
      return std::string(text.substr(open + open_curly.size(), close - open - open_curly.size()));
  }
  for (const char quote : {'\'', '"'}) {
    const auto open = text.find(quote);
    if (open == std::string_view::npos) continue;
    const auto close = text.find(quote, open + 1);
    if (close != std::string_view::npos) return std::string(text.substr(open + 1, close - open - 1));
  }
  return "";
}

}  // namespace

std::vector<Diagnostic> unset_reads_in(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> reads;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != "warning" || d.line <= 0) continue;
    bool says_unset = false;
    for (const std::string_view phrase : unset_phrases) says_unset = says_unset || d.message.find(phrase) != std::string::npos;
    if (says_unset && !unset_variable(d).empty()) reads.push_back(d);
  }
  return reads;
}

std::string unset_variable(const Diagnostic& warning) {
  for (const std::string_view phrase : unset_phrases) {
    const auto at = warning.message.find(phrase);
    if (at != std::string::npos) return first_quoted(std::string_view(warning.message).substr(0, at));
  }
  return "";
}

std::string unset_reads_sentence(const std::vector<Diagnostic>& reads) {
  std::vector<std::string> seen;
  std::string clauses;
  for (const Diagnostic& read : reads) {
    const std::string variable = unset_variable(read);
    if (variable.empty() || std::find(seen.begin(), seen.end(), variable) != seen.end()) continue;
    seen.push_back(variable);
    clauses += fmt::format("{}`{}` is used uninitialised, read before it is set (the read is at {}:{})", clauses.empty() ? "" : "; ",
                           variable, read.file, read.line);
  }
  if (clauses.empty()) return "";
  return "results change between runs of the same inputs: " + clauses + ", so it starts as whatever the memory " +
         "or register held; give it a value before its first use (`= 0` where it is declared, for a sum)";
}

bool guesses_unset_read(const CaseResult& result) {
  std::string message = result.message;
  return replace_change_guesses(message, "");
}

std::size_t explain_changes_by_unset_reads(std::vector<CaseResult>& cases, const std::vector<Diagnostic>& reads) {
  const std::string sentence = unset_reads_sentence(reads);
  if (sentence.empty()) return 0;
  std::size_t changed = 0;
  for (CaseResult& result : cases)
    if (replace_change_guesses(result.message, sentence)) ++changed;
  return changed;
}

void name_unset_reads(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                      const fs::path& work_dir, GradeReport& report) {
  if (std::none_of(report.cases.begin(), report.cases.end(), guesses_unset_read)) return;
  BuildRequest request = cpu_build_request(context, spec, options, work_dir / "unset-reads");
  request.warn_unset_reads = true;
  const BuildOutput built = build_submission_cpu(context.processes, request);
  explain_changes_by_unset_reads(report.cases, unset_reads_in(built.result.diagnostics));
}

}  // namespace cugrade
