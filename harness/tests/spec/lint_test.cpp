#include "spec/lint.hpp"

#include <doctest/doctest.h>

#include "spec/scratch_spec.hpp"
#include "spec/spec_paths.hpp"

using namespace cugrade;
using cugrade::test::spec_yaml;
using Lines = std::vector<std::string>;

TEST_CASE("spec::lint_spec_file") {
  SUBCASE("a valid spec has no problems") {
    CHECK(lint_spec_file(spec_yaml("valid_full")).empty());
    CHECK(lint_spec_file(spec_yaml("valid_minimal")).empty());
    CHECK(lint_spec_file(spec_yaml("reference_only")).empty());
  }

  SUBCASE("wrong types and out-of-range values") {
    const std::string p = spec_yaml("bad_types");
    CHECK(lint_spec_file(p) ==
          Lines{p + ":2:8: 'title' must be a string, not a sequence",
                p + ":3:11: 'lectures' must be a list, not '2'",
                p + ":5:12: 'name' must be an identifier (letters, digits and '_', not starting "
                    "with a digit), not '2fast'",
                p + ":6:24: 'rtol' must be below 1: with rtol >= 1 an answer of all zeros passes",
                p + ":9:23: 'atol' must be >= 0, not -1",
                p + ":9:33: 'rtol' must be a number, not 'x'",
                p + ":11:17: 'N' must be an integer, not '1.5'",
                p + ":11:27: 'N' must be >= 1, not -3",
                p + ":11:32: item 3 of 'sizes' must be a map, not '7'",
                p + ":12:16: item 2 of 'seeds' must be an integer, not 'x'",
                p + ":13:13: 'points' must be a number, not a sequence",
                p + ":14:17: 'visibility' must be 'visible' or 'hidden', not 'hiden'; did you "
                    "mean 'hidden'?",
                p + ":16:20: 'build_timeout_s' must be >= 0.1, not 0",
                p + ":17:20: 'output_limit_kb' must be an integer, not '0.5'"});
  }

  SUBCASE("missing required keys, named by position when the step has no name") {
    const std::string p = spec_yaml("missing_keys");
    CHECK(lint_spec_file(p) ==
          Lines{p + ":1:1: the spec has no 'title'", p + ":3:5: step 1 has no 'name'",
                p + ":3:5: step 1 has no 'entry'", p + ":4:5: step 'naive' has no 'entry'",
                p + ":5:16: the tolerance of step 'naive' has no 'reason'",
                p + ":7:5: case group 1 has no 'sizes'",
                p + ":9:5: performance target 1 has no 'step'",
                p + ":9:5: performance target 1 has no 'points'"});
  }

  SUBCASE("files named by the spec: an explicit name at its line, a default at the file") {
    const std::string p = spec_yaml("missing_files");
    const std::string dir = (cugrade::test::specs_dir() / "missing_files").string() + "/";
    CHECK(lint_spec_file(p) ==
          Lines{p + ":3:12: interface file 'kernels.cuh' does not exist (looked in " + dir + ")",
                p + ": statement file 'README.md' does not exist (looked in " + dir + ")"});
  }

  SUBCASE("entries, duplicate steps and references to unknown steps") {
    const std::string p = spec_yaml("bad_refs");
    CHECK(lint_spec_file(p) ==
          Lines{p + ":7:12: entry 'vec_ad' of step 'tiled' is not declared in interface.cuh; did "
                    "you mean 'vec_add'?",
                p + ":8:11: step 'naive' is declared twice (first at line 4)",
                p + ":9:12: entry 'vec_sub' of step 'naive' is not declared in interface.cuh",
                p + ":11:20: unknown step 'tild' in case group 1; did you mean 'tiled'? (steps: "
                    "naive, tiled)",
                p + ":14:11: unknown step 'fastest' in performance target 1 (steps: naive, tiled)",
                p + ":15:16: unknown step 'Naive' in performance target 1; did you mean 'naive'? "
                    "(steps: naive, tiled)",
                p + ":18:19: 'no_credit_at' must be below 'full_credit_at' in performance "
                    "target 1"});
  }

  SUBCASE("a case listed twice (a hidden copy of a visible case is a different case)") {
    const std::string p = spec_yaml("repeats");
    CHECK(lint_spec_file(p) == Lines{p + ":7:5: case 'naive/N=2/seed=1' is listed more than once"});
  }
}

TEST_CASE("spec::lint_spec_file on a huge spec: linear, and the output stays short" *
          doctest::timeout(120)) {
  // 5 MB values where messages quote them (a file name, a key, a misspelt choice), then 20 000
  // unknown keys and one key given 20 000 times: every check must stay linear, every message
  // excerpt what it quotes, and the list stop after 100 problems.
  const std::string big(5 << 20, 'v');
  std::string yaml = "id: vecadd\ntitle: Vector addition\nstatement: " + big + "\n? " + big +
                     "\n: 1\nsteps:\n  - {name: naive, entry: vec_add}\ncases:\n  - sizes: [{n: 4}]\n"
                     "    visibility: " + big + "\n";
  for (int i = 0; i < 20000; ++i) yaml += "unknown_" + std::to_string(i) + ": 1\n";
  yaml += "limits:\n";
  for (int i = 0; i < 20000; ++i) yaml += "  run_timeout_s: 1\n";
  const cugrade::test::ScratchSpec file(yaml);
  const Lines problems = lint_spec_file(file.path());

  REQUIRE(problems.size() == 101);
  std::size_t total = 0;
  for (const auto& line : problems) {
    CHECK(line.size() < file.path().size() + 300);
    total += line.size();
  }
  CHECK(total < 40000);
  const std::string shown = "'" + std::string(80, 'v') + "…'";
  CHECK(problems[0].starts_with(file.path() + ":3:12: statement file " + shown + " does not exist"));
  CHECK(problems[1] == file.path() + ":4:3: unknown key " + shown + " in the spec");
  CHECK(problems[2] == file.path() + ":10:17: 'visibility' must be 'visible' or 'hidden', not " + shown);
  CHECK(problems[3] == file.path() + ":11:1: unknown key 'unknown_0' in the spec");
  CHECK(problems[100] == file.path() + ": … and 39902 more problems (fix these first)");
}
