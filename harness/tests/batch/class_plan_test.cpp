// Who of a class a batch grades: the listing (its errors and skipped entries, end to end
// through grade_batch on the CPU backend with nothing to run) and the plan of who is graded now.
#include "batch/class_plan.hpp"

#include <doctest/doctest.h>

#include "batch/batch_fixture.hpp"
#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("batch::grade_batch of a folder with no submission") {
  TempFolder root;
  fs::create_directories(root.path / "alice");
  write_text(root.path / "alice" / "matmul.cu", "// one student's file, its folder given as the class's");
  FakeProcessRunner processes;
  Locations where;
  CheckContext context{processes, where};
  BatchOptions options;
  options.submissions = root.path / "alice";
  options.out = root.path / "grades";
  options.check.backend = Backend::cpu;
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
  REQUIRE(loaded.has_value());
  std::vector<std::string> log;
  BatchCallbacks callbacks;
  callbacks.log = [&](const std::string& line) { log.push_back(line); };
  auto summary = grade_batch(context, *loaded, twice_grader, options, callbacks);
  // An error, not an empty gradebook: nothing is written, and the message says what to give.
  REQUIRE_FALSE(summary.has_value());
  CHECK(summary.error().message.starts_with("no submission in " + options.submissions.string()));
  CHECK(summary.error().message.find("`cugrade check twice -s ") != std::string::npos);
  CHECK(log == std::vector<std::string>{"skipped matmul.cu: not a folder or a .zip/.tar.gz archive"});
  CHECK_FALSE(fs::exists(options.out));
  CHECK(processes.requests().empty());
}

TEST_CASE("batch::grade_batch with the output folder among the submissions") {
  TempFolder root;
  fs::create_directories(root.path / "class" / "carol smith");  // empty: nothing to run
  FakeProcessRunner processes;
  Locations where;
  CheckContext context{processes, where};
  BatchOptions options;
  options.submissions = root.path / "class";
  options.out = root.path / "class" / "grades";
  options.check.backend = Backend::cpu;
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
  REQUIRE(loaded.has_value());
  auto first = grade_batch(context, *loaded, twice_grader, options);
  REQUIRE_MESSAGE(first.has_value(), first.error().message);
  auto again = grade_batch(context, *loaded, twice_grader, options);  // now "grades" exists
  REQUIRE(again.has_value());
  CHECK(again->skipped == std::vector<std::string>{"grades: the output folder"});
  CHECK(again->students == 1);
  CHECK(read_text(options.out / "gradebook.csv") ==
        "student,score,max_score,simple,fast,outcome,gradable,note\r\n"
        "carol smith,0,4,0,0,not_run,no,the submission is empty\r\n");
  // The folder is students/carol%20smith/ (student_path_name), and its link encodes that name.
  CHECK(fs::exists(options.out / "students" / "carol%20smith" / "report.html"));
  CHECK(read_text(options.out / "summary.html").find("students/carol%2520smith/report.html") != std::string::npos);
  CHECK(processes.requests().empty());
}

TEST_CASE("batch::plan_class") {
  TempFolder root;
  write_text(root.path / "class" / "alice" / "twice.cu", twice_source);
  fs::create_directories(root.path / "class" / "bob");
  BatchOptions options;
  options.submissions = root.path / "class";
  options.out = root.path / "out";
  options.check.progress = [](const std::string&) {};
  options.check.runner_environment = {{"CUDA_VISIBLE_DEVICES", "0"}};
  std::vector<std::string> log;
  const BatchLog say = [&](const std::string& line) { log.push_back(line); };
  auto listing = list_class(options, "twice", say);
  REQUIRE(listing.has_value());
  auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
  REQUIRE(loaded.has_value());
  const GradingSettings settings = grading_settings(*loaded, options.check, false, Locations{});
  RegradeDiff regrade_diff(*loaded);

  SUBCASE("nothing graded yet: everyone, each with options of its own and no progress lines") {
    const ClassPlan plan = plan_class(listing->submissions, options, RegradeSelection{}, settings, say, regrade_diff);
    CHECK(plan.students == std::vector<std::string>{"alice", "bob"});
    REQUIRE(plan.slots.size() == 2);
    CHECK(plan.up_to_date == 0);
    CHECK(plan.slots[0].source.student == "alice");
    CHECK(plan.slots[0].print.has_value());
    CHECK_FALSE(plan.slots[0].options.progress);
    CHECK(plan.slots[0].options.runner_environment.empty());
    CHECK(log.empty());
  }
  SUBCASE("--regrade of everyone is said once") {
    RegradeSelection everyone;
    everyone.all = true;
    const ClassPlan plan = plan_class(listing->submissions, options, everyone, settings, say, regrade_diff);
    CHECK(plan.slots.size() == 2);
    CHECK(log == std::vector<std::string>{"--regrade: every submission is graded again"});
  }
  SUBCASE("a shard plans only its part of the class") {
    options.shard = Shard{1, 2};
    const ClassPlan one = plan_class(listing->submissions, options, RegradeSelection{}, settings, say, regrade_diff);
    options.shard = Shard{2, 2};
    const ClassPlan two = plan_class(listing->submissions, options, RegradeSelection{}, settings, say, regrade_diff);
    CHECK(one.students.size() + two.students.size() == 2);
    CHECK(one.slots.size() + two.slots.size() == 2);
  }
}
