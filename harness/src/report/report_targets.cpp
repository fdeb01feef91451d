#include "report/report_targets.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/atomic_file.hpp"
#include "report/classroom50_report.hpp"
#include "report/console_report.hpp"
#include "report/github_report.hpp"
#include "report/gradescope_report.hpp"
#include "report/html_report.hpp"
#include "report/json_report.hpp"
#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report/prairielearn_report.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

constexpr std::array kKinds{ReportKind::console,    ReportKind::json,         ReportKind::markdown,
                            ReportKind::html,       ReportKind::junit,        ReportKind::gradescope,
                            ReportKind::prairielearn, ReportKind::github,     ReportKind::classroom50};

// Compiler logs and student messages may hold bytes that are not UTF-8 (a Latin-1 comment);
// they become U+FFFD rather than failing the whole report.
std::string dump(const nlohmann::json& json) {
  return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (ReportKind kind : kKinds) names.emplace_back(to_string(kind));
  return names;
}

Result<ReportTarget> parse_target(const std::string& spec) {
  const std::size_t equals = spec.find('=');
  if (equals == std::string::npos)
    return fail(fmt::format("--report '{}': expected kind=path, e.g. json=report.json or "
                            "console=- ('-' is standard output)", spec));
  const std::string kind = spec.substr(0, equals);
  const std::string path = spec.substr(equals + 1);
  const std::vector<std::string> names = kind_names();
  if (kind.empty())
    return fail(fmt::format("--report '{}': the kind before '=' is missing; known kinds: {}", spec,
                            join_names(names)));
  const auto known = std::find(names.begin(), names.end(), kind);
  if (known == names.end())
    return fail(fmt::format("--report '{}': unknown report kind '{}' (known kinds: {}){}", spec,
                            kind, join_names(names), did_you_mean(kind, names)));
  if (path.empty())
    return fail(fmt::format("--report '{}': the path after '=' is missing; use '-' for standard "
                            "output", spec));
  return ReportTarget{kKinds[static_cast<std::size_t>(known - names.begin())], path};
}

std::string render(const GradeReport& report, const ReportTarget& target, bool colour_console,
                   bool include_hidden_details, const std::map<std::string, std::string>& repository_paths,
                   ConsoleDetail console_detail) {
  switch (target.kind) {
    case ReportKind::console:
      // Escape codes belong on a terminal only; a file gets plain text.
      return render_console(report, colour_console && target.path == "-", console_detail);
    case ReportKind::json:
      return dump(report_to_json(report, include_hidden_details));
    case ReportKind::markdown:
      return render_markdown(report);
    case ReportKind::html:
      return render_html(report);
    case ReportKind::junit:
      return render_junit(report);
    // The formats other systems show to students never carry hidden details, whoever asks.
    case ReportKind::gradescope:
      return dump(report_to_gradescope(report));
    case ReportKind::prairielearn:
      return dump(report_to_prairielearn(report));
    case ReportKind::github:
      return render_github_annotations(report, repository_paths);
    case ReportKind::classroom50:
      break;  // rendered with its identity by write_reports
  }
  return {};
}


}  // namespace

std::string_view to_string(ReportKind kind) {
  switch (kind) {
    case ReportKind::console: return "console";
    case ReportKind::json: return "json";
    case ReportKind::markdown: return "markdown";
    case ReportKind::html: return "html";
    case ReportKind::junit: return "junit";
    case ReportKind::gradescope: return "gradescope";
    case ReportKind::prairielearn: return "prairielearn";
    case ReportKind::github: return "github";
    case ReportKind::classroom50: return "classroom50";
  }
  return "console";
}

Result<std::vector<ReportTarget>> parse_report_targets(const std::vector<std::string>& specs) {
  std::vector<ReportTarget> targets;
  for (const std::string& spec : specs) {
    auto target = parse_target(spec);
    if (!target) return std::unexpected(target.error());
    targets.push_back(std::move(*target));
  }
  return targets;
}

Result<bool> write_reports(const GradeReport& report, const std::vector<ReportTarget>& targets,
                           bool colour_console, bool include_hidden_details,
                           const std::map<std::string, std::string>& repository_paths,
                           ConsoleDetail console_detail) {
  std::vector<std::pair<ReportTarget, std::string>> rendered;
  std::vector<std::string> failures;
  for (const ReportTarget& target : targets) {
    if (target.kind == ReportKind::classroom50) {
      // Shown to the student on their release: never hidden details, whoever asks.
      auto identity = classroom50_identity_from_environment();
      if (!identity) failures.push_back(identity.error().message);
      else rendered.emplace_back(target, dump(report_to_classroom50(report, *identity)));
      continue;
    }
    rendered.emplace_back(target, render(report, target, colour_console, include_hidden_details, repository_paths,
                                         console_detail));
  }
  auto written = write_rendered(rendered);
  if (!written) failures.push_back(written.error().message);
  if (!failures.empty()) return fail(fmt::format("{}", fmt::join(failures, "\n")));
  return true;
}

Result<bool> check_report_targets(const std::vector<ReportTarget>& targets) {
  namespace fs = std::filesystem;
  std::vector<std::string> problems;
  for (const ReportTarget& target : targets) {
    if (target.kind == ReportKind::classroom50)
      if (auto identity = classroom50_identity_from_environment(); !identity)
        problems.push_back(fmt::format("--report classroom50={}: {}", target.path, identity.error().message));
    if (target.path == "-") continue;
    const std::string name = fmt::format("--report {}={}", to_string(target.kind), target.path);
    std::error_code ec;
    const fs::path path = fs::absolute(target.path, ec);
    const fs::file_status status = fs::symlink_status(path, ec);
    if (fs::is_symlink(status)) {
      problems.push_back(name + ": is a symbolic link, which cugrade does not replace (give the path of a file)");
      continue;
    }
    if (fs::is_directory(status)) {
      problems.push_back(name + ": is a folder (give a file name inside it)");
      continue;
    }
    // The nearest folder that exists must be one cugrade can write into (it makes the rest).
    fs::path folder = path.parent_path();
    while (!folder.empty() && !fs::exists(folder, ec) && folder != folder.root_path()) folder = folder.parent_path();
    if (!fs::is_directory(folder, ec))
      problems.push_back(name + ": " + folder.string() + " is not a folder");
    else if (::access(folder.c_str(), W_OK | X_OK) != 0)
      problems.push_back(name + ": cannot write in " + folder.string() + " (" + std::strerror(errno) + ")");
  }
  if (!problems.empty()) return fail(fmt::format("{}", fmt::join(problems, "\n")));
  return true;
}

Result<bool> write_rendered(const std::vector<std::pair<ReportTarget, std::string>>& rendered) {
  std::vector<std::string> failures;
  for (const auto& [target, text] : rendered) {
    if (target.path == "-") {
      std::cout << text << std::flush;
      if (!std::cout) failures.push_back(fmt::format("cannot write the {} report to standard "
                                                     "output", to_string(target.kind)));
      continue;
    }
    if (auto written = write_file_atomically(target.path, text, "report "); !written)
      failures.push_back(written.error().message);
  }
  if (!failures.empty()) return fail(fmt::format("{}", fmt::join(failures, "\n")));
  return true;
}

}  // namespace cugrade
