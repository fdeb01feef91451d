#pragma once
// `cugrade grade`'s command line, shared by its local run (grade_command.cpp) and its cluster
// modes (grade_cluster.cpp: `--collect`, `--slurm`).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "batch/progress.hpp"
#include "cli/similarity_option.hpp"
#include "core/result.hpp"

namespace cugrade {

/// What `cugrade grade` was given.
struct GradeArgs {
  std::string assignment;
  std::string submissions;
  std::string out;
  std::size_t jobs = 0;
  std::size_t runs_per_gpu = 0;  ///< --runs-per-gpu N (0: default_grade_runs_per_gpu)
  std::string backend = "auto";
  std::string arch;
  std::optional<std::string> regrade;
  std::string deadline;
  std::string late_policy;  ///< --late-policy "grace=15m,per-day=10%,max-days=3"
  std::string extensions;   ///< --extensions FILE.csv (student, deadline)
  std::string secret_file;
  std::string progress = "auto";
  bool no_performance = false;
  bool no_sanitizer = false;
  bool no_diagnosis = false;
  bool keep_work = false;
  bool allow_unsealed = false;
  bool leaderboard_names = false;       ///< --leaderboard-names
  bool quiet = false;
  bool similarity = false;              ///< --similarity
  SimilarityFlags similarity_flags;     ///< --similarity's tuning
  std::string shard;                    ///< --shard I/N
  bool collect = false;                 ///< --collect
  bool slurm = false;                   ///< --slurm
  std::size_t shards = 0;               ///< --shards N (0: from the class size)
  std::vector<std::string> slurm_args;  ///< --slurm-arg ARG, repeatable
  bool no_wait = false;                 ///< --no-wait
  std::size_t max_running = 16;         ///< --max-running K: the arrays' %K
};

/// How progress is shown: --progress, or a bar on a terminal and lines elsewhere.
Result<ProgressStyle> progress_style(const GradeArgs& args);

/// `cugrade grade --collect`: the gradebook and summary from the result files.
int run_grade_collect(const GradeArgs& args);

/// `cugrade grade --slurm`: the class graded by a Slurm job array.
int run_grade_on_slurm(const GradeArgs& args);

}  // namespace cugrade
