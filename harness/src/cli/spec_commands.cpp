// `cugrade lint` and `cugrade list`: the assignment specs, checked and described.
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli/assignment_listing.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "graders/grader.hpp"
#include "spec/lint.hpp"

namespace cugrade {
namespace {
/// The ids to act on: those given, or every assignment.
std::vector<std::string> chosen_ids(const std::vector<std::string>& given, const Locations& where) {
  return given.empty() ? list_assignments(where.assignments()) : given;
}

/// The spec file an argument of lint names by its path (a course author's copy:
/// "draft/matmul/assignment.yaml", or its folder), or nothing for an assignment id.
std::optional<std::filesystem::path> spec_path(const std::string& given) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (given.ends_with(".yaml") || given.ends_with(".yml")) return fs::path(given);
  if (fs::is_regular_file(fs::path(given) / "assignment.yaml", ec)) return fs::path(given) / "assignment.yaml";
  if (given.find('/') != std::string::npos) return fs::path(given);  // not an id either: said below
  return std::nullopt;
}

int run_lint(const std::vector<std::string>& ids) {
  const Locations where = default_locations();
  const auto chosen = chosen_ids(ids, where);
  if (chosen.empty()) return complain("no assignments found below " + where.assignments().string(), exit_invalid_spec);
  int bad = 0;
  for (const auto& given : chosen) {
    const std::optional<std::filesystem::path> path = spec_path(given);
    // By its path, the assignment is its folder's name (a spec's id equals it), for its grader.
    const std::string id = path ? std::filesystem::absolute(*path).parent_path().filename().string() : given;
    const auto yaml = path ? *path : where.assignments() / id / "assignment.yaml";
    if (path && !std::filesystem::is_regular_file(yaml)) {
      std::cerr << yaml.string() << ": no such spec file\n";
      ++bad;
      continue;
    }
    if (!std::filesystem::exists(yaml)) {
      auto unknown = load_assignment(where.assignments(), id);  // for its "did you mean" message
      std::cerr << (unknown ? "unknown assignment " + id : unknown.error().message) << "\n";
      ++bad;
      continue;
    }
    // With its grader, the sizes are checked against what the grader reads and can hold.
    const Grader* grader = find_grader(id);
    const std::optional<SizeRules> rules = grader ? std::optional(size_rules(*grader)) : std::nullopt;
    auto problems = lint_spec_file(yaml, rules ? &*rules : nullptr);
    if (problems.empty() && !grader)
      problems.push_back(yaml.string() + ": no grader is registered for '" + id +
                         "' (add graders/" + id + "/grader.cpp and rebuild)");
    for (const auto& p : problems) std::cerr << p << "\n";
    std::cout << fmt::format("{:<12} {}\n", path ? yaml.string() : id,
                             problems.empty() ? "ok" : fmt::format("{} problem(s)", problems.size()));
    bad += problems.empty() ? 0 : 1;
  }
  return bad == 0 ? exit_ok : exit_invalid_spec;
}

int run_list(const std::vector<std::string>& ids) {
  auto listing = assignment_listing(default_locations(), ids);
  if (!listing) return complain(listing.error().message, exit_invalid_spec);
  std::cout << *listing;
  return exit_ok;
}
}  // namespace

void add_lint_command(CLI::App& app, int& exit_code) {
  auto ids = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("lint", "Check assignment specs (every one, or those named)");
  cmd->footer("Examples:\n  cugrade lint            # every assignment\n  cugrade lint matmul\n"
              "  cugrade lint draft/matmul/assignment.yaml   # a copy, checked against the matmul grader\n"
              "Problems are printed as file:line:column: message; exit 2 when any spec is invalid.");
  cmd->add_option("ids", *ids, "Assignment ids, or paths of spec files (a copy being written: "
                              "draft/matmul/assignment.yaml, or its folder)");
  cmd->callback([ids, &exit_code] { exit_code = run_lint(*ids); });
}

void add_list_command(CLI::App& app, int& exit_code) {
  auto ids = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("list", "List assignments and the steps (entry points) of each");
  cmd->footer("Examples:\n  cugrade list            # every assignment\n  cugrade list matmul nbody");
  cmd->add_option("ids", *ids, "Assignment ids (default: every one)");
  cmd->callback([ids, &exit_code] { exit_code = run_list(*ids); });
}

}  // namespace cugrade
