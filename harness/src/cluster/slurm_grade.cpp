#include "cluster/slurm_grade.hpp"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "batch/collect_class.hpp"
#include "batch/resume.hpp"
#include "batch/shard.hpp"
#include "batch/student_record.hpp"
#include "batch/submission_fingerprint.hpp"
#include "batch/submission_source.hpp"
#include "cluster/array_chunks.hpp"
#include "cluster/sbatch_scripts.hpp"
#include "cluster/slurm_commands.hpp"
#include "cluster/slurm_wait.hpp"
#include "core/atomic_file.hpp"
#include "core/printable.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// OUT/slurm/jobs: the ids of the last submission, one a line, so that running the same command
/// while they are still queued waits for them instead of submitting the class twice.
fs::path jobs_file(const fs::path& out) { return out / "slurm" / "jobs"; }

std::vector<std::string> read_jobs(const fs::path& out) {
  std::vector<std::string> ids;
  std::ifstream in(jobs_file(out));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) ids.push_back(line);
  return ids;
}

/// sbatch's options for the collect job: the user's, without those asking for GPUs.
std::vector<std::string> without_gpu_options(const std::vector<std::string>& args) {
  std::vector<std::string> kept;
  for (const auto& arg : args) {
    const bool gpu = arg.starts_with("--gres") || arg.starts_with("--gpus") || arg.starts_with("-G") ||
                     arg.starts_with("--gpu");
    if (!gpu) kept.push_back(arg);
  }
  return kept;
}

std::string joined(const std::vector<std::string>& ids) {
  std::string text;
  for (const auto& id : ids) text += (text.empty() ? "" : " ") + id;
  return text;
}

}  // namespace

std::size_t default_shard_count(std::size_t students) { return std::max<std::size_t>(1, (students + 39) / 40); }

Result<SlurmGradeResult> grade_on_slurm(ProcessRunner& processes, const Spec& spec, const SlurmGradeRequest& request,
                                        std::ostream& log) {
  if (auto present = slurm_commands_present(); !present) return std::unexpected(present.error());
  auto listing = list_submissions(request.submissions, request.out);
  if (!listing) return std::unexpected(listing.error());
  if (listing->submissions.empty()) return fail(no_submission_message(request.submissions, *listing, spec.id));
  auto regrade = parse_regrade(request.regrade, listing->submissions);
  if (!regrade) return std::unexpected(regrade.error());
  std::error_code ec;
  for (const fs::path& folder : {request.out / "slurm" / "logs", request.out / "results"})
    if (fs::create_directories(folder, ec); ec) return fail("cannot create " + folder.string() + ": " + ec.message());

  SubmittedClass submitted;
  submitted.out = request.out;
  submitted.students = listing->submissions.size();
  submitted.shards = request.shards ? request.shards : default_shard_count(listing->submissions.size());
  const std::vector<std::string> earlier = read_jobs(request.out);
  auto still = queued_tasks(processes, earlier);
  if (!still) return std::unexpected(still.error());

  SlurmGradeResult result;
  result.shards = submitted.shards;
  std::size_t kept = 0;
  if (!still->empty()) {
    // The last submission is still at work: wait for it rather than grading its students twice.
    log << fmt::format("cugrade: jobs {} of an earlier run are still queued; waiting for them, not submitting again\n",
                       joined(earlier));
    result.job_ids = earlier;
    for (const auto& id : earlier) submitted.arrays.push_back({id, ArrayChunk{}});
    // Progress: the students still without a result.
    for (const auto& source : listing->submissions)
      if (!fs::exists(record_path(request.out, source.student), ec))
        submitted.to_grade[shard_of(source.student, submitted.shards)][source.student] = fs::file_time_type{};
  } else {
    for (const auto& source : listing->submissions) {
      // A --regrade result is removed first, so that the tasks (and a requeued one) see it missing.
      if (regrade->includes(source.student)) fs::remove(record_path(request.out, source.student), ec);
      const GradeDecision decision = decide_grading(source.student, fingerprint_submission(source),
                                                    load_record(request.out, source.student), *regrade, request.settings);
      if (!decision.grade) {
        ++kept;
        continue;
      }
      if (decision.again) log << "cugrade: " << printable(source.student) << ": graded again: " << decision.reason << "\n";
      const auto before = fs::last_write_time(record_path(request.out, source.student), ec);
      submitted.to_grade[shard_of(source.student, submitted.shards)][source.student] =
          ec ? fs::file_time_type{} : before;
    }
  }

  if (still->empty() && !submitted.to_grade.empty()) {
    auto max_size = read_max_array_size(processes);
    if (!max_size) return std::unexpected(max_size.error());
    SlurmJob job;
    job.assignment = spec.id;
    job.out = request.out;
    job.shards = submitted.shards;
    job.gpu = request.gpu;
    job.grade_command = request.grade_command;
    job.jobs_from_slurm = !request.jobs_given;
    job.collect_command = request.collect_command;
    const fs::path grade_script = request.out / "slurm" / "grade.sbatch";
    const fs::path collect_script = request.out / "slurm" / "collect.sbatch";
    if (auto written = write_file_atomically(grade_script, render_grade_script(job)); !written)
      return std::unexpected(written.error());
    if (auto written = write_file_atomically(collect_script, render_collect_script(job)); !written)
      return std::unexpected(written.error());

    std::vector<std::size_t> shards;
    std::size_t students = 0;
    for (const auto& [shard, names] : submitted.to_grade) {
      shards.push_back(shard);
      students += names.size();
    }
    log << fmt::format("cugrade: grading {} of {} students on Slurm ({} kept from an earlier run): {} of {} shards, "
                       "MaxArraySize {}\n",
                       students, submitted.students, kept, shards.size(), submitted.shards, *max_size);
    std::string dependency = "--dependency=afterany";
    for (const ArrayChunk& chunk : array_chunks(shards, *max_size)) {
      std::vector<std::string> args{"--array=" + chunk.array_spec(request.max_running)};
      args.insert(args.end(), request.slurm_args.begin(), request.slurm_args.end());
      args.push_back(grade_script.string());
      args.push_back(std::to_string(chunk.base));
      auto id = submit_job(processes, args);
      if (!id) {
        // What was submitted stays recorded: a rerun waits for it rather than submitting it twice.
        std::ostringstream ids;
        for (const auto& [submitted_id, c] : submitted.arrays) ids << submitted_id << "\n";
        (void)write_file_atomically(jobs_file(request.out), ids.str());
        return fail(id.error().message + (submitted.arrays.empty() ? "" : " (arrays already submitted: " +
                                                                             joined(result.job_ids) + ")"));
      }
      log << fmt::format("cugrade: submitted array job {}: shards {}..{} as --array={}\n", *id, chunk.base + chunk.indices.front(),
                         chunk.base + chunk.indices.back(), chunk.array_spec(request.max_running));
      submitted.arrays.push_back({*id, chunk});
      result.job_ids.push_back(*id);
      dependency += ":" + *id;
    }
    std::vector<std::string> args{dependency};
    const auto collect_args = without_gpu_options(request.slurm_args);
    args.insert(args.end(), collect_args.begin(), collect_args.end());
    args.push_back(collect_script.string());
    auto collect = submit_job(processes, args);
    if (collect) {
      submitted.collect_job = *collect;
      result.job_ids.push_back(*collect);
      log << fmt::format("cugrade: submitted collect job {} (after every array task, whatever its end)\n", *collect);
    } else {
      log << "cugrade: the collect job could not be submitted (" << collect.error().message
          << "); the gradebook is written here once the arrays end\n";
    }
    std::string ids;
    for (const auto& id : result.job_ids) ids += id + "\n";
    if (auto written = write_file_atomically(jobs_file(request.out), ids); !written) return std::unexpected(written.error());
  } else if (still->empty()) {
    log << fmt::format("cugrade: all {} results are up to date; nothing to submit\n", submitted.students);
  }

  if (request.no_wait) return result;
  auto written = wait_for_class(processes, submitted, request.style, request.columns, log);
  if (!written) return std::unexpected(written.error());
  CollectOptions collect;
  collect.submissions = request.submissions;
  collect.out = request.out;
  collect.deadline_unix = request.deadline_unix;
  collect.late = request.late;
  collect.graded_now = std::set<std::string>(written->begin(), written->end());
  collect.leaderboard = request.leaderboard;
  auto summary = collect_class(spec, collect);
  if (!summary) return std::unexpected(summary.error());
  result.summary = std::move(*summary);
  return result;
}

}  // namespace cugrade
