#pragma once
// Each subcommand registers itself on the app and, when chosen, stores its exit code.
#include <CLI/CLI.hpp>

namespace cugrade {

/// Exit codes (design.md §5): they speak of the harness, not of the grade.
enum ExitCode : int {
  exit_ok = 0,            ///< the command did its job (a submission was graded, whatever the grade)
  exit_usage = 1,         ///< bad command line or a missing file
  exit_invalid_spec = 2,  ///< an assignment spec is invalid or unknown
  exit_internal = 3,      ///< a fault of cugrade itself
  exit_below_bar = 4,     ///< --fail-under: graded, but below the bar
  exit_selftest_failed = 5,  ///< selftest: some verdict differs from the expected one
  exit_interrupted = 130,    ///< grade: stopped by Ctrl-C or SIGTERM before every submission was graded
};

/// `cugrade check`: grade one submission.
void add_check_command(CLI::App& app, int& exit_code);
/// `cugrade lint`: validate assignment specs.
void add_lint_command(CLI::App& app, int& exit_code);
/// `cugrade list`: assignments and their steps.
void add_list_command(CLI::App& app, int& exit_code);
/// `cugrade calibrate`: measure and cache this GPU's ceilings.
void add_calibrate_command(CLI::App& app, int& exit_code);
/// `cugrade doctor`: what this machine has, what is missing, and how to fix it.
void add_doctor_command(CLI::App& app, int& exit_code);
/// `cugrade selftest`: grade references, templates and known solutions against expectations.
void add_selftest_command(CLI::App& app, int& exit_code);
/// `cugrade init`: copy an assignment's template to start from.
void add_init_command(CLI::App& app, int& exit_code);
/// `cugrade bench`: the lectures' tables reproduced on this GPU (every reference kernel, timed).
void add_bench_command(CLI::App& app, int& exit_code);
/// `cugrade grade`: grade a whole class (gradebook, reports per student, class summary).
void add_grade_command(CLI::App& app, int& exit_code);
/// `cugrade similarity`: which students' code is alike (a ranked pair table, the top pairs side by side).
void add_similarity_command(CLI::App& app, int& exit_code);

}  // namespace cugrade
