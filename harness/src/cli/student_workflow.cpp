#include "cli/student_workflow.hpp"

#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade {
namespace {

// The values land in double-quoted YAML strings and, through env, in an unquoted shell word
// list (SUBMISSION), so they are held to what names of files, repositories and git refs use.
const std::regex kName(R"([A-Za-z0-9_.@+-][A-Za-z0-9_.@+/-]*)");
const std::regex kRepository(R"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)");

Result<bool> replace_all(std::string& text, std::string_view placeholder, const std::string& value) {
  std::size_t at = text.find(placeholder);
  if (at == std::string::npos)
    return fail(fmt::format("the workflow template has no {} to fill in", placeholder));
  for (; at != std::string::npos; at = text.find(placeholder, at + value.size()))
    text.replace(at, placeholder.size(), value);
  return true;
}

}  // namespace

Result<std::string> render_student_workflow(std::string_view template_text,
                                            const StudentWorkflowSettings& s) {
  if (!std::regex_match(s.assignment, kName))
    return fail(fmt::format("'{}' cannot be an assignment id in a workflow", s.assignment));
  if (s.submission.empty()) return fail("the workflow needs the names of the student's files");
  for (const std::string& file : s.submission)
    if (!std::regex_match(file, kName))
      return fail(fmt::format("the file name '{}' cannot go into a workflow: use letters, digits, "
                              "'.', '_', '-' and '/' only", file));
  if (!std::regex_match(s.repository, kRepository))
    return fail(fmt::format("--course-repo '{}': expected owner/name, e.g. my-course/cugrade",
                            s.repository));
  if (!std::regex_match(s.ref, kName))
    return fail(fmt::format("--cugrade-ref '{}': expected a tag, branch or commit, e.g. v0.1.0", s.ref));
  std::string text(template_text);
  for (const auto& [placeholder, value] :
       {std::pair<std::string_view, std::string>{"@ASSIGNMENT@", s.assignment},
        {"@SUBMISSION@", fmt::format("{}", fmt::join(s.submission, " "))},
        {"@CUGRADE_REPOSITORY@", s.repository},
        {"@CUGRADE_REF@", s.ref}})
    if (auto done = replace_all(text, placeholder, value); !done) return std::unexpected(done.error());
  return text;
}

}  // namespace cugrade
