#include <doctest/doctest.h>

#include "cli/typo_check.hpp"

using namespace cugrade;

namespace {
/// A command line shaped like cugrade's: two commands with a few options.
struct TestApp {
  CLI::App app{"test"};
  std::string backend, report;
  TestApp() {
    CLI::App* check = app.add_subcommand("check", "");
    check->add_option("--backend,-b", backend);
    check->add_option("--report", report);
    app.add_subcommand("grade", "");
  }
};
}  // namespace

TEST_CASE("cli::find_typo") {
  TestApp t;
  SUBCASE("known names, values and the end of options pass") {
    CHECK_FALSE(find_typo(t.app, {"check", "vecadd", "--backend", "cpu", "--report=json=x", "-b", "cpu"}));
    CHECK_FALSE(find_typo(t.app, {"--version"}));
    CHECK_FALSE(find_typo(t.app, {"check", "--", "--not-an-option"}));
    CHECK_FALSE(find_typo(t.app, {"check", "--help"}));
  }
  SUBCASE("a misspelt command names the nearest and lists them all") {
    CHECK(find_typo(t.app, {"chekc", "vecadd"}) ==
          std::optional<std::string>("unknown command 'chekc'; did you mean 'check'? (commands: check, grade)"));
    CHECK(find_typo(t.app, {"frobnicate"}) == std::optional<std::string>("unknown command 'frobnicate' (commands: check, grade)"));
  }
  SUBCASE("a misspelt option of the command, with or without a value after '='") {
    CHECK(find_typo(t.app, {"check", "vecadd", "--backedn", "cpu"}) ==
          std::optional<std::string>("unknown option '--backedn' for `cugrade check`; did you mean '--backend'? (see "
                                     "cugrade check --help)"));
    CHECK(find_typo(t.app, {"check", "--reprot=json=x"})->starts_with("unknown option '--reprot' for `cugrade check`; did you mean '--report'?"));
  }
}
