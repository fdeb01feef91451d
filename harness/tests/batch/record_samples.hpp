#pragma once
// Student records of the "twice" test assignment (harness/tests/data/pipeline/twice: steps
// simple and fast, 4 visible cases of 1 point, a hidden one of 2, 3 points of performance), for
// the gradebook, resume and summary tests.
#include <doctest/doctest.h>

#include <string>

#include "batch/student_record.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade::test {

/// The spec of "twice".
inline Spec twice_spec() {
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
  REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
  return *loaded;
}

/// A case of step `step` with `outcome` worth `max_points`.
inline CaseResult sample_case(std::string id, std::string step, Outcome outcome, double max_points = 1.0) {
  CaseResult c;
  c.id = std::move(id);
  c.step = std::move(step);
  c.outcome = outcome;
  c.max_points = max_points;
  c.points = outcome == Outcome::passed ? max_points : 0.0;
  c.seed = 1;
  return c;
}

/// A graded record: `simple` cases as `simple`, `fast` cases as `fast`, `ratio_points` of 3
/// for performance.
inline StudentRecord sample_record(std::string student, Outcome simple, Outcome fast, double ratio_points) {
  StudentRecord r;
  r.student = std::move(student);
  r.source = r.student;
  r.source_sha256 = std::string(64, 'a');
  r.submitted_unix = 1767225600;  // 2026-01-01T00:00:00Z
  r.settings = GradingSettings{"twice", std::string(64, 'c'), "none", "cuda", true, true};
  r.seconds = {2.0, 0.5, 1.0, 1.5};
  r.unpack_seconds = 0.3;
  GradeReport& g = r.report;
  g.cugrade_version = "0.1.0";
  g.assignment = "twice";
  g.title = "Doubling a vector";
  g.submission = {"twice.cu"};
  g.submission_sha256 = std::string(64, 'b');
  g.seed = 1;
  g.started_at = "2026-01-02T03:04:05Z";
  g.environment.backend = "cuda";
  g.build.outcome = Outcome::passed;
  g.cases = {sample_case("simple/n=5/seed=1", "simple", simple), sample_case("simple/n=40/seed=1", "simple", simple),
             sample_case("fast/n=5/seed=1", "fast", fast), sample_case("fast/n=40/seed=1", "fast", fast)};
  PerformanceResult p;
  p.step = "fast";
  p.reference = "simple";
  p.outcome = Outcome::passed;
  p.max_points = 3.0;
  p.points = ratio_points;
  g.performance = {p};
  g.gradable = true;
  g.outcome = simple != Outcome::passed ? simple : fast;
  for (const auto& c : g.cases) g.score += c.points;
  g.score += p.points;
  g.max_score = 7.0;
  return r;
}

/// A student of "twice" whose every case passed, its fast step timed at `ms` on a sealed GPU run
/// (a time the leaderboard counts).
inline StudentRecord timed_record(std::string student, double ms) {
  StudentRecord r = sample_record(std::move(student), Outcome::passed, Outcome::passed, 3.0);
  PerformanceResult& p = r.report.performance[0];
  p.params = {{"n", 4096}};
  p.student = TimingStats{.median_ms = ms, .samples = 10};
  p.reference_time = TimingStats{.median_ms = 0.02, .samples = 10};
  p.ratio = 0.02 / ms;
  p.rate_unit = "GB/s";
  p.student_rate = 32768.0 / (ms * 1e6);
  return r;
}

/// A record whose build failed with `outcome` and `message`.
inline StudentRecord failed_build_record(std::string student, Outcome outcome, std::string message) {
  StudentRecord r = sample_record(std::move(student), Outcome::not_run, Outcome::not_run, 0.0);
  r.report.build.outcome = outcome;
  r.report.build.message = std::move(message);
  r.report.outcome = outcome;
  r.report.gradable = false;
  r.report.score = 0.0;
  r.report.performance[0].outcome = Outcome::not_run;
  return r;
}

}  // namespace cugrade::test
