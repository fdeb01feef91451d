// `cugrade lint` and `cugrade list`: the assignment specs, checked and described.
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "cli/assignment_listing.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "graders/grader.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/reference_error.hpp"
#include "spec/lint.hpp"
#include "spec/measured_error.hpp"

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

/// What `cugrade lint` was asked for beyond the ids.
struct LintArgs {
  std::vector<std::string> ids;
  bool measure = false;       ///< --measure-tolerance: run the reference first and keep its error
  std::string backend = "cpu";  ///< where it is measured
};

/// graders/<id>/reference_error.yaml: the reference's measured error (spec/measured_error.hpp).
std::filesystem::path measured_error_file(const Locations& where, const std::string& id) {
  return where.root / "graders" / id / "reference_error.yaml";
}

/// Runs the reference of `id` on `backend` and keeps its error per step and size in its file;
/// false (said on stderr) when it cannot.
bool measure_tolerance(const Locations& where, const std::string& id, Backend backend) {
  auto spec = load_assignment_to_grade(where.assignments(), id);
  const Grader* grader = find_grader(id);
  if (!spec || !grader) {
    std::cerr << (spec ? "no grader is registered for " + id : spec.error().message) << "\n";
    return false;
  }
  auto processes = make_process_runner();
  CheckContext context{*processes, where};
  if (backend != Backend::cpu) context.device = find_device(*processes, where);
  const std::optional<GpuClaim> claim = context.device ? claim_gpu_for_command(*context.device) : std::nullopt;
  CheckOptions options;
  options.backend = backend;
  std::cerr << fmt::format("{}: measuring the reference's error on every case ({} backend) ...\n", id, to_string(backend));
  auto measured = measure_reference_error(context, *spec, *grader, options);
  if (!measured) {
    std::cerr << id << ": " << measured.error().message << "\n";
    return false;
  }
  const auto file = measured_error_file(where, id);
  auto earlier = load_measured_errors(file);
  if (!earlier) {
    std::cerr << earlier.error().message << " (not replaced)\n";
    return false;
  }
  const std::vector<std::string> skipped = measured->not_measured;
  const auto written = write_file_atomically(file, measured_errors_yaml(with_backend(std::move(*earlier), std::move(*measured))));
  if (!written) {
    std::cerr << file.string() << ": " << written.error().message << "\n";
    return false;
  }
  for (const auto& size : skipped)
    std::cerr << fmt::format("{}: {}: the timed size took longer than the measurement allows on this backend: "
                             "not measured (measure it with --backend cuda)\n",
                             id, size);
  std::cerr << fmt::format("{}: written {}\n", id, file.string());
  return true;
}

int run_lint(const LintArgs& args) {
  const std::vector<std::string>& ids = args.ids;
  const Locations where = default_locations();
  std::optional<Backend> backend;
  if (args.measure) {
    auto parsed = parse_backend(args.backend);
    if (!parsed || *parsed == Backend::automatic)
      return complain("--backend: cpu or cuda (the backend the reference is measured on)", exit_usage);
    backend = *parsed;
  }
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
    if (problems.empty() && backend && !path && !measure_tolerance(where, id, *backend)) ++bad;
    // Each tolerance beside the reference's own error (an assignment's, not a draft copy's).
    std::vector<std::string> tolerances;
    if (problems.empty() && grader && !path) {
      const auto spec = load_assignment(where.assignments(), id);
      const auto file = measured_error_file(where, id);
      const auto measured = load_measured_errors(file);
      if (!measured) problems.push_back(measured.error().message);
      else if (spec) {
        const auto relative = std::filesystem::relative(file, where.root).string();
        for (auto& p : tolerance_problems(*spec, *measured, relative)) problems.push_back(std::move(p));
        tolerances = tolerance_lines(*spec, *measured);
      }
    }
    for (const auto& p : problems) std::cerr << p << "\n";
    std::cout << fmt::format("{:<12} {}\n", path ? yaml.string() : id,
                             problems.empty() ? "ok" : fmt::format("{} problem(s)", problems.size()));
    for (const auto& line : tolerances) std::cout << line << "\n";
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
  auto args = std::make_shared<LintArgs>();
  CLI::App* cmd = app.add_subcommand("lint", "Check assignment specs (every one, or those named), and each step's "
                                             "tolerance against the reference's own error");
  cmd->footer("Examples:\n  cugrade lint            # every assignment\n  cugrade lint matmul\n"
              "  cugrade lint draft/matmul/assignment.yaml   # a copy, checked against the matmul grader\n"
              "  cugrade lint nbody --measure-tolerance      # run the reference on every case (CPU backend), keep its error\n"
              "  cugrade lint nbody --measure-tolerance --backend cuda   # the same on this GPU\n"
              "Each step's tolerance is listed beside the reference's largest error, measured on every case against\n"
              "the gold (graders/<id>/reference_error.yaml); a tolerance more than 6 times that error (arithmetic of\n"
              "lower precision would pass) or less than 2 times is a problem, and the message says what 4 times is.\n"
              "Problems are printed as file:line:column: message; exit 2 when any spec is invalid.");
  cmd->add_option("ids", args->ids, "Assignment ids, or paths of spec files (a copy being written: "
                                    "draft/matmul/assignment.yaml, or its folder)");
  cmd->add_flag("--measure-tolerance", args->measure,
                "First run the reference on every case (the hidden sizes too) and write its error per step and size "
                "to graders/<id>/reference_error.yaml (that backend's part)");
  cmd->add_option("-b,--backend", args->backend, "Where --measure-tolerance runs the reference: cpu or cuda")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run_lint(*args); });
}

void add_list_command(CLI::App& app, int& exit_code) {
  auto ids = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("list", "List assignments and the steps (entry points) of each");
  cmd->footer("Examples:\n  cugrade list            # every assignment\n  cugrade list matmul nbody");
  cmd->add_option("ids", *ids, "Assignment ids (default: every one)");
  cmd->callback([ids, &exit_code] { exit_code = run_list(*ids); });
}

}  // namespace cugrade
