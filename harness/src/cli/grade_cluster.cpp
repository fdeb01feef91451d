// `cugrade grade --collect` and `cugrade grade --slurm`: a class graded by other processes
// (its shards), and the gradebook made from what they wrote.
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "batch/batch_summary.hpp"
#include "batch/collect_class.hpp"
#include "batch/deadline.hpp"
#include "batch/grading_settings.hpp"
#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/grade_args.hpp"
#include "cli/late_options.hpp"
#include "cluster/sbatch_scripts.hpp"
#include "cluster/slurm_grade.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// This cugrade's own absolute path: what every task runs (a shared folder sees the same one).
std::string own_path() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("cugrade") : self.string();
}

/// The options each shard is given as they were given here (paths absolute).
std::vector<std::string> options_passed_on(const GradeArgs& args, const std::string& backend) {
  std::vector<std::string> words{"--backend", backend};
  if (!args.arch.empty()) words.insert(words.end(), {"--arch", args.arch});
  if (!args.deadline.empty()) words.insert(words.end(), {"--deadline", args.deadline});
  if (!args.secret_file.empty()) words.insert(words.end(), {"--secret-file", absolute_path(args.secret_file).string()});
  if (args.jobs) words.insert(words.end(), {"-j", std::to_string(args.jobs)});
  if (args.runs_per_gpu) words.insert(words.end(), {"--runs-per-gpu", std::to_string(args.runs_per_gpu)});
  if (args.no_performance) words.push_back("--no-performance");
  if (args.no_sanitizer) words.push_back("--no-sanitizer");
  if (args.no_diagnosis) words.push_back("--no-diagnosis");
  if (args.allow_unsealed) words.push_back("--allow-unsealed");
  if (args.keep_work) words.push_back("--keep-work");
  if (args.leaderboard_names) words.push_back("--leaderboard-names");
  const auto late = late_words(args);
  words.insert(words.end(), late.begin(), late.end());
  return words;
}

std::vector<std::string> class_words(const GradeArgs& args) {
  return {own_path(), "grade", args.assignment, "--submissions", absolute_path(args.submissions).string(),
          "--out", absolute_path(args.out).string()};
}

/// `cugrade grade ... --collect` as given here: the deadline, and the secret's file and
/// --leaderboard-names for the leaderboard's names (the file's path only, never the secret).
std::vector<std::string> collect_words(const GradeArgs& args) {
  std::vector<std::string> words = class_words(args);
  words.push_back("--collect");
  if (!args.deadline.empty()) words.insert(words.end(), {"--deadline", args.deadline});
  if (!args.secret_file.empty()) words.insert(words.end(), {"--secret-file", absolute_path(args.secret_file).string()});
  if (args.leaderboard_names) words.push_back("--leaderboard-names");
  return words;
}

std::string command_text(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : " ") + shell_quote(word);
  return text;
}

/// The secret reaches the tasks as a file readable by its owner alone, never on a command line
/// or in the job's environment (`scontrol show job` shows both to other users).
Result<bool> check_secret_for_cluster(const GradeArgs& args) {
  if (args.secret_file.empty()) {
    if (const char* env = std::getenv("CUGRADE_COURSE_SECRET"); env && *env)
      return fail("--slurm does not pass CUGRADE_COURSE_SECRET to the jobs (other users see a job's environment): "
                  "put the secret in a file on the shared folder (chmod 600) and give --secret-file FILE");
    return true;
  }
  struct stat info {};
  if (::stat(args.secret_file.c_str(), &info) != 0) return fail("cannot read the secret file " + args.secret_file);
  if ((info.st_mode & 077) != 0)
    return fail("the secret file " + args.secret_file +
                " can be read by other users of the cluster: chmod 600 it (the jobs read it as you)");
  return true;
}

std::optional<std::int64_t> deadline_of(const GradeArgs& args, std::string& error) {
  if (args.deadline.empty()) return std::nullopt;
  auto deadline = parse_deadline(args.deadline);
  if (!deadline) {
    error = deadline.error().message;
    return std::nullopt;
  }
  return *deadline;
}

/// The summary, the command that grades what is missing, and the exit code a local grade gives.
int finish(const GradeArgs& args, const BatchSummary& summary, const std::string& spec_id, const std::string& again) {
  if (!args.quiet) std::cout << render_batch_summary(summary, spec_id, absolute_path(args.out)) << std::flush;
  if (summary.not_finished)
    std::cout << "Grade the " << summary.not_finished << " not graded again (only they are graded):\n  " << again << "\n"
              << std::flush;
  return summary.harness_errors.empty() ? exit_ok : exit_internal;
}

}  // namespace

int run_grade_collect(const GradeArgs& args) {
  const Locations where = default_locations();
  auto spec = load_assignment_to_grade(where.assignments(), args.assignment);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  std::string error;
  CollectOptions options;
  options.submissions = absolute_path(args.submissions);
  options.out = absolute_path(args.out);
  options.deadline_unix = deadline_of(args, error);
  if (!error.empty()) return complain(error, exit_usage);
  // Only for the leaderboard's pseudonyms: a collect grades nothing.
  auto secret = course_secret(args.secret_file);
  if (!secret) return complain(secret.error().message, exit_usage);
  options.leaderboard = {std::move(*secret), args.leaderboard_names};
  auto late = late_plan_of(args, options.deadline_unix);
  if (!late) return complain(late.error().message, exit_usage);
  options.late = std::move(*late);
  auto summary = collect_class(*spec, options);
  if (!summary) return complain(summary.error().message, exit_usage);
  std::vector<std::string> again = class_words(args);
  const auto passed = options_passed_on(args, args.backend);
  again.insert(again.end(), passed.begin(), passed.end());
  const auto late_options = late_words(args);
  again.insert(again.end(), late_options.begin(), late_options.end());
  return finish(args, *summary, spec->id, command_text(again));
}

int run_grade_on_slurm(const GradeArgs& args) {
  const auto started = std::chrono::steady_clock::now();
  const Locations where = default_locations();
  auto spec = load_assignment_to_grade(where.assignments(), args.assignment);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  auto backend = parse_backend(args.backend);
  if (!backend) return complain(backend.error().message, exit_usage);
  // The login node may have no GPU: auto means the nodes' GPUs (--backend cpu grades without).
  const bool cuda = *backend != Backend::cpu;
  if (auto secret_ok = check_secret_for_cluster(args); !secret_ok) return complain(secret_ok.error().message, exit_usage);
  auto secret = course_secret(args.secret_file);
  if (!secret) return complain(secret.error().message, exit_usage);
  auto style = progress_style(args);
  if (!style) return complain(style.error().message, exit_usage);

  SlurmGradeRequest request;
  request.submissions = absolute_path(args.submissions);
  request.out = absolute_path(args.out);
  std::string error;
  request.deadline_unix = deadline_of(args, error);
  if (!error.empty()) return complain(error, exit_usage);
  // Checked here, before any job is submitted: the collect job applies it.
  auto late = late_plan_of(args, request.deadline_unix);
  if (!late) return complain(late.error().message, exit_usage);
  request.late = std::move(*late);
  const std::vector<std::string> late_options = late_words(args);
  const auto passed = options_passed_on(args, cuda ? "cuda" : "cpu");
  request.grade_command = class_words(args);
  request.grade_command.insert(request.grade_command.end(), passed.begin(), passed.end());
  request.grade_command.insert(request.grade_command.end(), {"--progress", "lines"});
  request.collect_command = collect_words(args);
  std::vector<std::string> rerun = class_words(args);
  rerun.insert(rerun.end(), passed.begin(), passed.end());
  rerun.insert(rerun.end(), late_options.begin(), late_options.end());
  rerun.push_back("--slurm");
  if (args.shards) rerun.insert(rerun.end(), {"--shards", std::to_string(args.shards)});
  for (const auto& arg : args.slurm_args) rerun.push_back("--slurm-arg=" + arg);
  rerun.insert(rerun.end(), {"--max-running", std::to_string(args.max_running)});
  request.rerun_command = command_text(rerun);
  request.gpu = cuda;
  request.jobs_given = args.jobs != 0;
  request.shards = args.shards;
  request.max_running = args.max_running;
  request.slurm_args = args.slurm_args;
  request.no_wait = args.no_wait;
  request.regrade = args.regrade;
  CheckOptions check;
  check.backend = cuda ? Backend::cuda : Backend::cpu;
  request.leaderboard = {*secret, args.leaderboard_names};
  check.course_secret = std::move(*secret);
  check.performance = !args.no_performance;
  check.sanitizer = !args.no_sanitizer;
  request.settings = grading_settings(*spec, check, cuda, where);
  request.style = *style;
  winsize terminal{};
  request.columns = ioctl(STDERR_FILENO, TIOCGWINSZ, &terminal) == 0 ? terminal.ws_col : 0;

  auto processes = make_process_runner();
  auto result = grade_on_slurm(*processes, *spec, request, std::cerr);
  if (!result) return complain(result.error().message, exit_usage);
  if (!result->summary) {  // --no-wait
    std::cout << "Submitted jobs:";
    for (const auto& id : result->job_ids) std::cout << " " << id;
    const std::vector<std::string> collect = collect_words(args);
    std::cout << "\nFollow them with: squeue --jobs=";
    for (std::size_t i = 0; i < result->job_ids.size(); ++i) std::cout << (i ? "," : "") << result->job_ids[i];
    std::cout << "\nCollect the class once they have ended (the collect job also does):\n  " << command_text(collect)
              << "\nOr run the same command again: it waits for these jobs, then collects:\n  "
              << request.rerun_command << "\n"
              << std::flush;
    return exit_ok;
  }
  result->summary->times.shards = result->shards;
  result->summary->times.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return finish(args, *result->summary, spec->id, request.rerun_command);
}

}  // namespace cugrade
