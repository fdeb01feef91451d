#include "spec/measured_error.hpp"

#include <fstream>

#include <doctest/doctest.h>

#include "spec/spec_loader.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {

/// A spec of one student step `s` with `tolerance`, and a reference-only step `r`.
Spec one_step_spec(Tolerance tolerance) {
  Spec spec;
  spec.id = "demo";
  Step s;
  s.name = "s";
  s.tolerance = tolerance;
  Step r = s;
  r.name = "r";
  r.reference_only = true;
  spec.steps = {s, r};
  return spec;
}

/// A measurement of step `step` on `backend` against (atol, rtol), one size per share.
MeasuredBackend measured(const std::string& backend, const std::string& step, double atol, double rtol,
                         std::vector<double> shares) {
  MeasuredStep one{step, atol, rtol, {}};
  for (std::size_t i = 0; i < shares.size(); ++i) one.sizes.push_back({"N=" + std::to_string(i + 1), shares[i], shares[i] * 2});
  return {backend, "2026-12-02, the CPU backend", {one}};
}

}  // namespace

TEST_CASE("spec::load_measured_errors") {
  const fs::path dir = fs::temp_directory_path() / "cugrade-measured-error-test";
  fs::create_directories(dir);
  SUBCASE("what measured_errors_yaml writes reads back the same") {
    MeasuredErrors errors;
    errors = with_backend(errors, measured("cuda", "s", 4.0, 2e-5, {0.0, 0.1234, 1.5e-3}));
    errors = with_backend(errors, measured("cpu", "s", 1e-6, 5e-7, {0.207}));
    REQUIRE(errors.backends.size() == 2);
    CHECK(errors.backends[0].backend == "cpu");  // cpu first, whichever came first
    std::ofstream(dir / "e.yaml") << measured_errors_yaml(errors);
    const auto back = load_measured_errors(dir / "e.yaml");
    REQUIRE(back.has_value());
    CHECK(*back == errors);
  }
  SUBCASE("with_backend replaces that backend's part only") {
    MeasuredErrors errors = with_backend({}, measured("cpu", "s", 1, 0, {0.5}));
    errors = with_backend(errors, measured("cuda", "s", 1, 0, {0.25}));
    errors = with_backend(errors, measured("cpu", "s", 1, 0, {0.125}));
    REQUIRE(errors.backends.size() == 2);
    CHECK(errors.backends[0].steps[0].sizes[0].share == 0.125);
    CHECK(errors.backends[1].steps[0].sizes[0].share == 0.25);
  }
  SUBCASE("no file is no measurement; a broken one or an unknown backend is an error naming the file") {
    const auto none = load_measured_errors(dir / "absent.yaml");
    REQUIRE(none.has_value());
    CHECK(none->backends.empty());
    std::ofstream(dir / "bad.yaml") << "gpu:\n  where: x\n";
    const auto bad = load_measured_errors(dir / "bad.yaml");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message.find("bad.yaml: unknown backend 'gpu'") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("spec::share_of_present") {
  const MeasuredStep step = measured("cpu", "s", 4.0, 2e-5, {0.05, 0.2}).steps[0];
  CHECK(*share_of_present(step, {4.0, 2e-5}) == 0.2);
  CHECK(*share_of_present(step, {2.0, 1e-5}) == doctest::Approx(0.4));  // scaled as a whole
  CHECK_FALSE(share_of_present(step, {2.0, 2e-5}).has_value());          // another shape: stale
  CHECK_FALSE(share_of_present(step, {4.0, 0.0}).has_value());
  const MeasuredStep relative_only = measured("cpu", "s", 0.0, 1e-6, {0.5}).steps[0];
  CHECK(*share_of_present(relative_only, {0.0, 2e-6}) == doctest::Approx(0.25));
}

TEST_CASE("spec::tolerance_problems") {
  const Spec spec = one_step_spec({4.0, 2e-5});
  const auto problems = [&](const MeasuredErrors& errors) { return tolerance_problems(spec, errors, "f.yaml"); };
  SUBCASE("a student step without a measurement") {
    const auto p = problems({});
    REQUIRE(p.size() == 1);  // the reference-only step r is never graded: not asked for
    CHECK(p[0] == "f.yaml: step s: its tolerance is not measured against the reference's own error: run "
                  "`cugrade lint --measure-tolerance demo`");
  }
  SUBCASE("a tolerance between 2 and 6 times the largest error of any size and backend") {
    CHECK(problems(with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.01, 0.25}))).empty());
    CHECK(problems(with_backend(with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.1})),
                                measured("cuda", "s", 4.0, 2e-5, {0.2})))
              .empty());
  }
  SUBCASE("looser than 6 times: lower precision would pass, and what 4 times is") {
    const auto p = problems(with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.01, 0.125})));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "f.yaml: step s: its tolerance (atol 4, rtol 2e-05) is 8.0 times the reference's largest error "
                  "(cpu), more than 6: arithmetic of lower precision would pass; 4 times is atol 2, rtol 1e-05");
  }
  SUBCASE("tighter than 2 times: a correct kernel in another order may fail") {
    const auto p = problems(with_backend({}, measured("cuda", "s", 4.0, 2e-5, {0.7})));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("is only 1.4 times the reference's largest error (cuda), less than 2") != std::string::npos);
  }
  SUBCASE("measured against a tolerance of another shape: measure again") {
    const auto p = problems(with_backend({}, measured("cpu", "s", 4.0, 1e-5, {0.2})));
    REQUIRE(p.size() == 2);
    CHECK(p[0].find("the cpu measurement is against atol 4, rtol 1e-05, not the spec's atol 4, rtol 2e-05") !=
          std::string::npos);
  }
  SUBCASE("a step whose timed size no backend measured: how loose it is, is not judged, and the listing says why") {
    Spec timed = spec;
    timed.performance.push_back(PerformanceTarget{"s", "s", {{"N", 9}}, 0.9, 0.5, 5.0, {}});
    const MeasuredErrors errors = with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.01}));
    CHECK(tolerance_problems(timed, errors, "f.yaml").empty());
    CHECK(tolerance_lines(timed, errors)[0].ends_with(
        "; its timed size N=9 not measured (--backend cuda): how loose it may be is not judged"));
    MeasuredErrors with_timed = errors;
    with_timed.backends[0].steps[0].sizes.push_back({"N=9", 0.02, 0.1});  // measured now: 50 times
    CHECK(tolerance_problems(timed, with_timed, "f.yaml").size() == 1);
  }
  SUBCASE("a reference that matches the gold exactly, and an exact step, have nothing to scale") {
    CHECK(problems(with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.0, 0.0}))).empty());
    CHECK(tolerance_problems(one_step_spec({0.0, 0.0}), {}, "f.yaml").empty());
  }
}

TEST_CASE("spec::tolerance_lines") {
  const auto lines = tolerance_lines(one_step_spec({4.0, 2e-5}), with_backend({}, measured("cpu", "s", 4.0, 2e-5, {0.01, 0.125})));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "  s                atol 4, rtol 2e-05; cpu: reference error 0.125 of it at N=2 (tolerance 8.0x)");
  CHECK(lines[1] == "  r                atol 4, rtol 2e-05; not measured (reference only)");
}

TEST_CASE("spec::suggested_tolerance") {
  const Tolerance t = suggested_tolerance({4.0, 2e-5, "why"}, 0.126);  // 4 × 0.126 = 0.504 of it
  CHECK(t.atol == doctest::Approx(2.1));
  CHECK(t.rtol == doctest::Approx(1.1e-5));
  CHECK(t.reason == "why");
}

// The course's own assignments: every student step's tolerance is at most kLoosestTolerance times
// the reference's measured error (graders/<id>/reference_error.yaml), and at least
// kTightestTolerance times. Fails when a spec's tolerance is loosened, or a measurement is missing.
TEST_CASE("spec::tolerance_problems of the course's assignments") {
  const fs::path root = CUGRADE_SOURCE_ROOT;
  const auto ids = list_assignments(root / "assignments");
  REQUIRE_FALSE(ids.empty());
  for (const auto& id : ids) {
    CAPTURE(id);
    const auto spec = load_assignment(root / "assignments", id);
    REQUIRE(spec.has_value());
    const auto errors = load_measured_errors(root / "graders" / id / "reference_error.yaml");
    REQUIRE(errors.has_value());
    for (const auto& problem : tolerance_problems(*spec, *errors, id)) FAIL_CHECK(problem);
  }
}
