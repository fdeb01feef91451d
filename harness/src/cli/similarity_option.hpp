#pragma once
// What `cugrade similarity` and `cugrade grade --similarity` share: the tuning flags, the run,
// and the lines said when it is done.
#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "core/locations.hpp"
#include "similarity/class_similarity.hpp"

namespace cugrade {

/// The flags that tune the comparison.
struct SimilarityFlags {
  int min_run = 32;              ///< --similarity-min-run
  std::size_t side_by_side = 10; ///< --similarity-pairs
};

/// Adds --similarity-min-run and --similarity-pairs to `cmd`.
void add_similarity_tuning(CLI::App& cmd, SimilarityFlags& flags);

/// The similarity tester to run: $CUGRADE_SIM, else sim_c++ on PATH.
std::filesystem::path similarity_program();

/// The class under `submissions` compared, OUT/similarity.{csv,html} written, the template
/// being templates/<spec.id>/.
Result<SimilarityWritten> class_similarity_for(ProcessRunner& processes, const Locations& where, const Spec& spec,
                                               const std::filesystem::path& submissions, const std::filesystem::path& out,
                                               const SimilarityFlags& flags, bool keep_work);

/// "Compared 40 students: 3 pairs ... wrote OUT/similarity.html", with the first pairs named.
std::string describe_similarity(const SimilarityWritten& written);

}  // namespace cugrade
