#pragma once
// compute-sanitizer on the CUDA backend (design.md §5, docs/cpu-backend.md "Parity"): the cases
// the spec marks `sanitize` (its visible ones, unless it says otherwise) run again in the
// student's runner under the sanitizer's tools, all side by side, each tool in one runner for
// every step; racecheck on three small cases of each step and on all the others of a step where
// those had a race (racecheck_cases), in one more runner per such step. Cases whose normal run
// timed out, flooded the output or ended its runner (a crash, a broken protocol) are not run
// again. A report fails its case even where the numbers came out right, as the CPU backend fails
// it: an invalid or misaligned access or a barrier error is a cuda_error, a race on shared memory
// or a read of uninitialised memory a wrong_answer; a case that had already failed gets the
// report appended. What the sanitizer cannot do (not installed, refused by the GPU, slower than
// its time limit) becomes a note and costs nothing.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pipeline/case_plan.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The tools that apply to a submission, by what its sources (read as text) mention: memcheck
/// always; racecheck where they declare __shared__ memory; initcheck where they allocate device
/// memory (the runner writes every input and output it hands over, so only memory the student's
/// code allocates can be read unwritten); synccheck where they call a warp barrier.
std::vector<std::string> sanitizer_tools(const std::vector<std::filesystem::path>& sources);

/// The command the runner runs under for `tool`: its reports on stdout, a bounded number of
/// them, no host backtraces; `port` (0: the tool's default), the base of the ports the tool
/// talks to its runner on. Sanitizers side by side in one network (unsealed) must each have
/// their own: on an H100, four racecheck runs of one job on one port took 16.8 s where one took
/// 1.6 s; four of the steps' jobs on ports of their own, beside memcheck, 3.0 s.
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::string& tool,
                                           int port = 0);

/// A base port for the next sanitized runner of this process, each 100 apart from the last,
/// cycling through 49152 to 64951: what runs side by side unsealed does not share one.
int next_sanitizer_port();

/// The cases of one step (`step_ids`, in the job's order) racecheck checks: `first` the smallest
/// and the two largest of those whose inputs (`bytes_of`, by task id) take at most 64 KiB and
/// whose work (`work_of`, FLOPs plus domain items; a case it lacks costs nothing) is at most
/// 2^22 (racecheck follows every shared-memory access: 2049 N-body bodies fit in 64 KiB but
/// are 4.2 million interactions);
/// `after_race` all the others, checked only where racecheck reported a race in `first`. A race
/// from a missing barrier shows at every size with more than one tile or warp, so a correct
/// kernel pays for three cases; a racy one is checked at every size, as the CPU backend's two
/// schedules check it. Each list in the job's order.
struct RacecheckCases {
  std::vector<std::string> first, after_race;
};
RacecheckCases racecheck_cases(const std::vector<std::string>& step_ids,
                               const std::map<std::string, std::size_t>& bytes_of,
                               const std::map<std::string, double>& work_of = {});

/// What the pass did, for the report's notes and the stage times.
struct SanitizerPass {
  std::vector<std::string> notes;  ///< what it checked, what it could not
  std::size_t marked = 0;          ///< cases a report was given to
  /// The cases (CaseResult::id) it meant to check and could not: past the sanitizer's time limit
  /// under a tool, or every case where a tool's runner did not start. Beside other submissions on
  /// the GPU a neighbour can cause either, so a graded batch checks them again alone
  /// (alone_rerun.hpp).
  std::vector<std::string> unchecked = {};
  /// The cases (CaseResult::id) every tool given them ran to an end and reported nothing on: a
  /// run again alone need not check them again, since a check that found nothing cost no point.
  std::vector<std::string> clean = {};
  double seconds = 0.0;
};

/// Gives a sanitizer's `message` to a case: a pass becomes `outcome` with it. An invalid access
/// (cuda_error) is also the cause of a wrong answer or a crash, as the CPU backend, which stops at
/// the access, reports it: the outcome becomes cuda_error, the sentence goes first and the outputs'
/// patterns, which follow from it, are dropped. Any other failure gets the sentence appended.
void give_sanitizer_finding(CaseResult& result, Outcome outcome, const std::string& message);

/// Runs the planned cases marked `sanitize` (not the reference's own, not those that timed out
/// or flooded the output in `ran`) under each tool of `tools`, each in `first`'s runner and
/// sandbox, in work_dir/sanitize-<tool>; gives each report to its case among `cases`.
/// `source_names` are the student's names of the submission's files, in order. Without `sanitizer` it only notes so.
/// `starting` is called once before the first sanitized runner starts (a progress line), never
/// when no case is left to check. With `after_race_alone` (a graded batch, beside other
/// submissions), a step whose first cases raced has its other cases listed in `unchecked` rather
/// than checked: its raced cases fail and are checked again alone with them (alone_rerun.hpp),
/// so racecheck's longest work is done once, alone, instead of twice.
SanitizerPass run_sanitizer_pass(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                 const RunRequest& first, const RunOutcome& ran,
                                 const std::filesystem::path& sanitizer, const std::vector<std::string>& tools,
                                 const std::vector<std::string>& source_names,
                                 std::vector<CaseResult>& cases, const std::function<void()>& starting = {},
                                 bool after_race_alone = false);

}  // namespace cugrade
