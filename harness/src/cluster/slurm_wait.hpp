#pragma once
// Waiting for a class's Slurm jobs: the result files say what is done, squeue what may still
// write one. On a terminal a bar; otherwise a line per finished shard (and a line a minute on
// what the queue holds), which is what a log reader wants.
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "batch/progress.hpp"
#include "cluster/array_chunks.hpp"
#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// The jobs of one submission and the students they grade.
struct SubmittedClass {
  std::filesystem::path out;
  std::size_t shards = 1;
  /// Per array job id: its chunk (which shards its tasks grade).
  std::vector<std::pair<std::string, ArrayChunk>> arrays;
  std::string collect_job;  ///< empty: none
  /// Per shard: its students graded now, each with its result's time before the jobs ("" when none).
  std::map<std::size_t, std::map<std::string, std::filesystem::file_time_type>> to_grade;
  std::size_t students = 0;  ///< in the class
};

/// Waits until no job of `submitted` is queued any more, showing progress on `log`. Returns the
/// students whose result was written meanwhile.
Result<std::vector<std::string>> wait_for_class(ProcessRunner& processes, const SubmittedClass& submitted,
                                                ProgressStyle style, std::size_t columns, std::ostream& log);

/// Whether the result of `student` under `out` was written after `before` (a file time; the
/// epoch's when there was none).
bool result_written_since(const std::filesystem::path& out, const std::string& student,
                          std::filesystem::file_time_type before);

}  // namespace cugrade
