// `cugrade similarity <assignment> -S DIR -o OUT`: which students' code is alike, for a person to read.
#include <iostream>

#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/similarity_option.hpp"
#include "similarity/class_similarity.hpp"

namespace cugrade {
namespace {

struct SimilarityArgs {
  std::string assignment;
  std::string submissions;
  std::string out;
  SimilarityFlags flags;
  bool keep_work = false;
};

int run_similarity(const SimilarityArgs& args) {
  const Locations where = default_locations();
  auto spec = load_assignment_to_grade(where.assignments(), args.assignment);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  auto processes = make_process_runner();
  auto written = class_similarity_for(*processes, where, *spec, absolute_path(args.submissions), absolute_path(args.out),
                                      args.flags, args.keep_work);
  if (!written) return complain(written.error().message, exit_usage);
  std::cout << describe_similarity(*written);
  return exit_ok;
}

}  // namespace

void add_similarity_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SimilarityArgs>();
  CLI::App* cmd = app.add_subcommand("similarity", "Which students' code is alike: a ranked pair table and the top pairs side by side");
  cmd->footer(
      "Compares every student's .cu files with every other's using Dick Grune's similarity tester\n"
      "(sim_c++, Debian's similarity-tester), the assignment's template taken out first, so the\n"
      "starter everyone was given does not count. Renamed identifiers, reordered functions, other\n"
      "comments and layout do not hide a copy. The result is evidence for a person to read, never a\n"
      "score: solutions of one lecture look alike, and only the code shown says what happened.\n"
      "Writes OUT/similarity.csv (every pair, ranked) and OUT/similarity.html (the top pairs side by side).\n"
      "Examples:\n"
      "  cugrade similarity matmul -S hw2/ -o hw2-grades/\n"
      "  cugrade grade matmul -S hw2/ -o hw2-grades/ --similarity   # the same, beside the grades\n"
      "See docs/similarity.md.");
  cmd->add_option("assignment", args->assignment, "Assignment id (see `cugrade list`)")->required();
  cmd->add_option("-S,--submissions", args->submissions, "Folder with one folder or archive per student, as for `cugrade grade`")
      ->required();
  cmd->add_option("-o,--out", args->out, "Folder for similarity.csv and similarity.html")->required();
  add_similarity_tuning(*cmd, args->flags);
  cmd->add_flag("--keep-work", args->keep_work, "Keep OUT/work/.similarity (the staged files and sim's own output)");
  cmd->callback([args, &exit_code] { exit_code = run_similarity(*args); });
}

}  // namespace cugrade
