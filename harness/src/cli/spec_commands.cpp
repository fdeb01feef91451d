// `cugrade lint` and `cugrade list`: the assignment specs, checked and described.
#include <iostream>
#include <optional>

#include <fmt/format.h>

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

int run_list() {
  const Locations where = default_locations();
  for (const auto& id : list_assignments(where.assignments())) {
    auto spec = load_assignment(where.assignments(), id);
    if (!spec) {
      std::cout << fmt::format("{:<12} (invalid spec: run `cugrade lint {}`)\n", id, id);
      continue;
    }
    std::cout << fmt::format("{:<12} {}\n", spec->id, spec->title);
    std::size_t reference_only = 0;
    for (const auto& step : spec->steps) {
      // Students write only the steps of interface.cuh; the others are the course's own.
      if (step.reference_only) {
        ++reference_only;
        continue;
      }
      std::string timed;
      for (const auto& p : spec->performance)
        if (p.step == step.name) timed = fmt::format("  [timed at {}, {} pts]", params_to_string(p.params), p.points);
      std::cout << fmt::format("    {:<10} {:<24} {}{}\n", step.name, step.entry + "()", step.description, timed);
    }
    if (reference_only > 0)
      std::cout << fmt::format("    (and {} reference-only step{} the course's reference implements)\n",
                               reference_only, reference_only == 1 ? "" : "s");
  }
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
  CLI::App* cmd = app.add_subcommand("list", "List assignments and the steps (entry points) of each");
  cmd->footer("Example:\n  cugrade list");
  cmd->callback([&exit_code] { exit_code = run_list(); });
}

}  // namespace cugrade
