// match_mistake (harness/src/check/mistake_match.cpp): a failed output named by the first mistake
// model it matches, each model's gold made once per case, and nothing named without evidence.
#include "check/mistake_match.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <limits>
#include <stdexcept>
#include <thread>

#include "test_arrays.hpp"

using namespace cugrade;
using cugrade::test::f64;

namespace {

/// y = scale · x, as a model's gold.
ArraySet scaled(const ArraySet& inputs, double scale) {
  std::vector<double> y;
  for (std::int64_t i = 0; i < inputs.at("x").size(); ++i) y.push_back(scale * inputs.at("x").value(i));
  return ArraySet{{"y", f64(y)}};
}

/// A model of the mistake y = scale · x, counting its gold's calls in `calls`.
MistakeModel scaling(std::string name, double scale, std::vector<std::string> steps, std::atomic<int>* calls = nullptr) {
  return {name, "your y is " + name, std::move(steps), [scale, calls](const Case&, const ArraySet& inputs) {
            if (calls) ++*calls;
            return scaled(inputs, scale);
          }};
}

struct Toy {
  Case c;
  ArraySet inputs{{"x", f64({1.0, 2.0, 3.0})}};
  ArraySet gold = scaled(inputs, 1.0);
  Tolerance tolerance{0.01, 0.0, "toy"};
  Toy() { c.step = "step"; }
  std::string named(const std::vector<MistakeModel>& models, const ArraySet& actual, MistakeGolds& golds) const {
    return match_mistake(models, c, inputs, gold, actual, tolerance, golds);
  }
};

}  // namespace

TEST_CASE("check::match_mistake") {
  Toy toy;
  MistakeGolds golds;
  SUBCASE("the first model whose outputs match, within the tolerance, names the output") {
    const std::vector<MistakeModel> models{scaling("tripled", 3.0, {}), scaling("doubled", 2.0, {}),
                                           scaling("doubled again", 2.0, {})};
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.005, 6.0})}}, golds) == "your y is doubled");
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.1, 6.0})}}, golds) == "");
  }
  SUBCASE("a model names only the steps it applies to") {
    const std::vector<MistakeModel> models{scaling("doubled", 2.0, {"other"})};
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.0, 6.0})}}, golds) == "");
    toy.c.step = "other";
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.0, 6.0})}}, golds) == "your y is doubled");
  }
  SUBCASE("an output that matches the gold is never named, even by a model equal to the gold") {
    const std::vector<MistakeModel> models{scaling("unchanged", 1.0, {})};
    CHECK(toy.named(models, ArraySet{{"y", f64({1.0, 2.0, 3.0})}}, golds) == "");
  }
  SUBCASE("a model that throws, gives nothing, a non-finite value or other outputs does not apply") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<MistakeModel> models{
        {"throws", "thrown", {}, [](const Case&, const ArraySet&) -> ArraySet { throw std::logic_error("no"); }},
        {"empty", "empty", {}, [](const Case&, const ArraySet&) { return ArraySet{}; }},
        {"nan", "nan", {}, [nan](const Case&, const ArraySet&) { return ArraySet{{"y", f64({nan, 4.0, 6.0})}}; }},
        {"other output", "other", {}, [](const Case&, const ArraySet& in) { return ArraySet{{"z", scaled(in, 2.0).at("y")}}; }},
        scaling("doubled", 2.0, {})};
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.0, 6.0})}}, golds) == "your y is doubled");
  }
  SUBCASE("a model's own slack widens its tolerance, as the gold's does") {
    const std::vector<MistakeModel> models{{"with slack", "slack", {}, [](const Case&, const ArraySet& in) {
                                              ArraySet out = scaled(in, 2.0);
                                              out["y.slack"] = f64({0.0, 0.5, 0.0});
                                              return out;
                                            }}};
    CHECK(toy.named(models, ArraySet{{"y", f64({2.0, 4.4, 6.0})}}, golds) == "slack");
    CHECK(toy.named(models, ArraySet{{"y", f64({2.4, 4.0, 6.0})}}, golds) == "");
  }
  SUBCASE("each model's gold is made once per case, however many outputs and threads ask") {
    std::atomic<int> calls{0};
    const std::vector<MistakeModel> models{scaling("tripled", 3.0, {}, &calls), scaling("doubled", 2.0, {}, &calls)};
    std::vector<std::thread> threads;
    std::atomic<int> named{0};
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] { named += toy.named(models, ArraySet{{"y", f64({2.0, 4.0, 6.0})}}, golds) == "your y is doubled"; });
    for (auto& thread : threads) thread.join();
    CHECK(named == 4);
    CHECK(calls == 2);
  }
}
