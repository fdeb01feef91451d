// `cugrade check <assignment> --submission FILE...`: grade one submission and report it.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <iostream>
#include <sstream>

#include "batch/ungraded_report.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/fail_under.hpp"
#include "pipeline/check_submission.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/submission_files.hpp"
#include "report/report_targets.hpp"

namespace cugrade {
namespace {
namespace fs = std::filesystem;

struct CheckArgs {
  std::string assignment;
  std::vector<std::string> submission;
  std::string backend = "auto";
  std::string arch;
  std::vector<std::string> reports;
  std::optional<std::string> fail_under;  ///< as given: "" too is a bar, and a wrong one
  std::string secret_file;
  std::string keep_work;
  bool no_performance = false;
  bool no_sanitizer = false;
  bool no_diagnosis = false;
  bool no_color = false;
  bool quiet = false;
  bool verbose = false;
};

/// Each submitted file's name as reports show it, mapped to its path from the repository's root
/// ($GITHUB_WORKSPACE in a workflow, else the current folder), for GitHub annotations.
std::map<std::string, std::string> repository_paths(const std::vector<SubmissionFile>& files) {
  std::error_code ec;
  const char* workspace = std::getenv("GITHUB_WORKSPACE");
  const fs::path root = workspace && *workspace ? fs::path(workspace) : fs::current_path(ec);
  std::map<std::string, std::string> paths;
  for (const auto& file : files) {
    const fs::path relative = fs::absolute(file.path, ec).lexically_normal().lexically_relative(root.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") paths.emplace(file.path.filename().string(), relative.generic_string());
  }
  return paths;
}

int run_check(const CheckArgs& args) {
  const Locations where = default_locations();
  auto spec = load_assignment_to_grade(where.assignments(), args.assignment);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  const Grader* grader = find_grader(spec->id);
  if (!grader) return complain("assignment " + spec->id + " has no grader compiled into this cugrade", exit_internal);
  // A name that does not exist is the caller's mistake; a file that is not data (a link, a pipe,
  // past the size limit) is the submission's, and gets a report saying so.
  auto files = list_submission_files(args.submission);
  if (!files) return complain(files.error().message, exit_usage);
  auto targets = parse_report_targets(args.reports);
  if (!targets) return complain(targets.error().message, exit_usage);
  if (auto writable = check_report_targets(*targets); !writable) return complain(writable.error().message, exit_usage);
  // The bar is checked now, not after minutes of grading (its points need the maximum).
  std::optional<FailUnder> bar;
  if (args.fail_under) {
    auto parsed = parse_fail_under(*args.fail_under);
    if (!parsed) return complain(parsed.error().message, exit_usage);
    bar = *parsed;
  }
  auto backend = parse_backend(args.backend);
  if (!backend) return complain(backend.error().message, exit_usage);
  auto secret = course_secret(args.secret_file);
  if (!secret) return complain(secret.error().message, exit_usage);

  CheckOptions options;
  // Paths absolute once, here: the build runs in another folder.
  for (const auto& file : *files) options.submission.push_back(absolute_path(file.path.string()));
  options.backend = *backend;
  options.arch = args.arch;
  options.course_secret = std::move(*secret);
  options.performance = !args.no_performance;
  options.sanitizer = !args.no_sanitizer;
  options.diagnosis = !args.no_diagnosis;
  options.work_dir = absolute_path(args.keep_work);
  options.keep_work_dir = !args.keep_work.empty();
  if (!args.quiet) options.progress = [](const std::string& line) { std::cerr << "cugrade: " << line << "\n"; };

  auto processes = make_process_runner();
  CheckContext context{*processes, where};
  // --backend cuda without a usable GPU grades nothing: a harness error, said once.
  std::string no_gpu;
  if (*backend == Backend::cuda) {
    context.device = find_device(*processes, where);
    if (!context.device->present()) no_gpu = no_gpu_message(*context.device);
  }
  const Result<bool> data = check_submission_files(*files, spec->limits);
  const GradeReport report = !no_gpu.empty() ? harness_failure_report(*spec, options, true, no_gpu)
                             : data          ? check_submission(context, *spec, *grader, options)
                                    : unbuildable_report(*spec, options, *backend == Backend::cuda, data.error().message);
  if (!no_gpu.empty()) complain(no_gpu, exit_internal);

  std::vector<ReportTarget> all = *targets;
  // A fault of cugrade's is not a grade: no Gradescope result (Gradescope then shows the run as
  // failed, to be rerun, instead of a score of 0); PrairieLearn's says gradable: false.
  if (report.outcome == Outcome::harness_error)
    std::erase_if(all, [](const ReportTarget& t) {
      if (t.kind != ReportKind::gradescope) return false;
      complain("no Gradescope result written to " + t.path + ": this was a harness error, not a grade", exit_internal);
      return true;
    });
  if (!args.quiet && std::none_of(all.begin(), all.end(), [](const ReportTarget& t) { return t.kind == ReportKind::console; }))
    all.push_back(ReportTarget{ReportKind::console, "-"});
  const bool colour = !args.no_color && isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  if (auto written = write_reports(report, all, colour, false, repository_paths(*files),
                                    args.verbose ? ConsoleDetail::every_case : ConsoleDetail::summary); !written)
    return complain(written.error().message, exit_internal);

  if (report.outcome == Outcome::harness_error) return exit_internal;
  if (bar)
    if (const std::string below = below_bar_message(*bar, report.score, report.max_score, report.gradable, report.outcome);
        !below.empty())
      return complain(below, exit_below_bar);
  return exit_ok;
}
}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Build, test, time and grade one submission");
  cmd->footer(
      "Examples:\n"
      "  cugrade check vecadd --submission vecadd.cu\n"
      "  cugrade check matmul -s my_matmul.cu --report json=out.json --report markdown=summary.md\n"
      "  cugrade check matmul -s my_matmul.cu --backend cpu          # no GPU: correctness only\n"
      "  cugrade check matmul -s my_matmul.cu -v                     # every case, not only each step\n"
      "  cugrade check matmul -s my_matmul.cu --fail-under 80%       # CI: exit 4 below 80 %\n"
      "Hidden cases run when a course secret is given ($CUGRADE_COURSE_SECRET or --secret-file).");
  cmd->add_option("assignment", args->assignment, "Assignment id (see `cugrade list`)")->required();
  cmd->add_option("-s,--submission", args->submission, "The .cu file(s), or a folder of them")->required();
  cmd->add_option("-b,--backend", args->backend, "auto (GPU if usable, else CPU), cuda, or cpu")
      ->capture_default_str();
  cmd->add_option("--arch", args->arch, "GPU architecture for nvcc, e.g. sm_90 (default: this GPU's)");
  cmd->add_option("-r,--report", args->reports,
                  "Also write a report: KIND=PATH with KIND console, json, markdown, html, junit, gradescope, "
                  "prairielearn, github or classroom50 (Classroom 50's result.json, inside its runner) (PATH - is stdout); "
                  "repeatable");
  cmd->add_option("--fail-under", args->fail_under, "Exit 4 when the score is below this (points, or N%)");
  cmd->add_option("--secret-file", args->secret_file, "File holding the course secret (enables hidden cases)");
  cmd->add_option("--keep-work", args->keep_work, "Build and run in this folder and keep it (for debugging)");
  cmd->add_flag("--no-performance", args->no_performance, "Skip the timed performance targets");
  cmd->add_flag("--no-sanitizer", args->no_sanitizer,
                "Skip compute-sanitizer on the visible cases (GPU only): faster, but bad accesses and races whose numbers came out right go unseen");
  cmd->add_flag("--no-diagnosis", args->no_diagnosis,
                "Skip the performance diagnosis (Nsight Compute's counters of each step below full credit, beside the reference's: the cause named beside the ratio)");
  cmd->add_flag("--no-color", args->no_color, "No ANSI colour in the console report");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines and no console report unless asked for");
  cmd->add_flag("-v,--verbose", args->verbose,
                "Every case in the console report (alike failures on one line), not only one row per step");
  cmd->callback([args, &exit_code] { exit_code = run_check(*args); });
}

}  // namespace cugrade
