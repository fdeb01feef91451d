#include "batch/late_reports.hpp"

#include <doctest/doctest.h>

#include "batch/record_samples.hpp"
#include "batch/student_paths.hpp"
#include "core/atomic_file.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::write_lateness_notes") {
  test::TempDir out("late-reports");
  StudentRecord late = sample_record("alice", Outcome::passed, Outcome::passed, 3.0);
  late.submitted_from = "git";
  late.submitted_unix += 2 * 86400;
  StudentRecord on_time = sample_record("bob", Outcome::passed, Outcome::passed, 3.0);
  on_time.submitted_from = "git";
  LatePlan plan;
  plan.deadline_unix = 1767225600;
  plan.policy = parse_late_policy("per-day=10%").value();
  const auto markdown = [&](const std::string& student) {
    return read_whole_file(student_reports_dir(out.path, student) / "report.md").value_or("(none)");
  };
  REQUIRE(write_lateness_notes(out.path, {late, on_time}, &plan));
  CHECK(markdown("alice").find("final score 5.6 of 7") != std::string::npos);
  CHECK(markdown("bob") == "(none)");  // on time: its reports are left as the batch wrote them
  CHECK(read_whole_file(late_noted_file(out.path)).value() == "alice\n");
  SUBCASE("the policy dropped: the note goes, and the list with it") {
    REQUIRE(write_lateness_notes(out.path, {late, on_time}, nullptr));
    CHECK(markdown("alice").find("final score") == std::string::npos);
    CHECK(markdown("alice").find("Doubling a vector") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(late_noted_file(out.path)));
  }
}
