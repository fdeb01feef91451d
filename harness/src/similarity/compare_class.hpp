#pragma once
// A class compared pair by pair with Dick Grune's similarity tester (sim_c++, Debian's
// `similarity-tester`), the assignment's template taken out first (similarity/base_code.hpp).
// The numbers are sim's own: its percentages (-p) and its runs (-n), each pair compared in
// isolation (-e). Similarity is evidence for a person to read, never a score.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "process/process_runner.hpp"
#include "similarity/class_code.hpp"
#include "similarity/sim_output.hpp"

namespace cugrade {

/// How sim is run.
struct SimilarityOptions {
  std::filesystem::path sim = "sim_c++";  ///< the program (looked up on PATH)
  /// -r for the class: tokens a run needs. 32, not sim's 24: a vector addition's whole kernel is
  /// about 24 tokens, alike in everyone's code (docs/similarity.md has the measurement).
  int min_run = 32;
  int base_min_run = 12;  ///< -r against the template: shorter, so a starter's short lines go too
  double timeout_s = 600.0;
};

/// Two students whose code sim found alike.
struct SimilarPair {
  std::size_t a = 0, b = 0;  ///< indexes into ClassSimilarity::students, a < b
  int a_percent = 0;         ///< a's code (template aside) that also lies in b's, sim's -p
  int b_percent = 0;         ///< the other way round
  int run_tokens = 0;        ///< the tokens of the runs below, together
  std::vector<SimRun> runs;  ///< file_a is a's, file_b b's, largest first
  /// What the pairs are ranked by: the larger share (a copied part of a larger file counts).
  int percent() const { return std::max(a_percent, b_percent); }
};

/// The class compared.
struct ClassSimilarity {
  std::vector<StudentCode> students;          ///< as read
  std::vector<std::vector<LineSpan>> base;    ///< per student: the lines taken out as the template's
  std::vector<long> tokens;                   ///< per student: sim's tokens once the template is out
  std::vector<SimilarPair> pairs;             ///< every pair sim found alike, most alike first
  std::string tool;                           ///< "sim_c++ 3.0.2 (Debian similarity-tester)", as sim -v says
  int min_run = 0;                            ///< SimilarityOptions::min_run used
};

/// Compares `students` pair by pair with `base` (the template) taken out, staging their files
/// under `work` (emptied first). Fails when sim cannot be run or prints what cugrade cannot read.
Result<ClassSimilarity> compare_class(ProcessRunner& processes, std::vector<StudentCode> students,
                                      const StudentCode& base, const std::filesystem::path& work,
                                      const SimilarityOptions& options = {});

/// "sim_c++ <version>" when `sim` runs, else nothing (for `cugrade doctor`).
std::string sim_version(ProcessRunner& processes, const std::filesystem::path& sim = "sim_c++");

}  // namespace cugrade
