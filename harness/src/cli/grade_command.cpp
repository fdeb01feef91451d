// `cugrade grade <assignment> --submissions DIR --out DIR`: grade a whole class.
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <cstdlib>
#include <thread>
#include <iostream>

#include "batch/batch_summary.hpp"
#include "batch/deadline.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/grade_batch.hpp"
#include "batch/lane_claims.hpp"
#include "batch/progress.hpp"
#include "cli/cli_support.hpp"
#include "cli/grade_args.hpp"
#include "cli/late_options.hpp"
#include "cli/commands.hpp"
#include "cli/similarity_option.hpp"
#include "pipeline/environment.hpp"
#include "process/sandbox.hpp"

namespace cugrade {
namespace {

/// Set by the first SIGINT or SIGTERM: no new submission starts, the gradebook is still written.
std::atomic<bool> stop_requested{false};

extern "C" void request_stop(int) { stop_requested.store(true); }

/// The first Ctrl-C stops gracefully; SA_RESETHAND makes the second one end the process at once
/// (nothing is lost either way: a result is on disk whole, or not at all).
void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int run_grade(const GradeArgs& args) {
  // The cluster's options belong to --slurm; --shard is one part of a local run.
  if (!args.slurm && (args.shards || !args.slurm_args.empty() || args.no_wait))
    return complain("--shards, --slurm-arg and --no-wait go with --slurm", exit_usage);
  if ((args.slurm || args.collect) && !args.shard.empty())
    return complain("--shard grades one part here; --slurm and --collect work on the whole class", exit_usage);
  if (args.slurm && args.collect)
    return complain("--collect only writes the gradebook; --slurm grades (and collects at its end)", exit_usage);
  if (args.similarity && (args.slurm || args.collect || !args.shard.empty()))
    return complain("--similarity compares the whole class on this machine: run `cugrade similarity " + args.assignment +
                        " -S DIR -o OUT` (no GPU needed) beside --slurm, --collect or --shard",
                    exit_usage);
  if (args.collect) return run_grade_collect(args);
  if (args.slurm) return run_grade_on_slurm(args);
  std::optional<Shard> shard;
  if (!args.shard.empty()) {
    auto parsed = parse_shard(args.shard);
    if (!parsed) return complain(parsed.error().message, exit_usage);
    shard = *parsed;
  }
  const Locations where = default_locations();
  auto spec = load_assignment_to_grade(where.assignments(), args.assignment);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  const Grader* grader = find_grader(spec->id);
  if (!grader) return complain("assignment " + spec->id + " has no grader compiled into this cugrade", exit_internal);
  auto backend = parse_backend(args.backend);
  if (!backend) return complain(backend.error().message, exit_usage);
  auto secret = course_secret(args.secret_file);
  if (!secret) return complain(secret.error().message, exit_usage);
  auto style = progress_style(args);
  if (!style) return complain(style.error().message, exit_usage);
  // A class is graded sealed or not at all, unless asked for (every report then says so).
  if (const SandboxStatus& sandbox = sandbox_status(); !sandbox.works && !args.allow_unsealed)
    return complain("the sandbox does not work here, so the students' code would run with your rights: " +
                        sandbox.reason + "\n  fix: " + sandbox.fix +
                        "\n  (--allow-unsealed grades anyway, every report saying \"not sealed\")",
                    exit_usage);

  BatchOptions options;
  // Absolute once, here: the builds run in other folders (work/<student>/build).
  options.submissions = absolute_path(args.submissions);
  options.out = absolute_path(args.out);
  // Its results/, students/ and work/ would be the next run's students.
  std::error_code out_ec, submissions_ec;
  if (std::filesystem::weakly_canonical(options.out, out_ec) ==
      std::filesystem::weakly_canonical(options.submissions, submissions_ec))
    return complain("--out is the submissions folder itself: the gradebook and reports need a folder of their own "
                    "(e.g. --out hw2-grades/ beside --submissions hw2/)",
                    exit_usage);
  options.jobs = args.jobs;
  options.regrade = args.regrade;
  options.keep_work = args.keep_work;
  options.shard = shard;
  options.check.backend = *backend;
  options.check.arch = args.arch;
  options.check.course_secret = std::move(*secret);
  options.leaderboard_names = args.leaderboard_names;
  options.check.performance = !args.no_performance;
  options.check.sanitizer = !args.no_sanitizer;
  options.check.diagnosis = !args.no_diagnosis;
  if (!args.deadline.empty()) {
    auto deadline = parse_deadline(args.deadline);
    if (!deadline) return complain(deadline.error().message, exit_usage);
    options.deadline_unix = *deadline;
  }
  auto late = late_plan_of(args, options.deadline_unix);  // before anything is graded
  if (!late) return complain(late.error().message, exit_usage);
  options.late = std::move(*late);

  auto processes = make_process_runner();
  CheckContext context{*processes, where};
  if (*backend != Backend::cpu) {
    context.device = find_device(*processes, where);  // once for the whole class
    // Nothing to grade on: said once, no student gets a result (not 0 points for everyone).
    if (*backend == Backend::cuda && !context.device->present())
      return complain(no_gpu_message(*context.device), exit_internal);
    options.gpu_lanes = gpu_lanes_for(context.device->device_count, std::getenv("CUDA_VISIBLE_DEVICES"));
    options.runs_per_gpu = args.runs_per_gpu ? args.runs_per_gpu
                                             : default_grade_runs_per_gpu(std::max(1u, std::thread::hardware_concurrency()),
                                                                          static_cast<std::uint64_t>(std::max<std::int64_t>(0, context.device->total_global_mem)),
                                                                          spec->limits.gpu_memory_bytes);
  }
  // Before grading: a missing tool is said before a long batch, and summary.html links the page.
  if (args.similarity) {
    auto similar = class_similarity_for(*processes, where, *spec, options.submissions, options.out,
                                        args.similarity_flags, args.keep_work);
    if (!similar) return complain("--similarity: " + similar.error().message, exit_usage);
    if (!args.quiet) std::cerr << describe_similarity(*similar);
  }
  install_stop_handlers();
  options.stop = &stop_requested;

  winsize terminal{};
  const std::size_t columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &terminal) == 0 ? terminal.ws_col : 0;
  BatchProgress progress(std::cerr, *style, {}, columns);
  BatchCallbacks callbacks;
  callbacks.log = [&progress](const std::string& line) { progress.log(line); };
  callbacks.planned = [&progress](std::size_t students, std::size_t to_grade) { progress.planned(students, to_grade); };
  callbacks.finished = [&progress](const StudentRecord& record) { progress.finished(record); };
  auto summary = grade_batch(context, *spec, *grader, options, callbacks);
  progress.close();
  if (!summary) return complain(summary.error().message, exit_usage);
  if (!args.quiet) std::cout << render_batch_summary(*summary, spec->id, options.out) << std::flush;
  if (!summary->harness_errors.empty()) return exit_internal;
  if (summary->stopped) return exit_interrupted;
  return exit_ok;
}

}  // namespace

Result<ProgressStyle> progress_style(const GradeArgs& args) {
  if (args.quiet || args.progress == "none") return ProgressStyle::none;
  if (args.progress == "bar") return ProgressStyle::bar;
  if (args.progress == "lines") return ProgressStyle::lines;
  if (args.progress != "auto") return fail("--progress '" + args.progress + "': choose auto, bar, lines or none");
  const char* term = std::getenv("TERM");
  const bool terminal = isatty(STDERR_FILENO) && !(term && std::string(term) == "dumb");
  return terminal ? ProgressStyle::bar : ProgressStyle::lines;
}

void add_grade_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GradeArgs>();
  CLI::App* cmd = app.add_subcommand("grade", "Grade a whole class: a gradebook, a report per student, a summary");
  cmd->footer(
      "SUBMISSIONS holds one folder, .zip or .tar.gz per student; the student id is its name.\n"
      "Examples:\n"
      "  cugrade grade matmul --submissions hw2/ --out hw2-grades/\n"
      "  cugrade grade matmul -S hw2/ -o hw2-grades/ --deadline '2026-03-01T23:59'   # adds a late column\n"
      "  cugrade grade vecadd -S hw1/ -o hw1-grades/ --backend cpu -j 8              # no GPU: correctness only\n"
      "  cugrade grade matmul -S hw2/ -o hw2-grades/ --regrade alice,bob             # these two again\n"
      "  cugrade grade matmul -S hw2/ -o hw2-grades/ --deadline '2026-03-01T23:59' \\\n"
      "      --late-policy 'grace=15m,per-day=10%,max-days=3' --extensions extensions.csv\n"
      "                                         # a penalty per started day late; extensions.csv: student,deadline\n"
      "  cugrade grade matmul -S hw2/ -o hw2-grades/ --slurm --slurm-arg=--partition=gpu --secret-file ~/.hw2-secret\n"
      "                                         # on a Slurm cluster's login node: a job array, then the gradebook\n"
      "Run it again after an interruption (or with new submissions): it grades only what is missing\n"
      "or changed. Writes OUT/gradebook.csv, OUT/summary.html, OUT/leaderboard.{html,csv} (per timed step, the\n"
      "kernel times of sealed GPU runs that passed every case, ranked, under pseudonyms keyed by the course\n"
      "secret), OUT/students/<id>/report.{json,md,html,...} (each naming the student's own pseudonym).\n"
      "A student graded again (their files, the spec, the secret, the backend or cugrade's build changed; or\n"
      "--regrade) whose score changed gets a row in OUT/regrade.csv: old, new, which steps, what changed.\n"
      "Exit code 3 when some submission hit a harness error (listed at the end; a rerun retries it).");
  cmd->add_option("assignment", args->assignment, "Assignment id (see `cugrade list`)")->required();
  cmd->add_option("-S,--submissions", args->submissions, "Folder with one folder or archive per student (or Canvas's \"Download Submissions\" or Blackboard's \"Assignment File Download\", unzipped)")
      ->required();
  cmd->add_option("-o,--out", args->out, "Folder for the gradebook, the reports and the batch's state")->required();
  cmd->add_option("-j,--jobs", args->jobs, "Builds at a time (CPU backend: whole checks); default: the core count")
      ->check(CLI::Range(1, 1024).description(""))
      ->type_name("N");
  cmd->add_option("--runs-per-gpu", args->runs_per_gpu,
                  "Submissions whose cases and compute-sanitizer passes share each GPU; each is timed and profiled "
                  "with the GPU alone, and every case that did not pass beside others is run again alone before it "
                  "counts. 1: one submission at a time. Default: by the cores (3 per 8, at most 6) and the GPU's "
                  "memory (4 runners of limits.gpu_memory_mb each)")
      ->check(CLI::Range(1, 64).description(""))
      ->type_name("N");
  cmd->add_option("-b,--backend", args->backend, "auto (GPU if usable, else CPU), cuda, or cpu")->capture_default_str();
  cmd->add_option("--arch", args->arch, "GPU architecture for nvcc, e.g. sm_90 (default: this GPU's)");
  cmd->add_option("--regrade", args->regrade, "Grade again even if up to date: everyone, or a comma-separated list")
      ->expected(0, 1)
      ->default_str("");
  cmd->add_option("--deadline", args->deadline,
                  "Due time (2026-03-01T23:59, local time unless Z or +01:00): adds submitted_at, submitted_from "
                  "and late columns; the hand-in time is the last git commit's (where every file graded is as "
                  "committed), else Gradescope's submission_metadata.json (beside a folder submission/ holding "
                  "the files, not in an archive), else the archive's entries, else the files' modification times");
  cmd->add_option("--late-policy", args->late_policy,
                  "With --deadline: what lateness costs, e.g. \"grace=15m,per-day=10%,max-days=3\": no penalty up to "
                  "the grace after the deadline, then per-day percent of the raw score per started day (24 h) after "
                  "it, and past max-days not accepted (final score 0, late_outcome too_late). The gradebook then shows "
                  "raw_score, penalty and score (the final). Only a time from git, the LMS or the archive's entries is "
                  "charged: a submission with none is not penalised and is listed (late_outcome time_unknown)")
      ->type_name("POLICY");
  cmd->add_option("--extensions", args->extensions,
                  "With --deadline: a CSV file with the header student,deadline (more columns allowed) giving some "
                  "students their own deadline (the forms --deadline takes); an unknown student, a bad date or a "
                  "deadline before the class's is an error before anything is graded")
      ->type_name("FILE.csv");
  cmd->add_option("--secret-file", args->secret_file, "File holding the course secret (enables hidden cases)");
  cmd->add_flag("--leaderboard-names", args->leaderboard_names,
                "Name students by their ids on OUT/leaderboard.html and .csv (a page for the course staff); by "
                "default they appear under pseudonyms derived from the course secret (--secret-file), the same for "
                "a student in every run");
  cmd->add_option("--progress", args->progress, "auto (a bar on a terminal, else one line per submission), bar, lines or none")
      ->capture_default_str();
  cmd->add_flag("--no-performance", args->no_performance, "Skip the timed performance targets");
  cmd->add_flag("--no-sanitizer", args->no_sanitizer,
                "Skip compute-sanitizer on the visible cases (GPU only): faster, but bad accesses and races whose numbers came out right go unseen");
  cmd->add_flag("--no-diagnosis", args->no_diagnosis,
                "Skip the performance diagnosis: no Nsight Compute profile of the steps below full credit (faster batches; the reports then give the ratio without its cause)");
  cmd->add_flag("--allow-unsealed", args->allow_unsealed,
                "Grade even where the sandbox does not work (see `cugrade doctor`); every report says \"not sealed\"");
  cmd->add_flag("--similarity", args->similarity,
                "Also compare the class's code pair by pair (as `cugrade similarity` does): OUT/similarity.csv and "
                "similarity.html, linked from summary.html; evidence for a person, never a score");
  add_similarity_tuning(*cmd, args->similarity_flags);
  cmd->add_flag("--keep-work", args->keep_work, "Keep OUT/work/<student>/ (unpacked files, build, runner files)");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress and no summary");
  cmd->add_option("--shard", args->shard,
                  "Grade only part I of N of the class (a stable hash of each student id picks the part), into the "
                  "same --out as the other parts; `--collect` then writes the gradebook")
      ->type_name("I/N");
  cmd->add_flag("--collect", args->collect,
                "Write the gradebook and summary from the results the parts (--shard, Slurm's tasks) wrote, without "
                "grading; lists who has no result yet and the command that grades them");
  cmd->add_flag("--slurm", args->slurm,
                "Grade on a Slurm cluster: a job array of `--shard I/N` tasks (a GPU each on the CUDA backend) and a "
                "collect job, written to OUT/slurm/ and submitted with sbatch; waits and ends like a local grade "
                "(docs/cluster.md). --backend auto means the nodes' GPUs here");
  cmd->add_option("--shards", args->shards, "--slurm: array tasks (default: one per 40 students)")
      ->check(CLI::Range(1, 100000).description(""))
      ->type_name("N");
  cmd->add_option("--slurm-arg", args->slurm_args,
                  "--slurm: an option for sbatch, repeatable: --slurm-arg=--partition=gpu --slurm-arg=--time=1:00:00 "
                  "--slurm-arg=--gres=gpu:h200:1 (the collect job gets all but GPU requests)")
      ->allow_extra_args(false)
      ->type_name("ARG");
  cmd->add_option("--max-running", args->max_running, "--slurm: array tasks running at once (sbatch's --array=...%K)")
      ->check(CLI::Range(1, 100000).description(""))
      ->capture_default_str()
      ->type_name("K");
  cmd->add_flag("--no-wait", args->no_wait,
                "--slurm: submit, print the job ids and the command that collects the class, and return");
  cmd->callback([args, &exit_code] { exit_code = run_grade(*args); });
}

}  // namespace cugrade
