// selftest_entries(): what an assignment's self-test grades, read from its folders and from
// graders/<id>/solutions/expected.yaml.
#include "pipeline/selftest_entries.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "spec/spec_loader.hpp"

namespace fs = std::filesystem;
using namespace cugrade;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

/// A repository root with reference/twice/, templates/twice/ and graders/twice/solutions/.
struct SelftestLayout {
  fs::path root;
  Locations where;

  SelftestLayout() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-selftest-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root = pattern;
    where.root = root;
    write_file(root / "reference" / "twice" / "twice.cu", "// reference\n");
    write_file(root / "templates" / "twice" / "twice.cu", "// template\n");
    write_file(solutions() / "good" / "plain.cu", "// good\n");
    write_file(solutions() / "bad" / "last.cu", "// bad\n");
  }
  ~SelftestLayout() { fs::remove_all(root); }

  fs::path solutions() const { return root / "graders" / "twice" / "solutions"; }
  fs::path listing() const { return solutions() / "expected.yaml"; }
};

}  // namespace

TEST_CASE("pipeline::selftest_entries") {
  SelftestLayout layout;

  SUBCASE("the reference, the template, then every listed solution in order") {
    write_file(layout.root / "reference" / "twice" / "helpers.cu", "// second file\n");
    write_file(layout.root / "reference" / "twice" / "notes.md", "not a source\n");
    write_file(layout.listing(),
               "# known solutions\n"
               "- {file: good/plain.cu, outcome: passed}\n"
               "- file: bad/last.cu\n"
               "  outcome: wrong_answer\n"
               "  feedback: only the last element is wrong\n"
               "  flaky_on_gpu: true\n"
               "  sanitizer: true\n"
               "  alone: true\n"
               "  backends: [cpu]\n"
               "  note: why the GPU may hide it\n"
               "- {file: good/plain.cu, outcome: passed, diagnosis: {tiled: bank_conflicts, naive: no_reuse}}\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_MESSAGE(entries.has_value(), (entries ? "" : entries.error().message));
    REQUIRE(entries->size() == 5);
    const SelftestEntry& reference = (*entries)[0];
    CHECK(reference.label == "reference");
    CHECK(reference.expect_full_marks);
    CHECK(reference.reference_only_steps);
    CHECK_FALSE(reference.expect_failure);
    // Every .cu file of the folder, sorted; nothing else.
    CHECK(reference.files == std::vector<fs::path>{layout.root / "reference" / "twice" / "helpers.cu",
                                                   layout.root / "reference" / "twice" / "twice.cu"});
    const SelftestEntry& starter = (*entries)[1];
    CHECK(starter.label == "template");
    CHECK(starter.expect_failure);
    CHECK_FALSE(starter.reference_only_steps);
    CHECK_FALSE(starter.expect_full_marks);
    CHECK(starter.files == std::vector<fs::path>{layout.root / "templates" / "twice" / "twice.cu"});
    const SelftestEntry& good = (*entries)[2];
    CHECK(good.label == "good/plain.cu");
    CHECK(good.files == std::vector<fs::path>{layout.solutions() / "good" / "plain.cu"});
    CHECK(good.expected == Outcome::passed);
    CHECK(good.feedback.empty());
    CHECK_FALSE(good.flaky_on_gpu);
    CHECK_FALSE(good.sanitizer);
    CHECK_FALSE(good.alone);
    CHECK(good.backends == std::vector<std::string>{"cuda", "cpu"});
    const SelftestEntry& bad = (*entries)[3];
    CHECK(bad.label == "bad/last.cu");
    CHECK(bad.expected == Outcome::wrong_answer);
    CHECK(bad.feedback == "only the last element is wrong");
    CHECK(bad.flaky_on_gpu);
    CHECK(bad.sanitizer);
    CHECK(bad.alone);
    CHECK(bad.backends == std::vector<std::string>{"cpu"});
    CHECK(bad.diagnosis.empty());
    const SelftestEntry& slow = (*entries)[4];
    CHECK(slow.diagnosis == std::map<std::string, std::string>{{"naive", "no_reuse"}, {"tiled", "bank_conflicts"}});
  }

  SUBCASE("an attack's limits: what it may earn, what its report must not say, how long it may take") {
    write_file(layout.listing(),
               "- {file: bad/last.cu, outcome: wrong_answer, absent: \"root:x:0:0\", score_at_most: 1,\n"
               "   performance_at_most: 0, seconds_at_most: 30}\n"
               "- {file: good/plain.cu, outcome: passed}\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_MESSAGE(entries.has_value(), (entries ? "" : entries.error().message));
    REQUIRE(entries->size() == 4);
    const SelftestEntry& attack = (*entries)[2];
    CHECK(attack.absent == "root:x:0:0");
    CHECK(attack.score_at_most == 1.0);
    CHECK(attack.performance_at_most == 0.0);
    CHECK(attack.seconds_at_most == 30.0);
    const SelftestEntry& plain = (*entries)[3];
    CHECK(plain.absent.empty());
    CHECK_FALSE(plain.score_at_most.has_value());
    CHECK_FALSE(plain.performance_at_most.has_value());
    CHECK_FALSE(plain.seconds_at_most.has_value());
  }

  SUBCASE("without expected.yaml: the reference and the template only") {
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE(entries.has_value());
    REQUIRE(entries->size() == 2);
    CHECK((*entries)[0].label == "reference");
    CHECK((*entries)[1].label == "template");
  }

  SUBCASE("an unknown outcome names the file and the entry") {
    write_file(layout.listing(), "- {file: good/plain.cu, outcome: passed}\n"
                                 "- {file: bad/last.cu, outcome: wrong_anwser}\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message == layout.listing().string() + ": unknown outcome for bad/last.cu");
  }

  SUBCASE("a listed solution that does not exist") {
    write_file(layout.listing(), "- {file: bad/missing.cu, outcome: crashed}\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message == layout.listing().string() + ": bad/missing.cu does not exist");
  }

  SUBCASE("malformed YAML names the file and where") {
    write_file(layout.listing(), "- {file: good/plain.cu, outcome: passed\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message.starts_with(layout.listing().string() + ": yaml-cpp: error at line "));
  }

  SUBCASE("an entry without a file names the missing key") {
    write_file(layout.listing(), "- {file: good/plain.cu, outcome: passed}\n- {outcome: crashed}\n");
    const auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message.starts_with(layout.listing().string() + ": "));
    CHECK(entries.error().message.find("\"file\"") != std::string::npos);
  }

  SUBCASE("no reference, or no template, is refused") {
    fs::remove_all(layout.root / "reference" / "twice");
    auto entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message == "reference/twice/ holds no .cu file");
    write_file(layout.root / "reference" / "twice" / "twice.cu", "// reference\n");
    fs::remove(layout.root / "templates" / "twice" / "twice.cu");
    entries = selftest_entries(layout.where, "twice");
    REQUIRE_FALSE(entries.has_value());
    CHECK(entries.error().message == "templates/twice/ holds no .cu file");
  }
}

TEST_CASE("pipeline::selftest_entries of the course's assignments") {
  // Every solution the real expected.yaml files list exists, with a known outcome.
  Locations where;
  where.root = CUGRADE_SOURCE_ROOT;
  for (const std::string id : {"vecadd", "matmul", "transpose", "reduction", "nbody"}) {
    CAPTURE(id);
    const auto entries = selftest_entries(where, id);
    REQUIRE_MESSAGE(entries.has_value(), (entries ? "" : entries.error().message));
    CHECK(entries->size() > 2);
    // A diagnosis expectation names a timed step and a cause the rules can name.
    const auto spec = load_assignment(where.assignments(), id);
    REQUIRE(spec.has_value());
    for (const SelftestEntry& e : *entries)
      for (const auto& [step, cause] : e.diagnosis) {
        CAPTURE(e.label);
        CAPTURE(step);
        CHECK(std::any_of(spec->performance.begin(), spec->performance.end(),
                          [&](const PerformanceTarget& t) { return t.step == step; }));
        CHECK(std::set<std::string>{"uncoalesced_stores", "uncoalesced_loads", "bank_conflicts", "occupancy", "no_reuse",
                                    "work_per_thread", "divergence", "instructions"}
                  .count(cause) == 1);
      }
  }
}
