#include "cli/similarity_option.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/printable.hpp"

namespace cugrade {

void add_similarity_tuning(CLI::App& cmd, SimilarityFlags& flags) {
  cmd.add_option("--similarity-min-run", flags.min_run,
                 "Tokens a run of alike code needs to count (sim's -r; default 32)")
      ->check(CLI::Range(8, 1000).description(""))
      ->type_name("N");
  cmd.add_option("--similarity-pairs", flags.side_by_side, "Pairs shown side by side on similarity.html (default 10)")
      ->check(CLI::Range(0, 1000).description(""))
      ->type_name("N");
}

std::filesystem::path similarity_program() {
  const char* set = std::getenv("CUGRADE_SIM");
  return set && *set ? std::filesystem::path(set) : std::filesystem::path("sim_c++");
}

Result<SimilarityWritten> class_similarity_for(ProcessRunner& processes, const Locations& where, const Spec& spec,
                                               const std::filesystem::path& submissions, const std::filesystem::path& out,
                                               const SimilarityFlags& flags, bool keep_work) {
  SimilarityRequest request;
  request.submissions = submissions;
  request.out = out;
  request.template_dir = where.templates() / spec.id;
  request.sim.sim = similarity_program();
  request.sim.min_run = flags.min_run;
  request.side_by_side = flags.side_by_side;
  request.keep_work = keep_work;
  return write_class_similarity(processes, spec, request);
}

std::string describe_similarity(const SimilarityWritten& written) {
  std::string out = fmt::format("Compared {} students: {} pair{} with code in common.\n", written.students, written.pairs,
                                written.pairs == 1 ? "" : "s");
  for (const std::string& line : written.top) out += "  " + printable(line) + "\n";
  if (!written.left_out.empty()) out += fmt::format("Not compared: {} (listed on the page).\n", written.left_out.size());
  out += fmt::format("Wrote {} and {}: evidence for a person to read, never a score.\n", written.csv.string(),
                     written.html.string());
  return out;
}

}  // namespace cugrade
