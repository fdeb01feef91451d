#include "batch/batch_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "batch/gradebook.hpp"
#include "batch/class_notes.hpp"
#include "batch/student_reports.hpp"
#include "core/atomic_file.hpp"
#include "batch/student_paths.hpp"
#include "core/printable.hpp"

namespace cugrade {

namespace {

std::string duration_text(double seconds) {
  const long s = std::lround(seconds);
  if (s < 60) return fmt::format("{:.1f} s", seconds);
  if (s < 3600) return fmt::format("{}:{:02} min", s / 60, s % 60);
  return fmt::format("{}:{:02}:{:02} h", s / 3600, (s / 60) % 60, s % 60);
}

/// `text` with every occurrence of `what` replaced by `with`.
void replace_all(std::string& text, const std::string& what, const std::string& with) {
  if (what.empty()) return;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}

}  // namespace

std::string common_build_failure(const std::vector<StudentRecord>& records) {
  std::map<std::string, std::size_t> count;
  for (const auto& record : records) {
    const BuildResult& build = record.report.build;
    if (build.outcome == Outcome::passed || build.outcome == Outcome::not_run) continue;
    std::string message = build.message.empty() ? build.log : build.message;
    message = message.substr(0, message.find('\n'));
    replace_all(message, student_path_name(record.student), "<student>");
    replace_all(message, record.student, "<student>");
    if (!message.empty()) ++count[message.substr(0, 300)];
  }
  for (const auto& [message, n] : count)
    if (n >= 2 && 2 * n > records.size())
      return fmt::format(
          "{} of {} submissions failed to build with the same message; this looks like a problem of the set-up "
          "(paths, toolchain, sandbox), not of the students: {}",
          n, records.size(), printable(message));
  return "";
}

void count_records(const std::vector<StudentRecord>& records, BatchSummary& summary) {
  summary.students = records.size();
  double total = 0.0;
  for (const auto& r : records) {
    ++summary.outcomes[r.report.outcome];
    summary.max_score = std::max(summary.max_score, r.report.max_score);
    if (r.report.outcome == Outcome::harness_error) {
      const std::string why = r.report.notes.empty() ? "harness error" : r.report.notes.back();
      summary.harness_errors.push_back(printable(r.student) + ": " + why);
    } else if (r.report.gradable) {
      ++summary.gradable;
      total += r.report.score;
    } else {
      summary.not_gradable.push_back(fmt::format("{} ({})", printable(r.student), to_string(r.report.outcome)));
    }
  }
  summary.setup_problem = common_build_failure(records);
  summary.mean_score = summary.gradable ? total / static_cast<double>(summary.gradable) : 0.0;
}

std::string class_summary_subtitle(std::size_t graded, bool cuda, const std::string& setup_problem,
                                   std::size_t not_graded) {
  std::string line = fmt::format("{} submissions, graded on the {} backend", graded, cuda ? "CUDA" : "CPU");
  if (!setup_problem.empty()) line += ". Warning: " + setup_problem;
  if (not_graded > 0)
    line += fmt::format(". {} more not graded yet: the batch stopped before them (run the same command again)",
                        not_graded);
  return line;
}

Result<std::filesystem::path> write_class_files(const Spec& spec, const std::filesystem::path& out,
                                                const std::vector<StudentRecord>& records,
                                                const std::vector<std::string>& not_graded,
                                                std::optional<std::int64_t> deadline_unix, bool cuda,
                                                const std::string& setup_problem,
                                                const LeaderboardOptions& leaderboard, const LatePlan* late) {
  const std::filesystem::path gradebook = out / "gradebook.csv";
  if (late) deadline_unix = late->deadline_unix;
  // Each student's own reports: their late standing and their name on the leaderboard.
  if (auto noted = write_class_notes(out, records, {late, leaderboard_pseudonyms(spec, records, leaderboard)}); !noted)
    return std::unexpected(noted.error());
  GradebookOptions book;
  book.deadline_unix = deadline_unix;
  book.not_graded = not_graded;
  book.late = late;
  if (auto written = write_file_atomically(gradebook, render_gradebook(spec, records, book)); !written)
    return std::unexpected(written.error());
  // Before the summary, which links to it.
  if (auto written = write_leaderboard(out, spec, records, leaderboard); !written)
    return std::unexpected(written.error());
  if (auto written = write_class_summary(
          out, records, class_summary_subtitle(records.size(), cuda, setup_problem, not_graded.size()), deadline_unix,
          late);
      !written)
    return std::unexpected(written.error());
  return gradebook;
}

std::string gpu_turns_line(const GpuTurnTimes& turns, std::size_t graded) {
  if (turns.alone + turns.shared + turns.idle <= 0.0) return {};
  std::string line = fmt::format("GPU time: alone {:.0f} s (timing, profiles and cases run again alone) · shared {:.0f} s",
                                 turns.alone, turns.shared);
  if (turns.shared > 0.0)
    line += fmt::format(", {:.1f} submissions at once on average, {:.0f} s of it winding down for turns alone",
                        turns.lane_seconds / turns.shared, turns.winding_down);
  line += fmt::format(" · idle {:.0f} s (no submission was ready to run: builds, judging)", turns.idle);
  // Sharing more cannot take the class past what its turns alone allow.
  if (graded && turns.alone >= 1.0)
    line += fmt::format(". The turns alone allow at most {:.1f} submissions per minute", 60.0 * static_cast<double>(graded) / turns.alone);
  return line + ".\n";
}

std::string render_batch_summary(const BatchSummary& summary, const std::string& assignment,
                                 const std::filesystem::path& out) {
  const BatchTimes& t = summary.times;
  std::string text;
  text += fmt::format("Graded {} of {} submissions of {} in {}", summary.graded_now, summary.students + summary.not_finished,
                      assignment, duration_text(t.wall));
  if (summary.up_to_date) text += fmt::format(" ({} unchanged since an earlier run were kept)", summary.up_to_date);
  const bool sharing = t.lanes && t.runs_per_gpu > 1;
  if (t.shards) {
    text += fmt::format(": {} shard{} graded by Slurm's array tasks.\n", t.shards, t.shards == 1 ? "" : "s");
  } else {
    text += fmt::format(": {} build{} at a time, ", t.builders, t.builders == 1 ? "" : "s");
    const std::size_t gpus = t.gpus ? t.gpus : t.lanes;
    text += sharing ? fmt::format("runs on {} GPU{}, up to {} submissions side by side on each (their cases and "
                                  "sanitizer passes; timing and profiling one at a time).\n",
                                  gpus, gpus == 1 ? "" : "s", t.runs_per_gpu)
            : t.lanes ? fmt::format("runs on {} GPU{}, one at a time each.\n", t.lanes, t.lanes == 1 ? "" : "s")
                      : std::string("each run right after its build (CPU backend).\n");
  }
  if (summary.stopped)
    text += fmt::format("Stopped early: {} submissions are not graded yet; run the same command again to finish.\n",
                        summary.not_finished);
  std::string outcomes;
  for (const auto& [outcome, count] : summary.outcomes)
    outcomes += fmt::format("{}{} {}", outcomes.empty() ? "" : " · ", to_string(outcome), count);
  if (!outcomes.empty()) text += "Outcomes: " + outcomes + "\n";
  if (summary.gradable)
    text += fmt::format("Score: mean {} of {} over {} gradable submission{}{}.\n", format_points(summary.mean_score),
                        format_points(summary.max_score), summary.gradable, summary.gradable == 1 ? "" : "s",
                        summary.late_note.empty() ? "" : " (raw scores, before late penalties)");
  if (summary.graded_now) {
    const double n = static_cast<double>(summary.graded_now);
    const StageSeconds& s = t.stages;
    text += fmt::format(
        "Time per submission (mean of {}): unpack {:.2f} s, build {:.2f} s, inputs and gold {:.2f} s, run {:.2f} s, "
        "timing {:.2f} s{}.\n",
        summary.graded_now, t.unpack / n, s.build / n, s.inputs / n, s.run / n, s.timing / n,
        s.diagnosis > 0 ? fmt::format(", diagnosis {:.2f} s", s.diagnosis / n) : std::string());
    if (t.wall > 0) text += fmt::format("Throughput: {:.1f} submissions per minute", 60.0 * n / t.wall);
    // Lanes sharing a GPU are busy together: their summed time says nothing of the GPU's.
    if (t.lanes && t.wall > 0 && !sharing) {
      const double busy = t.lane_busy / (t.wall * static_cast<double>(t.lanes));
      text += fmt::format("; the GPU{} ran {:.0f} % of the time ({})", t.lanes == 1 ? "" : "s", 100.0 * busy,
                          busy >= 0.8 ? "the GPU runs limit the rate"
                          : t.gpu_waited >= 0.2 * t.wall * static_cast<double>(t.lanes)
                              ? "another cugrade's turns on the GPU limit the rate"
                              : "builds limit the rate: more cores or a larger -j would help");
    }
    if (t.lanes && t.gpu_waited >= 1.0)
      text += fmt::format("; {:.0f} s went to waiting for the GPU while another cugrade on this machine used it",
                          t.gpu_waited);
    text += ".\n";
    if (sharing) text += gpu_turns_line(t.turns, summary.graded_now);
  }
  if (!summary.setup_problem.empty()) text += "Warning: " + summary.setup_problem + "\n";
  if (!summary.late_note.empty()) text += summary.late_note + "\n";
  if (!summary.regrade_note.empty()) text += summary.regrade_note + "\n";
  for (const auto& line : summary.skipped) text += "Skipped " + line + "\n";
  if (!summary.not_gradable.empty()) {
    // Named, at most 20: the gradebook and summary.html have every row.
    const std::size_t shown = std::min<std::size_t>(summary.not_gradable.size(), 20);
    text += fmt::format("Not gradable ({}: their submission did not build or was refused; 0 points):", summary.not_gradable.size());
    for (std::size_t i = 0; i < shown; ++i) text += (i ? ", " : " ") + summary.not_gradable[i];
    if (shown < summary.not_gradable.size()) text += fmt::format(", and {} more (gradebook.csv)", summary.not_gradable.size() - shown);
    text += "\n";
  }
  if (!summary.harness_errors.empty()) {
    text += fmt::format("Harness errors ({}; not graded, they cost no points; run again to retry them):\n",
                        summary.harness_errors.size());
    for (const auto& line : summary.harness_errors) text += "  " + line + "\n";
  }
  // One shard of a class (--shard I/N) writes no gradebook: the other shards' rows are not its own.
  if (summary.gradebook.empty())
    return text + fmt::format("Gradebook: not written by one shard; `cugrade grade ... --collect` writes it once every "
                              "shard has ended.\nPer student: {}\n",
                              (out / "students").string() + "/<student>/");
  text += fmt::format("Gradebook: {}\nClass summary: {}\nPer student: {}\n", summary.gradebook.string(),
                      (out / "summary.html").string(), (out / "students").string() + "/<student>/");
  return text;
}

}  // namespace cugrade
