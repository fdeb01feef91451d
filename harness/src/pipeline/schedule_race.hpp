#pragma once
// Races and reads of uninitialised shared memory on the CPU backend, by running the check tasks
// again. The executor runs a block's threads (and takes its blocks) first to last, or last to
// first under CUGRADE_CPU_SCHEDULE=reverse, and fills shared memory at each block start with the
// byte CUGRADE_SHARED_POISON names (0xFF by default). A correct kernel gives the same answer
// (within the step's tolerance) under any order and any initial contents of shared memory.
//   run 1  forward, 0xFF   the verdict (check_submission)
//   run 2  reverse, 0x00   every check task that finished in run 1; agreeing cases are done
//   run 3  forward, 0x00   only the cases where runs 1 and 2 disagree, one run per step:
//                          1 vs 3 differ only in the poison → reads uninitialised shared memory;
//                          3 vs 2 differ only in the order → a race; neither → a race too (the
//                          result changed from run to run with nothing else changed)
//   run 4  forward, 0x00   where the kernels declare no shared memory and only the order seemed
//                          to change the result (1 and 3 agree): run 3 again. A launch's blocks
//                          run side by side on several CPU threads, so 3 and 4 can differ too:
//                          then the order is not blamed (unsteady_message); where they agree,
//                          the race is on global memory (global_order_race_message), no barrier
//                          around shared memory being in question
// On the CUDA backend the runner poisons the SMs' shared memory before each check call with the
// same byte (runtime/shared_poison.hpp); the order of threads is the GPU's own:
//   run 2  0x00            every check task that finished in run 1, in run 1's runner: its job
//                          repeats each task after all of them (zero_poison_repeats)
//   run 3  0xFF again      only the cases where runs 1 and 2 disagree: 1 vs 3 agree → reads
//                          uninitialised shared memory; disagree → results that change from run
//                          to run (a race, or a value read before it is set)
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fills.hpp"
#include "job.hpp"
#include "pipeline/case_plan.hpp"
#include "report/grade_report.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The environment variable the CPU executor reads its schedule from ("forward" or "reverse").
inline constexpr const char* schedule_variable = "CUGRADE_CPU_SCHEDULE";
/// The environment variable naming the byte shared memory starts with ("ff", "00").
inline constexpr const char* poison_variable = shared_poison_variable;
/// The environment variable naming the file where the executor lists which kernels use which
/// shared memory ("kernel<TAB>__shared__ name in function, file:line" lines).
inline constexpr const char* shared_log_variable = "CUGRADE_CPU_SHARED_LOG";

/// What a case whose outputs changed with the schedule is told (also appended to a failure).
inline constexpr const char* schedule_race_message =
    "results change when the order of threads changes: a race (e.g. a missing __syncthreads(), or a missing "
    "__syncwarp() between the steps of warp-synchronous code) — schedule forward and reverse gave different outputs";

/// What a case is told whose outputs changed with the order of threads alone (run 4 agreed with
/// run 3) where its kernels declare no shared memory: no barrier around shared memory is missing;
/// threads meet in global memory (a transpose that wrote rows `cols` apart was told "a missing
/// __syncthreads()" for its threads of different blocks storing to one element).
inline constexpr const char* global_order_race_message =
    "results change when the order of threads changes, and the kernels declare no __shared__ memory: threads race "
    "on global memory (several threads store to the same element: an index computed wrong?, or one reads an "
    "element another thread of the launch writes) — schedule forward and reverse gave different outputs";

/// What a case is told whose outputs changed between two runs in the same order of threads,
/// where its kernels declare no shared memory: something else was read before it was set, or,
/// since a launch's blocks run side by side on several CPU threads, threads of different blocks
/// stored to one element of global memory and the last to store differed (two forward runs of a
/// transpose that wrote rows `cols` apart gave three messages in three checks while this said
/// the first only). Which one, two runs cannot tell: both change with the blocks' timing.
inline constexpr const char* unsteady_message =
    "results change between two runs with the same order of threads in each block, and the kernels declare no "
    "__shared__ memory: a value is read before it is set (an uninitialised local variable or accumulator?), or "
    "threads of different blocks, which run side by side here as on a GPU, store to the same element of global "
    "memory (an index computed wrong?)";

/// The start of what a case whose result depends on the initial contents of shared memory is
/// told; the kernel and the rest of the sentence follow (mark_uninitialised_shared).
inline constexpr const char* uninitialised_shared_message = "reads uninitialised __shared__ memory";

/// The job of a second run: the check tasks of `job` that finished in `ran` (no timing tasks),
/// each writing its outputs and readback under `dir` instead, so both runs' files survive.
Job rerun_job(const Job& job, const RunOutcome& ran, const std::filesystem::path& dir);

/// The same, for the check tasks of `job` whose ids are in `ids`.
Job rerun_job(const Job& job, const std::vector<std::string>& ids, const std::filesystem::path& dir);

/// Marks a case whose outputs changed with the schedule: a pass becomes wrong_answer with
/// schedule_race_message; any other outcome keeps its kind and gets the sentence appended.
void mark_schedule_race(CaseResult& result);

/// Marks a case whose result depends on the initial contents of shared memory, as
/// mark_schedule_race does: uninitialised_shared_message, `where` (the declarations, from
/// describe_shared_use; may be empty), what was seen, and a hint.
void mark_uninitialised_shared(CaseResult& result, const std::string& where);

/// Replaces in `message` the whole sentence mark_uninitialised_shared wrote (its declarations
/// included) by `replacement`; true when there was one.
bool replace_uninitialised_shared(std::string& message, std::string_view replacement);

/// " (__shared__ tile in matmul_tiled, mm.cu:12)" from the executor's shared-memory log
/// ("launch<TAB>declaration" lines), or " (one of: ...; ...)" for several declarations; "" when
/// the log is missing or holds nothing well formed.
std::string describe_shared_use(const std::filesystem::path& log);

/// Whether any of `sources` mentions `__shared__` (a kernel that may read shared memory).
bool mentions_shared_memory(const std::vector<std::filesystem::path>& sources);
/// The same, for source text already read.
bool mentions_shared_memory(std::string_view source_text);

/// Runs 2, 3 and 4 above for the check tasks of `first` that finished in `ran` (files under
/// first.work_dir/"reverse", "poison-<n>" and "again-<n>"); `cases` are run 1's results, judged
/// from `plan`. Marks every case where the runs disagree; returns how many were marked.
std::size_t check_schedule_races(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                 const RunRequest& first, const RunOutcome& ran,
                                 std::vector<CaseResult>& cases);

/// What a case is told, on the GPU, whose outputs changed between two runs that started shared
/// memory alike (0xFF): nothing the harness controls explains it.
inline constexpr const char* gpu_unsteady_message =
    "results change between two runs of the same inputs on the GPU (shared memory starting alike): threads "
    "race (e.g. a missing __syncthreads(), or several threads or blocks adding to one element of global memory "
    "with += instead of atomicAdd), or a value is read before it is set";

/// What a case is told, on the GPU, whose outputs changed with the poison while its kernels used
/// no shared memory, and came back when the poison did: the poison kernel before each call leaves
/// its byte in the registers too, so a register no one set starts as NaN or -1 (0xFF), then 0.
inline constexpr const char* gpu_unset_value_message =
    "results change between runs of the same inputs on the GPU, and its kernels use no __shared__ memory: a value "
    "is read before it is set (an uninitialised local variable or accumulator?)";

/// What a case is told, on the GPU, whose outputs changed even between two runs that started
/// alike while its kernels used no shared memory: a register no one set would have started alike
/// too, so threads most likely race through global memory (the lost updates of a non-atomic +=).
inline constexpr const char* gpu_global_race_message =
    "results change between two runs of the same inputs on the GPU (memory starting alike), and its kernels use "
    "no __shared__ memory: threads race on global memory (several threads or blocks adding to one element with "
    "+= instead of atomicAdd lose updates), or a value is read before it is set";

/// Whether `message` says its case's results changed between runs of the same inputs, or with the
/// order of threads, whatever it says explains it (every sentence of this file and of
/// pipeline/change_explanations that says so starts alike).
bool says_results_change_between_runs(std::string_view message);

/// Whether `message` holds one of the guesses why results changed between runs (below).
bool has_change_guess(std::string_view message);

/// Replaces in `message` the first guess why results changed between runs (unsteady_message and
/// the three GPU sentences above) by `replacement`, and drops any other; true when there was one.
bool replace_change_guesses(std::string& message, std::string_view replacement);

/// What a run-2 task's id adds to the id of the task it repeats (zero_poison_repeats).
inline constexpr std::string_view zero_repeat_suffix = "@00";

/// Run 2 of the CUDA backend as tasks for run 1's runner, to follow all of `job`'s: each of its
/// check tasks but the reference's again (id "<id>@00", `repeats` naming it), shared memory
/// starting as 0x00, its files under `dir` (made here). One runner start fewer than a run of
/// its own (0.4 s of a matmul check on an H100).
std::vector<CheckTask> zero_poison_repeats(const Job& job, const std::filesystem::path& dir);

/// Takes the statuses of zero_poison_repeats' tasks out of `ran`: run 2, by the ids of the tasks
/// they repeat.
RunOutcome take_repeats(RunOutcome& ran);

/// Runs 2 and 3 of the CUDA backend above: `second` is run 2 (take_repeats, files under
/// first.work_dir/"poison-00"), for the check tasks of `first` that finished in `ran`; run 3 runs
/// here, under "poison-ff". `cases` are run 1's results. A case whose run 2 disagrees with run 1
/// while run 3 agrees is marked as on the CPU backend (mark_uninitialised_shared; a pass becomes
/// wrong_answer); one whose run 3 disagrees too gets gpu_unsteady_message. Where its kernels used
/// no shared memory (run 3's runner notes it: note_shared_memory_variable), the first gets
/// gpu_unset_value_message and the second gpu_global_race_message instead. A task run 2 or 3 never ran (run_job's `skipped`) says nothing. Returns how
/// many cases were marked.
std::size_t check_uninitialised_shared_on_gpu(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                              const RunRequest& first, const RunOutcome& ran,
                                              const RunOutcome& second, std::vector<CaseResult>& cases);

}  // namespace cugrade
