#pragma once
// `cugrade similarity` end to end: a class read as the batch reads it, compared by sim with the
// template taken out, OUT/similarity.csv and OUT/similarity.html written.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "process/process_runner.hpp"
#include "similarity/compare_class.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What to compare and where the result goes.
struct SimilarityRequest {
  std::filesystem::path submissions;   ///< as `cugrade grade --submissions` takes it
  std::filesystem::path out;           ///< similarity.csv, similarity.html; work/.similarity while it runs
  std::filesystem::path template_dir;  ///< templates/<id>/: the base code taken out
  SimilarityOptions sim;
  std::size_t side_by_side = 10;       ///< pairs shown side by side on the page
  bool keep_work = false;              ///< keep OUT/work/.similarity (the staged files, sim's raw output)
};

/// What was written.
struct SimilarityWritten {
  std::filesystem::path csv, html;
  std::size_t students = 0;            ///< compared
  std::size_t pairs = 0;               ///< with a run in common
  std::vector<std::string> left_out;   ///< not compared, with why
  std::vector<std::string> top;        ///< "alice and bob: 97 %", the first few pairs
};

/// Reads the class, compares it and writes the CSV and the page for `spec`'s assignment. Fails
/// when the submissions or the template cannot be read, sim cannot be run, or OUT not written.
Result<SimilarityWritten> write_class_similarity(ProcessRunner& processes, const Spec& spec,
                                                 const SimilarityRequest& request);

}  // namespace cugrade
