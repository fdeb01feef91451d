#pragma once
// compute-sanitizer's runners started beside the cases' runner, where no other lane shares the
// GPU (a lone check, a batch's lane): a runner's start under racecheck (1.1–1.4 s on an H200,
// most of a lone check's pass) then overlaps the cases instead of following them. Another
// process's context starting clears the shared memory the cases' runner poisons, so each early
// runner says when its context exists (a ready file) and the cases' runner waits at its start
// gate until they all have; an early runner then waits at a gate of its own, in a folder it can
// read but not write, until the sanitizer's pass gives it the go (the cases it was started for
// are the ones the pass checks) or stops it (they are not, or the cases took so long that it
// may have given up waiting). runtime/start_gate.hpp has the runner's side.
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/sanitizer_pass.hpp"
#include "process/process_runner.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Whether compute-sanitizer's runners start beside the cases where nothing else shares the GPU
/// (CUGRADE_SANITIZER_AHEAD, on unless "0"; scripts/bench-setting.sh sanitizer-ahead compares).
bool sanitizer_ahead();

/// The early runners of one check. Moved, not copied; stops what it still holds when destroyed.
class EarlySanitizers {
 public:
  EarlySanitizers() = default;
  EarlySanitizers(EarlySanitizers&&) noexcept;
  EarlySanitizers& operator=(EarlySanitizers&&) noexcept;
  ~EarlySanitizers();

  /// Starts now, through `processes`, each chunk's runner (sanitized_request of `first`) in
  /// `dir`/sanitize-<tool>, its gate in `dir`/sanitizer-gates; waits for none of them.
  static EarlySanitizers start(ProcessRunner& processes, const Spec& spec, const RunRequest& first,
                               const std::filesystem::path& sanitizer, const std::vector<SanitizerChunk>& chunks,
                               const std::filesystem::path& dir);

  /// Whether no runner was started.
  bool empty() const { return runners_.empty(); }
  /// Waits, at most `most_s`, until every runner has its context or has ended; true when all did.
  bool await_ready(double most_s);
  /// The outcome of `tool`'s runner, given the go now, when it was started for exactly `ids` and
  /// cannot have given up waiting; otherwise stops it and returns nothing (the pass runs a fresh one).
  std::optional<RunOutcome> go(const std::string& tool, const std::vector<std::string>& ids);
  /// Stops every runner not given the go and waits until each has ended.
  void stop();

 private:
  struct Runner {
    std::string tool;
    std::vector<std::string> ids;
    std::filesystem::path gate, ready;
    std::future<RunOutcome> outcome;
    bool opened = false;
  };
  /// Writes `word` into the runner's gate (renamed into place: it appears whole).
  static void open_gate(Runner& runner, const std::string& word);
  std::chrono::steady_clock::time_point started_{};
  std::vector<Runner> runners_;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
};

}  // namespace cugrade
