#include "batch/collect_class.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"
#include "batch/pseudonym.hpp"
#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::collect_class") {
  TempFolder dir("collect");
  const Spec spec = twice_spec();
  for (const char* student : {"alice", "bob", "carol"}) write_text(dir.path / "class" / student / "twice.cu", "// code\n");
  // Two shards wrote their results; carol's task ended before writing hers.
  StudentRecord alice = sample_record("alice", Outcome::passed, Outcome::passed, 3.0);
  alice.report.performance[0].params = {{"n", 4096}};
  alice.report.performance[0].student = TimingStats{.median_ms = 0.0125, .samples = 10};
  REQUIRE(save_record(dir.path / "out", alice));
  REQUIRE(save_record(dir.path / "out", sample_record("bob", Outcome::passed, Outcome::wrong_answer, 0.0)));
  CollectOptions options;
  options.submissions = dir.path / "class";
  options.out = dir.path / "out";
  options.graded_now = {"bob", "carol"};
  options.leaderboard = {CourseSecret("course secret"), false};

  auto missing = students_without_result(options);
  REQUIRE(missing.has_value());
  CHECK(*missing == std::vector<std::string>{"carol"});

  auto summary = collect_class(spec, options);
  REQUIRE(summary.has_value());
  CHECK(summary->students == 2);
  CHECK(summary->graded_now == 1);  // bob; carol has no result to count
  CHECK(summary->up_to_date == 1);  // alice, from earlier
  CHECK(summary->not_finished == 1);
  REQUIRE(summary->harness_errors.size() == 1);
  CHECK(summary->harness_errors[0] == std::string("carol: ") + no_result_written);
  const std::string book = read_text(dir.path / "out" / "gradebook.csv");
  CHECK(book.find("\nalice,") != std::string::npos);
  CHECK(book.find("\nbob,") != std::string::npos);
  CHECK(book.find("\ncarol,,") != std::string::npos);  // a row without a score, never 0 points
  CHECK(fs::exists(dir.path / "out" / "summary.html"));
  // The leaderboard as a local batch writes it, its pseudonyms keyed by the secret given.
  CHECK(read_text(dir.path / "out" / "leaderboard.csv").find(",1," + pseudonym(CourseSecret("course secret"), "alice") +
                                                          ",0.0125,") != std::string::npos);
  CHECK(read_text(dir.path / "out" / "summary.html").find("href=\"leaderboard.html\"") != std::string::npos);
}
