// CaseMaterials (harness/src/pipeline/case_materials.cpp): each case's inputs and gold made once
// for every check of a batch, the same for every thread that asks, and failures shared too; each
// input file written once where a batch gives a folder for them, every check linking to it.
#include "pipeline/case_materials.hpp"

#include <doctest/doctest.h>

#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <vector>

#include "twice_fixture.hpp"

using namespace cugrade;
using cugrade::test::twice_grader;

namespace {
Case twice_case(std::int64_t n, std::uint64_t seed) {
  return Case{"step/n=" + std::to_string(n), "step", Params{{"n", n}}, seed, 1.0, Visibility::visible};
}

/// twice_grader, counting how often it generates and computes a gold.
struct CountingGrader {
  std::atomic<int> generated{0}, golds{0};
  Grader grader;
  CountingGrader() : grader(twice_grader) {
    grader.generate = [this](const Case& c, Rng& rng) {
      ++generated;
      return twice_grader.generate(c, rng);
    };
    grader.gold = [this](const Case& c, const ArraySet& inputs) {
      ++golds;
      return twice_grader.gold(c, inputs);
    };
  }
};
}  // namespace

TEST_CASE("pipeline::CaseMaterials") {
  CountingGrader counting;
  CaseMaterials materials;

  SUBCASE("a case asked for twice is made once and is the same object") {
    const auto first = materials.for_case(counting.grader, twice_case(8, 1));
    const auto again = materials.for_case(counting.grader, twice_case(8, 1));
    CHECK(first == again);
    CHECK(counting.generated == 1);
    CHECK(counting.golds == 1);
    CHECK(first->gold.at("y").value(3) == 2.0 * first->inputs.at("x").value(3));
    CHECK(first->outputs.at("y").dims == std::vector<std::int64_t>{8});
  }
  SUBCASE("another seed, size or kind is another case; a timing target has no gold") {
    materials.for_case(counting.grader, twice_case(8, 1));
    const auto other_seed = materials.for_case(counting.grader, twice_case(8, 2));
    materials.for_case(counting.grader, twice_case(9, 1));
    const auto timed = materials.for_timing(counting.grader, twice_case(8, 1));
    CHECK(materials.made() == 4);
    CHECK(counting.golds == 3);
    CHECK(timed->gold.empty());
    CHECK(other_seed->inputs.at("x").bytes != timed->inputs.at("x").bytes);
  }
  SUBCASE("threads asking at once get one material, made once") {
    std::vector<std::shared_ptr<const CaseMaterial>> got(8);
    {
      std::vector<std::jthread> threads;
      for (std::size_t t = 0; t < got.size(); ++t)
        threads.emplace_back([&, t] { got[t] = materials.for_case(counting.grader, twice_case(100000, 7)); });
    }
    CHECK(counting.generated == 1);
    for (const auto& g : got) CHECK(g == got.front());
  }
  SUBCASE("a generator's failure reaches every caller, and is not retried as a silent success") {
    Grader failing = twice_grader;
    failing.generate = [](const Case&, Rng&) -> CaseData { throw std::runtime_error("generator broke"); };
    CHECK_THROWS_WITH_AS(materials.for_case(failing, twice_case(8, 1)), "generator broke", std::runtime_error);
    CHECK_THROWS_WITH_AS(materials.for_case(failing, twice_case(8, 1)), "generator broke", std::runtime_error);
  }
  SUBCASE("a case carries its grader's mistake models only while its work is affordable") {
    Grader modelled = twice_grader;
    modelled.mistakes = {{"tripled", "your y is tripled", {}, [](const Case&, const ArraySet&) { return ArraySet{}; }}};
    double flops = 0.0;
    modelled.work = [&flops](const std::string&, const Params&) { return Work{.bytes = 1.0, .flops = flops}; };
    CHECK(materials.for_case(twice_grader, twice_case(8, 1))->mistakes == nullptr);  // it has none
    CHECK(materials.for_case(modelled, twice_case(8, 2))->mistakes == &modelled.mistakes);
    flops = 2.0 * kMostMistakeModelWork;
    CHECK(materials.for_case(modelled, twice_case(8, 3))->mistakes == nullptr);
  }
}

TEST_CASE("pipeline::CaseMaterials::place_inputs") {
  namespace fs = std::filesystem;
  CountingGrader counting;
  char pattern[] = "/tmp/cugrade-place-inputs-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const fs::path dir = pattern;
  const auto read_back = [](const fs::path& file) {
    const auto arrays = read_array_file(file.string());
    REQUIRE(arrays.has_value());
    return arrays->at("x").bytes;
  };

  SUBCASE("without a shared folder each check writes a file of its own") {
    CaseMaterials materials;
    const auto material = materials.for_case(counting.grader, twice_case(8, 1));
    materials.place_inputs(material, dir / "a.in");
    materials.place_inputs(material, dir / "b.in");
    CHECK(fs::hard_link_count(dir / "a.in") == 1);
    CHECK(read_back(dir / "b.in") == material->inputs.at("x").bytes);
  }
  SUBCASE("with one, every check's file is a link to one file written once") {
    CaseMaterials materials(dir / "shared");
    const auto material = materials.for_case(counting.grader, twice_case(8, 1));
    const auto other = materials.for_case(counting.grader, twice_case(9, 1));
    fs::create_directories(dir / "one");
    fs::create_directories(dir / "two");
    materials.place_inputs(material, dir / "one" / "case-0.in");
    materials.place_inputs(material, dir / "two" / "case-0.in");
    materials.place_inputs(other, dir / "two" / "case-1.in");
    CHECK(fs::equivalent(dir / "one" / "case-0.in", dir / "two" / "case-0.in"));
    CHECK(fs::hard_link_count(dir / "one" / "case-0.in") == 3);  // the shared file and two links
    CHECK_FALSE(fs::equivalent(dir / "two" / "case-0.in", dir / "two" / "case-1.in"));
    CHECK(read_back(dir / "two" / "case-0.in") == material->inputs.at("x").bytes);
    CHECK(read_back(dir / "two" / "case-1.in") == other->inputs.at("x").bytes);
    // The shared folder may go once the checks are placed: their links keep the data.
    fs::remove_all(dir / "shared");
    CHECK(read_back(dir / "one" / "case-0.in") == material->inputs.at("x").bytes);
  }
  SUBCASE("threads placing one material at once share one file") {
    CaseMaterials materials(dir / "shared");
    const auto material = materials.for_case(counting.grader, twice_case(100000, 7));
    {
      std::vector<std::jthread> threads;
      for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] { materials.place_inputs(material, dir / ("case-" + std::to_string(t) + ".in")); });
    }
    CHECK(fs::hard_link_count(dir / "case-0.in") == 9);
    CHECK(std::distance(fs::directory_iterator(dir / "shared"), fs::directory_iterator()) == 1);
  }
  SUBCASE("a file that cannot be written is the harness's fault, said with its path") {
    CaseMaterials materials;
    const auto material = materials.for_case(counting.grader, twice_case(8, 1));
    CHECK_THROWS_WITH_AS(materials.place_inputs(material, dir / "missing" / "a.in"),
                         ("cannot write " + (dir / "missing" / "a.in").string() + " (is the disk full?)").c_str(),
                         std::runtime_error);
  }
  fs::remove_all(dir);
}
