#pragma once
// The assignment's own proof that grading works: the reference earns full marks, the template
// compiles and fails, and each known-good and known-bad solution (and each attack of
// solutions/attacks/) gets the outcome (and the feedback) that graders/<id>/solutions/expected.yaml
// says it must, earns no more than it may, says nothing it must not, and ends in time.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "pipeline/check_submission.hpp"
#include "pipeline/selftest_entries.hpp"

namespace cugrade {

/// The verdict on one entry.
struct SelftestResult {
  std::string assignment;  ///< the id of the assignment it belongs to
  SelftestEntry entry;
  GradeReport report;
  bool ok = false;
  std::string why;       ///< what differed, when not ok
  double seconds = 0.0;  ///< how long its check took (its own stages, not its wait for a worker)
  StageSeconds stages;   ///< where that time went
  /// Graded beside other lanes on one GPU, it missed its expectation and was graded again alone
  /// (the verdict above is that one): what it got beside them, "crashed: expected passed, got
  /// crashed (case-3: ...)". Empty otherwise.
  std::string beside_others;
  /// Where each timed step's time went ("timed naive in 0.4 s: loading 0.05 s, warm-up 0.10 s,
  /// ..."), for `selftest --verbose`; empty where nothing was timed.
  std::vector<std::string> timing_phases;
};

/// One assignment's self-test: its spec, its grader, and the entries to grade.
struct SelftestSuite {
  const Spec* spec = nullptr;
  const Grader* grader = nullptr;
  std::vector<SelftestEntry> entries;
};

/// Whether `entry`'s expectation speaks of performance: the reference (full marks), an entry that
/// must pass, and one bounded in points or named a diagnosis. The others must fail their cases,
/// which no timing of their passing steps can change.
bool judged_on_performance(const SelftestEntry& entry);

/// The options `entry` is checked with: `options` with its files; timed only where
/// judged_on_performance, and Nsight Compute's diagnosis only where the entry names the causes it
/// must get, of the steps it names them for (GPU time nothing is judged on is spent for nothing:
/// reduction's divergent_reduce3.cu is slow in three steps, and is judged on one). `cpu_threads`: the CPU
/// backend's threads per runner (0: not set).
CheckOptions selftest_check_options(const CheckOptions& options, const SelftestEntry& entry, std::size_t cpu_threads);

/// How many workers a self-test uses.
struct SelftestWorkers {
  std::size_t jobs = 0;          ///< builds at a time (0: one per core)
  /// Entries run side by side on the GPU, taking turns (gpu_turns.hpp): their cases and
  /// sanitizer passes together, each timing and diagnosis alone. An entry that misses its
  /// expectation beside others is graded again alone. 1: one entry at a time; 0:
  /// default_runs_per_gpu of this machine's cores, and default_runs_per_gpu_once_built once every
  /// entry is built.
  std::size_t runs_per_gpu = 1;
  /// Where each entry's seconds before its turn alone (build, inputs, cases, sanitizer) are kept
  /// for the next self-test, which starts the longest first (entry_order.hpp); empty: the
  /// listing's order, nothing kept.
  std::filesystem::path seconds_file = {};
  /// The seconds of the entries `seconds_file` has none for (a machine's first self-test), kept
  /// with the course (graders/selftest-seconds.json: a self-test's, on a GPU, written as
  /// seconds_file is); only read. Empty: none.
  std::filesystem::path first_seconds_file = {};
};

/// The key of an entry's seconds in SelftestWorkers::seconds_file: "cuda|matmul|bad/x.cu".
std::string entry_seconds_key(const std::string& backend, const std::string& assignment, const SelftestEntry& entry);

/// How long a reference's timing baseline serves in a self-test, in seconds: the whole run (a
/// batch's serves 30 s, baseline_cache.hpp).
inline constexpr double selftest_baseline_lifetime_s = 3600.0;

/// Entries side by side on one GPU by default on a machine with `cores` cores: 3 per 8 cores, at
/// most 6 (on an H100 with 16 cores, with the turns alone after the shared work, 6 at a time took
/// 235-261 s, 4 took 264 s and 8 took 254 s while failing more neighbours: docs/measurements.md).
std::size_t default_runs_per_gpu(std::size_t cores);

/// Entries side by side by default once every build is done: half as many again as
/// default_runs_per_gpu. The builds took most of the cores (on an H200 with 16, 5-30 % idle while
/// they ran, 40-90 % after), and the last third of the shared work, mostly waits (timeouts, runner
/// and sanitizer starts), left the GPU idle most of each second at 6 (docs/measurements.md).
std::size_t default_runs_per_gpu_once_built(std::size_t cores);

/// Grades every entry of every suite with `options` (its submission replaced) and judges each
/// result, as one batch: `workers.jobs` builds at a time, so the next assignment's files build
/// while this one's run; on a GPU, `workers.runs_per_gpu` entries run at a time; each case's
/// inputs and gold made once. The entries start in the suites' order, or longest first where
/// `workers.seconds_file` (else `workers.first_seconds_file`) kept their seconds; the results
/// come back in the suites' order.
/// `on_result`, when set, hears each one as soon as it is judged (a line per submission; one call
/// at a time, in the order they finish).
std::vector<SelftestResult> run_selftest(const CheckContext& context, const std::vector<SelftestSuite>& suites,
                                         const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result = {},
                                         SelftestWorkers workers = {});

/// The same, for one assignment's `entries`.
std::vector<SelftestResult> run_selftest(const CheckContext& context, const Spec& spec, const Grader& grader,
                                         const std::vector<SelftestEntry>& entries, const CheckOptions& options,
                                         const std::function<void(const SelftestResult&)>& on_result = {},
                                         SelftestWorkers workers = {});

}  // namespace cugrade
