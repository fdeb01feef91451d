#include <doctest/doctest.h>

#include <set>

#include "core/course_secret.hpp"
#include "spec/spec_loader.hpp"

using namespace cugrade;

namespace {

std::vector<std::string> ids(const std::vector<Case>& cases) {
  std::vector<std::string> out;
  for (const auto& c : cases) out.push_back(c.id);
  return out;
}

Spec two_step_spec() {
  Spec spec;
  spec.id = "matmul";
  spec.steps = {Step{.name = "naive"}, Step{.name = "tiled"}};
  CaseGroup visible;  // every step
  visible.sizes = {{{"M", 65}, {"N", 33}}, {{"M", 1}, {"N", 1}}};
  visible.seeds = {1, 2};
  visible.points = 0.5;
  CaseGroup hidden;
  hidden.steps = {"tiled"};
  hidden.sizes = {{{"M", 128}, {"N", 128}}, {{"M", 7}, {"N", 9}}};
  hidden.seeds = {1};
  hidden.points = 2;
  hidden.visibility = Visibility::hidden;
  CaseGroup more_hidden = hidden;
  more_hidden.steps = {"tiled", "naive"};
  more_hidden.sizes = {{{"M", 3}, {"N", 3}}};
  spec.cases = {visible, hidden, more_hidden};
  return spec;
}

}  // namespace

TEST_CASE("spec::expand_cases") {
  const Spec spec = two_step_spec();
  const std::optional<CourseSecret> secret_42 = CourseSecret("42");

  SUBCASE("without a secret: visible cases only, step × size × seed in order") {
    const auto cases = expand_cases(spec, std::nullopt);
    CHECK(ids(cases) == std::vector<std::string>{"naive/M=65,N=33/seed=1", "naive/M=65,N=33/seed=2",
                                                 "naive/M=1,N=1/seed=1", "naive/M=1,N=1/seed=2",
                                                 "tiled/M=65,N=33/seed=1", "tiled/M=65,N=33/seed=2",
                                                 "tiled/M=1,N=1/seed=1", "tiled/M=1,N=1/seed=2"});
    REQUIRE(cases.size() == 8);
    CHECK(cases[1].step == "naive");
    CHECK(cases[1].params == Params{{"M", 65}, {"N", 33}});
    CHECK(cases[1].seed == 2);
    CHECK(cases[1].points == 0.5);
    CHECK(cases[1].visibility == Visibility::visible);
  }

  SUBCASE("with a secret: hidden cases follow, numbered per step, their sizes not in the id") {
    const auto cases = expand_cases(spec, secret_42);
    REQUIRE(cases.size() == 12);
    // The last group lists [tiled, naive]: steps still run in the spec's order.
    const auto all = ids(cases);
    CHECK(std::vector<std::string>(all.begin() + 8, all.end()) ==
          std::vector<std::string>{"hidden/tiled/1", "hidden/tiled/2", "hidden/naive/1",
                                   "hidden/tiled/3"});
    const Case& first_hidden = cases[8];
    CHECK(first_hidden.step == "tiled");
    CHECK(first_hidden.params == Params{{"M", 128}, {"N", 128}});
    CHECK(first_hidden.points == 2.0);
    CHECK(first_hidden.visibility == Visibility::hidden);
    CHECK(first_hidden.seed == hidden_seed(*secret_42, "matmul/tiled/M=128,N=128/1"));
    CHECK(cases[10].id == "hidden/naive/1");
    CHECK(cases[10].seed == hidden_seed(*secret_42, "matmul/naive/M=3,N=3/1"));
    CHECK(cases[11].seed == hidden_seed(*secret_42, "matmul/tiled/M=3,N=3/1"));
    // Visible cases are the same with or without the secret.
    CHECK(cases[0].seed == 1);
  }

  SUBCASE("hidden seeds depend on the secret and differ from the visible seeds") {
    const auto a = expand_cases(spec, secret_42);
    const auto b = expand_cases(spec, CourseSecret("43"));
    std::set<std::uint64_t> visible_seeds;
    for (std::size_t i = 0; i < 8; ++i) visible_seeds.insert(a[i].seed);
    for (std::size_t i = 8; i < a.size(); ++i) {
      CHECK(a[i].seed != b[i].seed);
      CHECK_FALSE(visible_seeds.contains(a[i].seed));
    }
    CHECK(a[8].seed != a[9].seed);  // same written seed, different sizes
  }

  SUBCASE("a hidden seed is the first 8 bytes of HMAC-SHA256(secret, \"<id>/<step>/<params>/<seed>\")") {
    // HMAC-SHA256("42", "matmul/tiled/M=128,N=128/1"), computed apart (Python's hmac module).
    CHECK(expand_cases(spec, secret_42)[8].seed == 0x5668904826000f26ULL);
  }

  SUBCASE("deterministic") {
    const auto a = expand_cases(spec, secret_42);
    const auto b = expand_cases(spec, secret_42);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i].id == b[i].id);
      CHECK(a[i].seed == b[i].seed);
    }
  }

  SUBCASE("a spec without cases expands to none") {
    Spec empty = spec;
    empty.cases.clear();
    CHECK(expand_cases(empty, secret_42).empty());
  }
}
