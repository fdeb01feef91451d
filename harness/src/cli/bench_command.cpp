// `cugrade bench [id...]`: the lectures' tables reproduced on this GPU (each assignment's
// `bench:` section), printed and written as JSON and Markdown.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/bench_json.hpp"
#include "bench/bench_text.hpp"
#include "bench/run_bench.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/config.hpp"
#include "core/utc_time.hpp"
#include "pipeline/environment.hpp"
#include "report/report_targets.hpp"

namespace cugrade {
namespace {

struct BenchArgs {
  std::vector<std::string> ids;
  std::vector<std::string> reports;
  std::string keep_work;
  double budget_s = 2.0;
  std::size_t min_samples = 10;
  std::size_t max_samples = 100;
  bool no_cpu_rate = false;
  bool quiet = false;
};

/// One assignment to bench, loaded and with its grader.
struct Benched {
  Spec spec;
  const Grader* grader;
};

/// The assignments to bench: those named (each must have a `bench:` section), else every
/// assignment that has one.
Result<std::vector<Benched>> assignments_to_bench(const Locations& where,
                                                  const std::vector<std::string>& ids, int& code) {
  const bool all = ids.empty();
  std::vector<Benched> chosen;
  for (const auto& id : all ? list_assignments(where.assignments()) : ids) {
    auto spec = load_assignment_to_grade(where.assignments(), id);
    if (!spec) {
      code = exit_invalid_spec;
      return std::unexpected(spec.error());
    }
    if (spec->bench.empty()) {
      if (all) continue;
      code = exit_usage;
      return fail("assignment " + id + " has no bench tables (a `bench:` section in assignments/" +
                  id + "/assignment.yaml; see docs/assignment-spec.md)");
    }
    const Grader* grader = find_grader(id);
    if (!grader) {
      code = exit_internal;
      return fail("assignment " + id + " has no grader compiled into this cugrade");
    }
    chosen.push_back({std::move(*spec), grader});
  }
  if (chosen.empty()) {
    code = exit_usage;
    return fail("no assignment has bench tables (a `bench:` section in its assignment.yaml)");
  }
  return chosen;
}

/// The --report targets; bench tables come as console text, JSON or Markdown only.
Result<std::vector<ReportTarget>> bench_targets(const std::vector<std::string>& given, bool quiet) {
  auto targets = parse_report_targets(given);
  if (!targets) return targets;
  for (const auto& target : *targets)
    if (target.kind != ReportKind::console && target.kind != ReportKind::json &&
        target.kind != ReportKind::markdown)
      return fail(fmt::format("--report {}={}: cugrade bench writes console, json or markdown, "
                              "not {}", to_string(target.kind), target.path, to_string(target.kind)));
  if (auto writable = check_report_targets(*targets); !writable) return std::unexpected(writable.error());
  if (!quiet && std::none_of(targets->begin(), targets->end(),
                             [](const ReportTarget& t) { return t.kind == ReportKind::console; }))
    targets->push_back(ReportTarget{ReportKind::console, "-"});
  return targets;
}

std::string render(const BenchReport& report, ReportKind kind) {
  switch (kind) {
    case ReportKind::json: return bench_to_json(report).dump(2) + "\n";
    case ReportKind::markdown: return render_bench_markdown(report);
    default: return render_bench_console(report);
  }
}

int run_bench_command(const BenchArgs& args) {
  const Locations where = default_locations();
  int code = exit_ok;
  auto chosen = assignments_to_bench(where, args.ids, code);
  if (!chosen) return complain(chosen.error().message, code);
  auto targets = bench_targets(args.reports, args.quiet);
  if (!targets) return complain(targets.error().message, exit_usage);
  if (!(args.budget_s > 0.0) || args.min_samples < 1 || args.max_samples < args.min_samples)
    return complain("--budget must be > 0 s and 1 <= --min-samples <= --max-samples", exit_usage);

  auto processes = make_process_runner();
  const DeviceInfo device = find_device(*processes, where);
  const std::optional<GpuClaim> claim = claim_gpu_for_command(device);  // every row timed alone
  // Why no CPU fallback: the CPU backend runs kernels one CUDA thread per fiber, so its times say
  // nothing about a GPU; a table of them would look like figures and be none.
  if (!device.present())
    return complain(
        "no GPU to time the reference kernels on (" +
            (device.error.empty() ? std::string("the CUDA runtime found no device") : device.error) +
            "). `cugrade bench` measures the lecture tables on an NVIDIA GPU only; the CPU backend "
            "checks kernels for correctness but does not time them (`cugrade selftest --backend "
            "cpu` checks every reference).",
        exit_usage);

  auto progress = [&args](const std::string& line) {
    if (!args.quiet) std::cerr << "cugrade: " << line << "\n";
  };
  if (!load_cached_ceilings(default_cache_dir(), device.name, device.driver_version))
    progress("measuring this GPU's ceilings (once per GPU and driver, then cached) ...");
  BenchReport report;
  report.cugrade_version = config::version;
  report.started_at = utc_now_iso8601();
  report.environment = describe_environment("cuda", device, nvcc_version(*processes, where));
  report.ceilings = ceilings_for(*processes, where, device);
  report.settings.budget_s = args.budget_s;
  report.settings.min_samples = args.min_samples;
  report.settings.max_samples = args.max_samples;

  BenchOptions options;
  options.settings = report.settings;
  options.cpu_rate = !args.no_cpu_rate;
  options.progress = progress;
  for (const auto& [spec, grader] : *chosen) {
    if (!args.keep_work.empty()) options.work_dir = absolute_path(args.keep_work) / spec.id;
    options.keep_work_dir = !args.keep_work.empty();
    report.assignments.push_back(
        bench_assignment(BenchContext{*processes, where, device, report.ceilings}, spec, *grader, options));
  }

  std::vector<std::pair<ReportTarget, std::string>> rendered;
  for (const auto& target : *targets) rendered.emplace_back(target, render(report, target.kind));
  if (auto written = write_rendered(rendered); !written)
    return complain(written.error().message, exit_internal);
  // The references are cugrade's own: a row that could not be timed is a fault of cugrade.
  return report.has_failures() ? exit_internal : exit_ok;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Reproduce the lectures' tables on this GPU: every reference kernel, timed");
  cmd->footer(
      "Examples:\n"
      "  cugrade bench                                   # every assignment with bench tables\n"
      "  cugrade bench transpose reduction\n"
      "  cugrade bench --report json=bench.json --report markdown=bench.md\n"
      "  cugrade bench vecadd --budget 0.2 --no-cpu-rate  # quick\n"
      "Each row times the reference of one lecture step alone (warm-up, L2 flush before every\n"
      "sample, at least --min-samples, until 0.5 % relative standard error or --budget seconds)\n"
      "and shows the median, the rate, % of this GPU's ceiling (`cugrade calibrate`), the speedup\n"
      "over the row above, and Rate: the grader's CPU gold on one core over the GPU's time.\n"
      "Needs an NVIDIA GPU: without one it says so and exits 1. Exit 3 when a row could not be\n"
      "timed. Tables come from each assignment's `bench:` section (docs/assignment-spec.md).");
  cmd->add_option("ids", args->ids, "Assignment ids (default: every one with bench tables)");
  cmd->add_option("-r,--report", args->reports,
                  "Also write the tables: KIND=PATH with KIND console, json or markdown (PATH - is "
                  "stdout); repeatable");
  cmd->add_option("--budget", args->budget_s, "Seconds of sampling per row at most")
      ->capture_default_str();
  cmd->add_option("--min-samples", args->min_samples, "Samples per row at least")->capture_default_str();
  cmd->add_option("--max-samples", args->max_samples, "Samples per row at most")->capture_default_str();
  cmd->add_flag("--no-cpu-rate", args->no_cpu_rate, "Do not time the CPU gold (no Rate column)");
  cmd->add_option("--keep-work", args->keep_work,
                  "Build and run in this folder (one subfolder per assignment) and keep it");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines and no console table unless asked for");
  cmd->callback([args, &exit_code] { exit_code = run_bench_command(*args); });
}

}  // namespace cugrade
