#include "cli/app.hpp"

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/typo_check.hpp"
#include "core/config.hpp"

namespace cugrade {

int run_cli(int argc, char** argv) {
  CLI::App app{"cugrade: builds, checks, times and grades CUDA assignments.\n"
               "Students: cugrade init vecadd mine && cugrade check vecadd --submission mine/vecadd.cu"};
  app.name("cugrade");
  app.set_version_flag("--version", config::version);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 done (whatever the grade), 1 usage, 2 invalid spec, 3 internal error,\n"
             "4 grade below --fail-under, 5 selftest mismatch. Run `cugrade <command> --help` for each command.");
  int exit_code = exit_ok;
  add_check_command(app, exit_code);
  add_grade_command(app, exit_code);
  add_similarity_command(app, exit_code);
  add_lint_command(app, exit_code);
  add_list_command(app, exit_code);
  add_calibrate_command(app, exit_code);
  add_doctor_command(app, exit_code);
  add_init_command(app, exit_code);
  add_selftest_command(app, exit_code);
  add_bench_command(app, exit_code);
  if (auto typo = find_typo(app, std::vector<std::string>(argv + std::min(argc, 1), argv + argc))) {
    std::cerr << "cugrade: " << *typo << "\n";
    return exit_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? exit_ok : exit_usage;
  }
  return exit_code;
}

}  // namespace cugrade
