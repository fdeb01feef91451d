// parse_steps(): the `steps:` list, and where each step's entry point must be declared.
#include <doctest/doctest.h>

#include "spec/spec_parser.hpp"

using namespace cugrade;
using Lines = std::vector<std::string>;

namespace {

/// interface.cuh declares vec_add and vec_add_fast; reference/vecadd/reference_only.cuh declares
/// vec_add_f64 (or does not exist, when `reference_only_file` is false).
EntryFiles entry_files(bool reference_only_file = true) {
  EntryFiles files;
  files.interface = {"interface.cuh", std::vector<std::string>{"vec_add", "vec_add_fast"}};
  files.reference_only.shown_name = "reference/vecadd/reference_only.cuh";
  if (reference_only_file) files.reference_only.names = std::vector<std::string>{"vec_add_f64"};
  return files;
}

/// parse_steps over the YAML list `text`, as the value of the spec's `steps`.
std::vector<Step> steps_of(const std::string& text, Diagnostics& diags, const EntryFiles& files = entry_files()) {
  const YAML::Node value = YAML::Load(text);
  return parse_steps(Field{"'steps'", value, value}, files, diags);
}

}  // namespace

TEST_CASE("spec::parse_steps") {
  Diagnostics diags("t.yaml");

  SUBCASE("reference_only: false by default; true declares the entry in reference_only.cuh") {
    const auto steps = steps_of(
        "[{name: naive, entry: vec_add}, {name: fast, entry: vec_add_fast, reference_only: false},"
        " {name: naive_f64, entry: vec_add_f64, reference_only: true}]",
        diags);
    CHECK(diags.lines() == Lines{});
    REQUIRE(steps.size() == 3);
    CHECK_FALSE(steps[0].reference_only);
    CHECK_FALSE(steps[1].reference_only);
    CHECK(steps[2].reference_only);
    CHECK(steps[2].entry == "vec_add_f64");
  }

  SUBCASE("host_work: refused by default; allowed where the lecture computes on the host") {
    const auto steps = steps_of(
        "[{name: naive, entry: vec_add}, {name: fast, entry: vec_add_fast, host_work: allowed},"
        " {name: naive_f64, entry: vec_add_f64, reference_only: true, host_work: refused}]",
        diags);
    CHECK(diags.lines() == Lines{});
    REQUIRE(steps.size() == 3);
    CHECK_FALSE(steps[0].host_work_allowed);
    CHECK(steps[1].host_work_allowed);
    CHECK_FALSE(steps[2].host_work_allowed);
  }

  SUBCASE("host_work: any other value, with the nearest") {
    steps_of("[{name: naive, entry: vec_add, host_work: alowed}]", diags);
    CHECK(diags.lines() == Lines{"t.yaml:1:43: 'host_work' must be 'refused' (the default) or 'allowed', not "
                                 "'alowed'; did you mean 'allowed'?"});
  }

  SUBCASE("a reference-only entry missing from reference_only.cuh, with the nearest name") {
    steps_of("[{name: naive_f64, entry: vec_add_f46, reference_only: true}]", diags);
    CHECK(diags.lines() ==
          Lines{"t.yaml:1:27: entry 'vec_add_f46' of reference-only step 'naive_f64' is not declared in "
                "reference/vecadd/reference_only.cuh; did you mean 'vec_add_f64'?"});
  }

  SUBCASE("a reference-only entry that students would have to write") {
    steps_of("[{name: fast, entry: vec_add_fast, reference_only: true}]", diags);
    CHECK(diags.lines() ==
          Lines{"t.yaml:1:22: entry 'vec_add_fast' of reference-only step 'fast' is declared in "
                "interface.cuh, which students implement; declare it only in "
                "reference/vecadd/reference_only.cuh",
                "t.yaml:1:22: entry 'vec_add_fast' of reference-only step 'fast' is not declared in "
                "reference/vecadd/reference_only.cuh"});
  }

  SUBCASE("a student's step whose entry only reference_only.cuh declares") {
    steps_of("[{name: naive_f64, entry: vec_add_f64}]", diags);
    CHECK(diags.lines() ==
          Lines{"t.yaml:1:27: entry 'vec_add_f64' of step 'naive_f64' is not declared in interface.cuh "
                "(it is declared in reference/vecadd/reference_only.cuh: add 'reference_only: true' if "
                "students do not write this step)"});
  }

  SUBCASE("no reference_only.cuh: each reference-only step says where its entry belongs") {
    const auto steps = steps_of(
        "[{name: naive, entry: vec_add}, {name: naive_f64, entry: vec_add_f64, reference_only: true}]",
        diags, entry_files(false));
    CHECK(steps.size() == 2);
    CHECK(diags.lines() ==
          Lines{"t.yaml:1:58: entry 'vec_add_f64' of reference-only step 'naive_f64' must be declared in "
                "reference/vecadd/reference_only.cuh, which does not exist"});
  }

  SUBCASE("reference_only takes true or false only") {
    const auto steps = steps_of("[{name: naive, entry: vec_add, reference_only: yes}]", diags);
    REQUIRE(steps.size() == 1);
    CHECK_FALSE(steps[0].reference_only);
    CHECK(diags.lines() == Lines{"t.yaml:1:48: 'reference_only' must be true or false, not 'yes'"});
  }

  SUBCASE("a misspelt key suggests reference_only") {
    steps_of("[{name: naive, entry: vec_add, reference_onyl: true}]", diags);
    CHECK(diags.lines() == Lines{"t.yaml:1:32: unknown key 'reference_onyl' in step 'naive'; did you "
                                 "mean 'reference_only'?"});
  }
}
