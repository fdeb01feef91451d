#pragma once
// What `cugrade similarity` writes: similarity.csv, every pair sim found alike, ranked; and
// similarity.html, the ranking and the top pairs side by side with the runs sim found marked
// (one self-contained page, like the other HTML reports). Evidence for a person to read: the
// page says so, and nothing here ever becomes a grade.
#include <cstddef>
#include <string>

#include "similarity/compare_class.hpp"

namespace cugrade {

/// What the page says about itself and how much it shows.
struct SimilarityPageOptions {
  std::string assignment;       ///< "matmul"
  std::string subtitle;         ///< one line under the title, e.g. when and how it was made
  std::size_t side_by_side = 10;  ///< pairs shown side by side, from the top
  std::size_t table_rows = 100;   ///< pairs listed in the page's table (the CSV has every one)
  std::vector<std::string> left_out = {};  ///< students not compared, with why
};

/// The CSV: rank, student_a, student_b, percent (the larger share), a_in_b_percent,
/// b_in_a_percent, run_tokens, runs, a_tokens, b_tokens (sim's tokens once the template is out).
/// Ids are spreadsheet text (no formula). Header only when no pair was found.
std::string similarity_csv(const ClassSimilarity& similarity);

/// The page: the ranking table and the first `side_by_side` pairs, each run sim found in the
/// same colour on both sides, the template's lines greyed; student ids and code escaped.
std::string render_similarity_html(const ClassSimilarity& similarity, const SimilarityPageOptions& options);

}  // namespace cugrade
