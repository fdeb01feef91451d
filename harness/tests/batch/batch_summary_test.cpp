#include "batch/batch_summary.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "batch/batch_fixture.hpp"
#include "batch/pseudonym.hpp"
#include "batch/record_samples.hpp"
#include "core/atomic_file.hpp"
#include "report/golden.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
BatchSummary sample_summary() {
  BatchSummary s;
  s.gradebook = "grades/gradebook.csv";
  s.students = 120;
  s.graded_now = 100;
  s.up_to_date = 20;
  s.outcomes = {{Outcome::passed, 90}, {Outcome::wrong_answer, 20}, {Outcome::compile_error, 8}, {Outcome::harness_error, 2}};
  s.harness_errors = {"s017: not graded: a fault of cugrade's: the runner could not start",
                      "s093: not graded: a fault of cugrade's: disk full"};
  s.skipped = {"notes.txt: not a folder or a .zip/.tar.gz archive"};
  s.not_gradable = {"s004 (compile_error)", "s051 (link_error)"};
  s.gradable = 110;
  s.mean_score = 16.4;
  s.max_score = 28;
  s.times.wall = 250.0;
  s.times.unpack = 5.0;
  s.times.stages = {210.0, 12.0, 80.0, 120.0};
  s.times.lane_busy = 230.0;
  s.times.builders = 16;
  s.times.lanes = 1;
  return s;
}
}  // namespace

TEST_CASE("batch::render_batch_summary") {
  SUBCASE("a GPU batch: counts, mean, time per stage, throughput and what limits it (golden)") {
    check_golden("batch/summary_gpu.txt", render_batch_summary(sample_summary(), "matmul", "grades"));
  }
  SUBCASE("a late policy and a regrade: their lines, and the mean said to be of raw scores") {
    BatchSummary s = sample_summary();
    s.late_note = "Late policy: 10 % per started day. 0 in grace, 2 penalised, 0 not accepted (too late); 1.5 points taken in all.";
    s.regrade_note = "Regrade: 2 of 5 students graded again got a new score: grades/regrade.csv (old, new and what changed).";
    const std::string text = render_batch_summary(s, "matmul", "grades");
    CHECK(text.find(" gradable submissions (raw scores, before late penalties).\n") != std::string::npos);
    CHECK(text.find("\n" + s.late_note + "\n" + s.regrade_note + "\n") != std::string::npos);
    CHECK(render_batch_summary(sample_summary(), "matmul", "grades").find("raw scores") == std::string::npos);
  }
  SUBCASE("builds limit the rate when the GPU waits") {
    BatchSummary s = sample_summary();
    s.times.lane_busy = 100.0;
    CHECK(render_batch_summary(s, "matmul", "grades").find(
              "the GPU ran 40 % of the time (builds limit the rate: more cores or a larger -j would help)") !=
          std::string::npos);
  }
  SUBCASE("another cugrade's turns on the GPU: what limited the rate, and the seconds waited") {
    BatchSummary s = sample_summary();
    s.times.lane_busy = 100.0;
    s.times.gpu_waited = 120.0;
    const std::string text = render_batch_summary(s, "matmul", "grades");
    CHECK(text.find("the GPU ran 40 % of the time (another cugrade's turns on the GPU limit the rate); 120 s went to "
                    "waiting for the GPU while another cugrade on this machine used it.\n") != std::string::npos);
  }
  SUBCASE("submissions sharing a GPU: how many side by side, no busy share summed over lanes") {
    BatchSummary s = sample_summary();
    s.times.lanes = 12;
    s.times.gpus = 1;
    s.times.runs_per_gpu = 6;
    s.times.lane_busy = 2000.0;
    s.times.gpu_waited = 30.0;
    const std::string text = render_batch_summary(s, "matmul", "grades");
    CHECK(text.find("runs on 1 GPU, up to 6 submissions side by side on each (their cases and sanitizer passes; "
                    "timing and profiling one at a time).\n") != std::string::npos);
    CHECK(text.find("% of the time") == std::string::npos);
    CHECK(text.find("; 30 s went to waiting for the GPU while another cugrade on this machine used it.\n") !=
          std::string::npos);
    CHECK(text.find("GPU time:") == std::string::npos);  // no turn counted
    s.times.turns = {77.0, 96.0, 394.0, 20.0, 12.0};
    CHECK(render_batch_summary(s, "matmul", "grades")
              .find("GPU time: alone 77 s (timing, profiles and cases run again alone) · shared 96 s, 4.1 submissions "
                    "at once on average, 20 s of it winding down for turns alone · idle 12 s (no submission was ready "
                    "to run: builds, judging). The turns alone allow at most ") != std::string::npos);
    s.graded_now = 40;
    CHECK(gpu_turns_line(s.times.turns, 40).ends_with(
        ". The turns alone allow at most 31.2 submissions per minute.\n"));  // 40 in 77 s alone
    CHECK(gpu_turns_line({}, 40).empty());
  }
  SUBCASE("the CPU backend, stopped early") {
    BatchSummary s = sample_summary();
    s.times.lanes = 0;
    s.times.builders = 2;
    s.stopped = true;
    s.not_finished = 30;
    s.students = 90;
    s.harness_errors.clear();
    const std::string text = render_batch_summary(s, "vecadd", "grades");
    CHECK(text.starts_with("Graded 100 of 120 submissions of vecadd in 4:10 min (20 unchanged since an earlier run "
                           "were kept): 2 builds at a time, each run right after its build (CPU backend).\n"
                           "Stopped early: 30 submissions are not graded yet; run the same command again to finish.\n"));
    CHECK(text.find("Harness errors") == std::string::npos);
  }
  SUBCASE("the students who were not gradable are named, the first twenty") {
    BatchSummary s = sample_summary();
    s.not_gradable.clear();
    for (int i = 0; i < 23; ++i) s.not_gradable.push_back(fmt::format("s{:03} (compile_error)", i));
    const std::string text = render_batch_summary(s, "vecadd", "grades");
    CHECK(text.find("Not gradable (23: their submission did not build or was refused; 0 points): s000 (compile_error), "
                    "s001 (compile_error)") != std::string::npos);
    CHECK(text.find("s019 (compile_error), and 3 more (gradebook.csv)\n") != std::string::npos);
    CHECK(text.find("s020") == std::string::npos);
  }
}

TEST_CASE("batch::common_build_failure") {
  std::vector<StudentRecord> records;
  const auto broken = [](const std::string& id) {
    // The same set-up fault, naming each student's own work folder.
    return failed_build_record(id, Outcome::compile_error,
                               "nvcc fatal: Could not open output file 'out/work/" + id + "/build/kernel.o'\nmore");
  };
  SUBCASE("most of a class failing the same way looks like the set-up, said once with the message") {
    records = {broken("alice"), broken("bob"), broken("carol"),
               sample_record("dave", Outcome::passed, Outcome::passed, 3.0)};
    const std::string line = common_build_failure(records);
    CHECK(line.starts_with("3 of 4 submissions failed to build with the same message; this looks like a problem of "
                           "the set-up"));
    CHECK(line.ends_with("nvcc fatal: Could not open output file 'out/work/<student>/build/kernel.o'"));
    BatchSummary s = sample_summary();
    s.setup_problem = line;
    CHECK(render_batch_summary(s, "vecadd", "grades").find("\nWarning: " + line + "\n") != std::string::npos);
  }
  SUBCASE("students' own compile errors differ, and half is not most") {
    records = {failed_build_record("alice", Outcome::compile_error, "alice.cu:3: error: expected ';'"),
               failed_build_record("bob", Outcome::compile_error, "bob.cu:9: error: undeclared 'i'"),
               sample_record("carol", Outcome::passed, Outcome::passed, 3.0)};
    CHECK(common_build_failure(records).empty());
    records = {broken("alice"), broken("bob"), sample_record("carol", Outcome::passed, Outcome::passed, 3.0),
               sample_record("dave", Outcome::passed, Outcome::passed, 3.0)};
    CHECK(common_build_failure(records).empty());
    CHECK(common_build_failure({broken("alice")}).empty());
    CHECK(render_batch_summary(sample_summary(), "vecadd", "grades").find("Warning") == std::string::npos);
  }
}

TEST_CASE("batch::count_records") {
  StudentRecord broken = failed_build_record("carol", Outcome::compile_error, "carol.cu:3: error: expected ';'");
  broken.report.outcome = Outcome::compile_error;
  StudentRecord fault = sample_record("dave", Outcome::passed, Outcome::passed, 3.0);
  fault.report.outcome = Outcome::harness_error;
  fault.report.notes = {"not graded: a fault of cugrade's: disk full"};
  const std::vector<StudentRecord> records{sample_record("alice", Outcome::passed, Outcome::passed, 3.0),
                                           sample_record("bob", Outcome::wrong_answer, Outcome::passed, 1.0), broken,
                                           fault};
  BatchSummary summary;
  count_records(records, summary);
  CHECK(summary.students == 4);
  CHECK(summary.outcomes.at(Outcome::passed) == 1);
  CHECK(summary.outcomes.at(Outcome::wrong_answer) == 1);
  CHECK(summary.outcomes.at(Outcome::compile_error) == 1);
  CHECK(summary.outcomes.at(Outcome::harness_error) == 1);
  // The mean is over the two gradable ones (a harness fault and a failed build are not 0 points).
  CHECK(summary.gradable == 2);
  CHECK(summary.mean_score == doctest::Approx((records[0].report.score + records[1].report.score) / 2.0));
  CHECK(summary.max_score == 7.0);
  CHECK(summary.not_gradable == std::vector<std::string>{"carol (compile_error)"});
  CHECK(summary.harness_errors == std::vector<std::string>{"dave: not graded: a fault of cugrade's: disk full"});
  CHECK(summary.setup_problem.empty());  // one failed build of four is the student's own
}

TEST_CASE("batch::class_summary_subtitle") {
  CHECK(cugrade::class_summary_subtitle(12, false, "", 0) == "12 submissions, graded on the CPU backend");
  CHECK(cugrade::class_summary_subtitle(6, true, "", 6) ==
        "6 submissions, graded on the CUDA backend. 6 more not graded yet: the batch stopped before them (run the "
        "same command again)");
  CHECK(cugrade::class_summary_subtitle(3, false, "3 of 3 failed alike", 0) ==
        "3 submissions, graded on the CPU backend. Warning: 3 of 3 failed alike");
}

TEST_CASE("batch::write_class_files") {
  SUBCASE("each student's own reports name them as leaderboard.csv does, and no one else") {
    test::TempDir out("class-files");
    const Spec spec = twice_spec();
    const CourseSecret secret("course secret of 2026");
    const std::map<std::string, double> times{{"alice", 0.010}, {"bob", 0.020}, {"carol", 0.030}};
    std::vector<StudentRecord> records;
    for (const auto& [student, ms] : times) records.push_back(timed_record(student, ms));
    records.push_back(sample_record("eve", Outcome::passed, Outcome::wrong_answer, 0.0));  // no time on the board
    REQUIRE(write_class_files(spec, out.path, records, {}, std::nullopt, true, "", {secret, false}));
    // leaderboard.csv: board,step,size,rank,student,time_ms,... ; each time is one student's.
    std::map<std::string, std::string> on_board;  // student → the name the board shows
    std::istringstream csv(read_whole_file(out.path / "leaderboard.csv").value());
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
      std::vector<std::string> fields;
      std::istringstream row(line);
      for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
      REQUIRE(fields.size() == 10);
      for (const auto& [student, ms] : times)
        if (std::stod(fields[5]) == ms) on_board[student] = fields[4];
    }
    REQUIRE(on_board.size() == 3);
    const auto all_names = class_pseudonyms(secret, {"alice", "bob", "carol", "eve"});
    for (const auto& [student, name] : all_names) {
      INFO(student);
      if (student != "eve") CHECK(on_board.at(student) == name);
      for (const char* file : {"report.md", "report.html", "report.json", "gradescope-results.json"}) {
        const std::string text = read_whole_file(out.path / "students" / student / file).value_or("");
        CHECK(text.find("leaderboard you are " + name) != std::string::npos);
        for (const auto& [other, other_name] : all_names)
          if (other != student) CHECK(text.find(other_name) == std::string::npos);
      }
    }
    SUBCASE("without the secret (a collect without it): no one named, the names taken out again") {
      REQUIRE(write_class_files(spec, out.path, records, {}, std::nullopt, true, "", {std::nullopt, false}));
      CHECK(read_whole_file(out.path / "students" / "alice" / "report.md").value().find("anon-") == std::string::npos);
    }
  }
}
