// CaseMaterials (harness/src/pipeline/case_materials.cpp): each case's inputs and gold made once
// for every check of a batch, the same for every thread that asks, and failures shared too.
#include "pipeline/case_materials.hpp"

#include <doctest/doctest.h>

#include <atomic>
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
