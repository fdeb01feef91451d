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
// The package's URL lands in a single-quoted workflow expression and a double-quoted shell word:
// no quotes, spaces, '$', '`' or '\'; https (or file, for a copy on the runner's disk).
const std::regex kPackageUrl(R"((https|http|file)://[A-Za-z0-9_.~:/?#@!&()*+,;=%\[\]-]+)");
const std::regex kSha256(R"([0-9a-f]{64})");

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
  if (!s.package_url.empty() && !std::regex_match(s.package_url, kPackageUrl))
    return fail(fmt::format("--package-url '{}': expected an https:// (or file://) URL without quotes or spaces",
                            s.package_url));
  if (!s.package_sha256.empty() && !std::regex_match(s.package_sha256, kSha256))
    return fail(fmt::format("--package-sha256 '{}': expected the 64 lowercase hex digits sha256sum prints",
                            s.package_sha256));
  if (s.package_url.empty() != s.package_sha256.empty())
    return fail("--package-url and --package-sha256 go together: the workflow installs no package it cannot verify");
  std::string text(template_text);
  for (const auto& [placeholder, value] :
       {std::pair<std::string_view, std::string>{"@ASSIGNMENT@", s.assignment},
        {"@SUBMISSION@", fmt::format("{}", fmt::join(s.submission, " "))},
        {"@CUGRADE_REPOSITORY@", s.repository},
        {"@CUGRADE_REF@", s.ref},
        {"@CUGRADE_PACKAGE_URL@", s.package_url},
        {"@CUGRADE_PACKAGE_SHA256@", s.package_sha256}})
    if (auto done = replace_all(text, placeholder, value); !done) return std::unexpected(done.error());
  return text;
}

std::string github_origin(std::string_view git_config) {
  bool in_origin = false;
  std::size_t begin = 0;
  while (begin < git_config.size()) {
    std::size_t end = git_config.find('\n', begin);
    if (end == std::string_view::npos) end = git_config.size();
    std::string_view line = git_config.substr(begin, end - begin);
    begin = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.starts_with("[")) {
      in_origin = line == "[remote \"origin\"]";
      continue;
    }
    if (!in_origin || !line.starts_with("url")) continue;
    std::string_view url = line.substr(line.find('=') == std::string_view::npos ? line.size() : line.find('=') + 1);
    while (!url.empty() && url.front() == ' ') url.remove_prefix(1);
    for (std::string_view host : {"github.com/", "github.com:"}) {
      const std::size_t at = url.find(host);
      if (at == std::string_view::npos) continue;
      std::string_view path = url.substr(at + host.size());
      if (path.ends_with(".git")) path.remove_suffix(4);
      if (path.ends_with("/")) path.remove_suffix(1);
      const std::size_t slash = path.find('/');
      if (slash == std::string_view::npos || slash == 0 || slash + 1 == path.size() ||
          path.find('/', slash + 1) != std::string_view::npos)
        return "";
      return std::string(path);
    }
    return "";
  }
  return "";
}

}  // namespace cugrade
