#include "spec/spec_loader.hpp"

#include <doctest/doctest.h>

#include "spec/spec_paths.hpp"

using namespace cugrade;
using cugrade::test::spec_yaml;
using cugrade::test::specs_dir;
namespace fs = std::filesystem;

TEST_CASE("spec::load_spec") {
  SUBCASE("every field of a valid spec is read") {
    const std::string path = spec_yaml("valid_full");
    const auto spec = load_spec(path);
    REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
    CHECK(spec->id == "valid_full");
    CHECK(spec->title == "Matrix multiplication");
    CHECK(spec->lectures == std::vector<std::string>{"002", "000", "003"});
    CHECK(spec->dir == specs_dir() / "valid_full");
    CHECK(spec->interface_file == specs_dir() / "valid_full" / "kernels.cuh");
    CHECK(spec->statement_file == specs_dir() / "valid_full" / "statement.md");
    CHECK(spec->where.file == path);

    REQUIRE(spec->steps.size() == 2);
    const Step& naive = spec->steps[0];
    CHECK(naive.name == "naive");
    CHECK(naive.entry == "matmul_naive");
    CHECK(naive.description == "one output element per thread");
    CHECK(naive.tolerance.atol == 1.0e-5);
    CHECK(naive.tolerance.rtol == 1.0e-4);
    CHECK(naive.tolerance.reason == "K-term FP32 dot product");
    CHECK(naive.where.file == path);
    CHECK(naive.where.line == 8);
    CHECK(naive.where.column == 5);
    CHECK(spec->steps[1].tolerance.atol == 2.0e-5);
    CHECK(spec->steps[1].tolerance.reason == "shared-memory tiles change the summation order");

    REQUIRE(spec->cases.size() == 2);
    const CaseGroup& visible = spec->cases[0];
    CHECK(visible.steps == std::vector<std::string>{"naive", "tiled"});
    CHECK(visible.sizes ==
          std::vector<Params>{{{"M", 65}, {"N", 33}, {"K", 47}}, {{"M", 1}, {"N", 1}, {"K", 1}}});
    CHECK(visible.seeds == std::vector<std::uint64_t>{1, 2});
    CHECK(visible.points == 0.5);
    CHECK(visible.visibility == Visibility::visible);
    CHECK(visible.where.line == 19);
    const CaseGroup& hidden = spec->cases[1];
    CHECK(hidden.steps == std::vector<std::string>{"tiled"});
    CHECK(hidden.seeds == std::vector<std::uint64_t>{1});
    CHECK(hidden.points == 2.0);
    CHECK(hidden.visibility == Visibility::hidden);

    REQUIRE(spec->performance.size() == 1);
    const PerformanceTarget& target = spec->performance[0];
    CHECK(target.step == "tiled");
    CHECK(target.reference == "naive");
    CHECK(target.params == Params{{"M", 2048}, {"N", 2048}, {"K", 2048}});
    CHECK(target.full_credit_at == 0.8);
    CHECK(target.no_credit_at == 0.4);
    CHECK(target.points == 5.0);
    CHECK(target.where.line == 30);

    CHECK(spec->limits.build_timeout_s == 120.0);
    CHECK(spec->limits.run_timeout_s == 2.5);
    CHECK(spec->limits.output_limit_bytes == 16 * 1024);
    CHECK(spec->limits.submission_file_bytes == 256 * 1024);
    CHECK(spec->limits.submission_bytes == 512 * 1024);
    CHECK(spec->limits.host_memory_bytes == 300ull << 20);
  }

  SUBCASE("defaults of every optional field") {
    const auto spec = load_spec(spec_yaml("valid_minimal"));
    REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
    CHECK(spec->lectures.empty());
    CHECK(spec->interface_file == specs_dir() / "valid_minimal" / "interface.cuh");
    CHECK(spec->statement_file == specs_dir() / "valid_minimal" / "README.md");
    REQUIRE(spec->steps.size() == 1);
    CHECK(spec->steps[0].description == "");
    CHECK(spec->steps[0].tolerance.atol == 0.0);
    CHECK(spec->steps[0].tolerance.rtol == 0.0);
    REQUIRE(spec->cases.size() == 1);
    CHECK(spec->cases[0].steps.empty());  // every step
    CHECK(spec->cases[0].seeds == std::vector<std::uint64_t>{1});
    CHECK(spec->cases[0].points == 1.0);
    CHECK(spec->cases[0].visibility == Visibility::visible);
    CHECK(spec->performance.empty());
    CHECK(spec->limits.build_timeout_s == 60.0);
    CHECK(spec->limits.run_timeout_s == 10.0);
    CHECK(spec->limits.output_limit_bytes == 65536);
    CHECK(spec->limits.submission_file_bytes == 1024 * 1024);
    CHECK(spec->limits.submission_bytes == 4 * 1024 * 1024);
    CHECK(spec->limits.host_memory_bytes == 1ull << 30);
  }

  SUBCASE("reference-only steps: flagged, their declarations found with the reference") {
    const auto spec = load_spec(spec_yaml("reference_only"));
    REQUIRE_MESSAGE(spec.has_value(), (spec ? "" : spec.error().message));
    REQUIRE(spec->steps.size() == 3);
    CHECK_FALSE(spec->steps[0].reference_only);
    CHECK(spec->steps[1].reference_only);
    CHECK_FALSE(spec->steps[2].reference_only);
    CHECK(spec->is_reference_only("exact"));
    CHECK_FALSE(spec->is_reference_only("simple"));
    CHECK_FALSE(spec->is_reference_only("nope"));
    CHECK(spec->reference_only_file ==
          (specs_dir().parent_path() / "reference" / "reference_only" / "reference_only.cuh").lexically_normal());
    CHECK(spec->performance.at(0).reference == "exact");
    // Without reference-only steps the file is not looked for.
    CHECK(load_spec(spec_yaml("valid_minimal"))->reference_only_file.empty());
  }

  SUBCASE("the message holds every problem, one line each") {
    const std::string p = spec_yaml("bad_keys");
    const auto spec = load_spec(p);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message ==
          p + ":1:1: the spec has no 'title'\n" + p +
              ":2:1: unknown key 'titel' in the spec; did you mean 'title'?\n" + p +
              ":6:5: unknown key 'tolerence' in step 'naive'; did you mean 'tolerance'?\n" + p +
              ":9:5: unknown key 'Description' in step 'fast'; did you mean 'description'?\n" + p +
              ":12:5: unknown key 'seed' in case group 1; did you mean 'seeds'?\n" + p +
              ":13:5: unknown key 'wibble' in case group 1\n" + p +
              ":15:3: unknown key 'run_timeout' in 'limits'; did you mean 'run_timeout_s'?\n" + p +
              ":17:3: key 'run_timeout_s' is given twice in 'limits' (first at line 16)");
  }

  SUBCASE("a YAML syntax error names its line and column") {
    const std::string p = spec_yaml("syntax_error");
    const auto spec = load_spec(p);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message == p + ":2:6: invalid YAML: end of sequence flow not found");
  }

  SUBCASE("the id must equal the folder name") {
    const std::string p = spec_yaml("wrong_id");
    const auto spec = load_spec(p);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message == p + ":1:5: id 'matmull' must equal the folder name 'wrong_id'");
  }

  SUBCASE("an empty file") {
    const std::string p = spec_yaml("empty");
    const auto spec = load_spec(p);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message ==
          p + ": the spec is empty; it needs 'id', 'title', 'steps' and 'cases'");
  }

  SUBCASE("a file that does not exist") {
    const std::string p = spec_yaml("no_such_assignment");
    const auto spec = load_spec(p);
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message == p + ": no such file");
  }

  SUBCASE("a relative path stays relative in messages; the folders become absolute") {
    const fs::path before = fs::current_path();
    fs::current_path(specs_dir());
    const auto bad = load_spec("wrong_id/assignment.yaml");
    const auto good = load_spec("valid_minimal/assignment.yaml");
    fs::current_path(before);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message ==
          "wrong_id/assignment.yaml:1:5: id 'matmull' must equal the folder name 'wrong_id'");
    REQUIRE(good.has_value());
    CHECK(good->dir == specs_dir() / "valid_minimal");
    CHECK(good->interface_file.is_absolute());
    CHECK(good->where.file == "valid_minimal/assignment.yaml");
  }
}

TEST_CASE("spec::list_assignments") {
  SUBCASE("sorted ids of the folders holding an assignment.yaml") {
    CHECK(list_assignments(specs_dir()) ==
          std::vector<std::string>{"bad_keys", "bad_refs", "bad_types", "empty", "missing_files",
                                   "missing_keys", "reference_only", "repeats", "syntax_error",
                                   "valid_full", "valid_minimal", "wrong_id"});
  }
  SUBCASE("a folder that does not exist has none") {
    CHECK(list_assignments(specs_dir() / "no_such_folder").empty());
  }
}

TEST_CASE("spec::load_assignment") {
  SUBCASE("a known id") {
    const auto spec = load_assignment(specs_dir(), "valid_minimal");
    REQUIRE(spec.has_value());
    CHECK(spec->title == "Vector addition");
  }
  SUBCASE("a misspelt id: the nearest and every known one") {
    const auto spec = load_assignment(specs_dir(), "valid_ful");
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message ==
          "unknown assignment 'valid_ful'; did you mean 'valid_full'? (known: bad_keys, bad_refs, "
          "bad_types, empty, missing_files, missing_keys, reference_only, repeats, syntax_error, "
          "valid_full, valid_minimal, wrong_id)");
  }
  SUBCASE("a folder without assignment.yaml, or a path, is not an assignment") {
    CHECK_FALSE(load_assignment(specs_dir(), "not_an_assignment").has_value());
    CHECK_FALSE(load_assignment(specs_dir(), "../specs/valid_full").has_value());
  }
  SUBCASE("no assignments at all") {
    const fs::path none = specs_dir() / "not_an_assignment";
    const auto spec = load_assignment(none, "matmul");
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message ==
          "unknown assignment 'matmul'; there are no assignments in " + none.string());
  }
  SUBCASE("an invalid spec fails with its problems") {
    const auto spec = load_assignment(specs_dir(), "wrong_id");
    REQUIRE_FALSE(spec.has_value());
    CHECK(spec.error().message ==
          spec_yaml("wrong_id") + ":1:5: id 'matmull' must equal the folder name 'wrong_id'");
  }
}
