// `cugrade selftest [id...]`: grade every reference, template and known solution and compare
// each verdict with what it must be.
#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "device/ceilings.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/selftest.hpp"

namespace cugrade {
namespace {
struct SelftestArgs {
  std::vector<std::string> ids;
  std::string backend = "auto";
  bool no_performance = false;
  bool no_sanitizer = false;
  bool no_diagnosis = false;
  bool diagnosis_only = false;
  bool verbose = false;
  std::size_t jobs = 0;
  std::size_t runs_per_gpu = 0;  ///< 0: the default for this machine (default_runs_per_gpu)
};

int run_selftest_command(const SelftestArgs& args) {
  const Locations where = default_locations();
  auto backend = parse_backend(args.backend);
  if (!backend) return complain(backend.error().message, exit_usage);
  auto processes = make_process_runner();
  // One probe for every check: each probe creates a CUDA context, and the GPU does not change.
  CheckContext context{*processes, where};
  if (*backend != Backend::cpu) context.device = find_device(*processes, where);
  // Its lanes share the GPU by turns of their own; other cugrade processes wait for the whole run.
  const std::optional<GpuClaim> claim = context.device ? claim_gpu_for_command(*context.device) : std::nullopt;
  const auto ids = args.ids.empty() ? list_assignments(where.assignments()) : args.ids;
  // Every assignment's entries in one batch: the next one's files build while this one's run.
  std::vector<Spec> specs;
  specs.reserve(ids.size());
  std::vector<SelftestSuite> suites;
  for (const auto& id : ids) {
    auto spec = load_assignment_to_grade(where.assignments(), id);
    if (!spec) return complain(spec.error().message, exit_invalid_spec);
    const Grader* grader = find_grader(id);
    if (!grader) return complain("no grader is registered for " + id, exit_internal);
    auto entries = selftest_entries(where, id);
    if (!entries) return complain(entries.error().message, exit_invalid_spec);
    if (args.diagnosis_only)  // only the slow known-bad solutions whose cause must be named
      std::erase_if(*entries, [](const SelftestEntry& e) { return e.diagnosis.empty(); });
    if (entries->empty()) continue;
    specs.push_back(std::move(*spec));
    suites.push_back({nullptr, grader, std::move(*entries)});
  }
  std::size_t width = 0;
  for (std::size_t s = 0; s < suites.size(); ++s) {
    suites[s].spec = &specs[s];
    width = std::max(width, specs[s].id.size());
    std::cout << fmt::format("{} ({} submissions)\n", specs[s].id, suites[s].entries.size());
  }
  std::cout << std::flush;
  CheckOptions options;
  options.backend = *backend;
  options.performance = !args.no_performance;
  options.sanitizer = !args.no_sanitizer;
  options.diagnosis = !args.no_diagnosis;
  int failures = 0, total = 0;
  const auto started = std::chrono::steady_clock::now();
  // A line per submission as soon as it is judged: a whole run takes minutes. Where its time went
  // follows the line (its own stages, not its wait for a builder or the GPU).
  run_selftest(context, suites, options, [&](const SelftestResult& r) {
    ++total;
    failures += r.ok ? 0 : 1;
    const StageSeconds& t = r.stages;
    std::cout << fmt::format("  {:<4} {:<{}} {:<36} {:<16} {:>6.2f}/{:<6.2f} {:>5.1f} s  {}  (build {:.1f}, run {:.1f}, "
                             "timing {:.1f}, diagnosis {:.1f} s)\n",
                             r.ok ? "ok" : "FAIL", r.assignment, width, r.entry.label, to_string(r.report.outcome),
                             r.report.score, r.report.max_score, r.seconds, r.ok ? r.report.environment.backend : r.why,
                             t.build + t.inputs, t.run, t.timing, t.diagnosis);
    if (!r.beside_others.empty())
      std::cout << fmt::format("       graded again alone: beside other runs on the GPU it got {}\n", r.beside_others);
    if (args.verbose) {
      for (const std::string& phases : r.timing_phases) std::cout << "       " << phases << "\n";
      for (const std::string& note : r.report.notes)  // the sanitizer pass's tools and seconds
        if (note.starts_with("compute-sanitizer (")) std::cout << "       " << note << "\n";
    }
    std::cout << std::flush;
  }, {args.jobs, args.runs_per_gpu, default_cache_dir() / "selftest-seconds.json",
        where.root / "graders" / "selftest-seconds.json"});
  std::cout << fmt::format("selftest: {} passed, {} failed in {:.0f} s\n", total - failures, failures,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return failures == 0 ? exit_ok : exit_selftest_failed;
}
}  // namespace

void add_selftest_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SelftestArgs>();
  CLI::App* cmd = app.add_subcommand("selftest", "Grade every reference, template and known solution; exit 5 on any unexpected verdict");
  cmd->footer("Examples:\n  cugrade selftest                 # every assignment, GPU if usable\n"
              "  cugrade selftest matmul --backend cpu\n"
              "Expectations live in graders/<id>/solutions/expected.yaml.");
  cmd->add_option("ids", args->ids, "Assignment ids (default: all)");
  cmd->add_option("-b,--backend", args->backend, "auto, cuda or cpu")->capture_default_str();
  cmd->add_flag("--no-performance", args->no_performance, "Skip the timed performance targets");
  cmd->add_flag("--no-sanitizer", args->no_sanitizer,
                "Skip compute-sanitizer on the visible cases (GPU only): faster, but bad accesses and races whose numbers came out right go unseen");
  cmd->add_flag("--no-diagnosis", args->no_diagnosis,
                "Skip the performance diagnosis and the expectations of it (expected.yaml's diagnosis:; "
                "without it, only the steps an entry names a cause for are profiled)");
  cmd->add_flag("--diagnosis-only", args->diagnosis_only,
                "Only the entries whose expected.yaml names a diagnosis (the slow known-bad solutions)");
  cmd->add_flag("-v,--verbose", args->verbose,
                "Under each submission's line, where each timed step's time went (its runners' start, "
                "loading, warm-up, sampling, baselines) and the compute-sanitizer pass's (each tool's seconds)");
  cmd->add_option("-j,--jobs", args->jobs, "Builds at a time (default: one per core)")
      ->check(CLI::Range(1, 1024).description(""))
      ->type_name("N");
  cmd->add_option("--runs-per-gpu", args->runs_per_gpu,
                  "Submissions run side by side on the GPU: their cases and sanitizer passes N at a time, "
                  "then each timing and diagnosis with the GPU alone, once no case is left to run (the "
                  "longest start first, by the last run's times kept in cugrade's cache folder); "
                  "one that misses its expectation is graded again alone. 1 to 64; default: 3 per 8 "
                  "cores, at most 6, and half as many again once every submission is built; 1: one at a time")
      ->check(CLI::Range(1, 64).description(""))
      ->type_name("N");
  cmd->callback([args, &exit_code] { exit_code = run_selftest_command(*args); });
}

}  // namespace cugrade
