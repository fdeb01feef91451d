#include "batch/gradebook.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include "batch/batch_fixture.hpp"
#include "report/golden.hpp"
#include "batch/record_samples.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
/// The records every gradebook test shows: each kind of row a gradebook has.
std::vector<StudentRecord> class_records() {
  std::vector<StudentRecord> records;
  records.push_back(sample_record("alice", Outcome::passed, Outcome::passed, 3.0));
  records.push_back(sample_record("bob, jr.", Outcome::passed, Outcome::wrong_answer, 0.0));
  records.push_back(sample_record("carol", Outcome::passed, Outcome::passed, 1.2345));
  records.back().submitted_unix = 1767225601;  // one second late
  records.push_back(failed_build_record("dave \"the compiler\"", Outcome::compile_error,
                                        "twice.cu:3:5: error: expected ';', before \"}\"\nmore lines"));
  records.push_back(failed_build_record("erin", Outcome::not_run, "the submission holds no .cu file (it holds notes.txt)"));
  StudentRecord fault = sample_record("frank", Outcome::harness_error, Outcome::passed, 0.0);
  fault.report.outcome = Outcome::harness_error;
  fault.report.notes = {"case simple/n=5/seed=1 not graded (harness_error): could not start the runner"};
  records.push_back(fault);
  return records;
}
}  // namespace

TEST_CASE("batch::csv_field") {
  CHECK(csv_field("alice") == "alice");
  CHECK(csv_field("") == "");
  CHECK(csv_field("bob, jr.") == "\"bob, jr.\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("cr\r") == "\"cr\r\"");
  CHECK(csv_field(" padded") == "\" padded\"");
}

TEST_CASE("batch::spreadsheet_text") {
  CHECK(spreadsheet_text("alice") == "alice");
  CHECK(spreadsheet_text("") == "");
  CHECK(spreadsheet_text("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")");
  CHECK(spreadsheet_text("+1") == "'+1");
  CHECK(spreadsheet_text("-2") == "'-2");
  CHECK(spreadsheet_text("@SUM(A1)") == "'@SUM(A1)");
  CHECK(spreadsheet_text("\tx") == "'\tx");
  CHECK(spreadsheet_text("\rx") == "'\rx");
  CHECK(spreadsheet_text("a=b") == "a=b");
}

TEST_CASE("batch::render_gradebook (formulas in notes)") {
  // A note is the student's text too: a refused file named "=cmd|' /C calc'!A0.cu" starts one.
  std::vector<StudentRecord> records{failed_build_record("eve", Outcome::not_run, "=cmd|' /C calc'!A0.cu is a symbolic link"),
                                     failed_build_record("tab", Outcome::not_run, "\t-1+2 is not a regular file")};
  const std::string book = render_gradebook(twice_spec(), records, {});
  CHECK(book.find(",'=cmd|' /C calc'!A0.cu is a symbolic link\r\n") != std::string::npos);
  CHECK(book.find(",'\t-1+2 is not a regular file\r\n") != std::string::npos);
}

TEST_CASE("batch::render_gradebook") {
  const Spec spec = twice_spec();
  SUBCASE("without a deadline") {
    check_golden("batch/gradebook.csv", render_gradebook(spec, class_records(), {}));
  }
  SUBCASE("with a deadline: submitted_at and late") {
    GradebookOptions options;
    options.deadline_unix = 1767225600;
    check_golden("batch/gradebook_deadline.csv", render_gradebook(spec, class_records(), options));
  }
  SUBCASE("with a deadline: which source each row's time came from") {
    std::vector<StudentRecord> records = class_records();
    records.resize(2);
    records[0].submitted_from = "git";
    records[1].submitted_from = "";  // a record of an earlier cugrade: file times
    GradebookOptions options;
    options.deadline_unix = 1767225600;
    const std::string book = render_gradebook(spec, records, options);
    CHECK(book.starts_with("student,score,max_score,simple,fast,outcome,gradable,submitted_at,submitted_from,late,note\r\n"));
    CHECK(book.find("\r\nalice,7,7,2,5,passed,yes,2026-01-01T00:00:00Z,git,no,\r\n") != std::string::npos);
    CHECK(book.find(",2026-01-01T00:00:00Z,files,no,") != std::string::npos);
  }
  SUBCASE("any bytes in an id: one row each, quoted where needed, formulas shown as text") {
    std::vector<StudentRecord> records = class_records();
    records.resize(1);
    records.push_back(records.front());
    records.push_back(records.front());
    records[0].student = "o'brien \"the\nsecond\"";
    records[1].student = "=cmd|' /C calc'!A0";
    records[2].student = "\xff\xfe";
    const std::string book = render_gradebook(spec, records, {});
    CHECK(book.find("\r\n\"o'brien \"\"the\nsecond\"\"\",") != std::string::npos);
    CHECK(book.find("\r\n'=cmd|' /C calc'!A0,") != std::string::npos);
    CHECK(book.find("\r\n\xff\xfe,") != std::string::npos);
  }
  SUBCASE("with a deadline: a student who handed in nothing has no time and no late flag") {
    std::vector<StudentRecord> records{failed_build_record("erin", Outcome::not_run, "erin is a symbolic link")};
    records[0].submitted_unix = 1767225700;  // the link's own time, after the deadline
    records[0].submitted_from = nothing_handed_in;
    GradebookOptions options;
    options.deadline_unix = 1767225600;
    const std::string book = render_gradebook(spec, records, options);
    CHECK(book.find("\r\nerin,0,7,0,0,not_run,no,,nothing handed in,,erin is a symbolic link\r\n") != std::string::npos);
    CHECK_FALSE(handed_in_late(records[0], 1767225600).has_value());
    records[0].submitted_from = "files";
    CHECK(handed_in_late(records[0], 1767225600) == true);
  }
  SUBCASE("a batch stopped early: each student not graded yet has a row of its own, with no score, in id order") {
    std::vector<StudentRecord> records = class_records();
    records.resize(2);  // alice, bob
    GradebookOptions options;
    options.not_graded = {"aaron", "zoe"};
    const std::string book = render_gradebook(spec, records, options);
    const std::string row = ",,,,,not_run,no,not graded yet: the batch stopped before it (run the same command again)\r\n";
    CHECK(book.find("\r\naaron" + row + "alice,") != std::string::npos);
    CHECK(book.ends_with("\r\nzoe" + row));
    options.deadline_unix = 1767225600;
    CHECK(render_gradebook(spec, records, options).ends_with("\r\nzoe,,,,,not_run,no,,,,not graded yet: the batch stopped "
                                                             "before it (run the same command again)\r\n"));
  }
  SUBCASE("a note counts the cases a hang left unrun apart from those that failed") {
    std::vector<StudentRecord> records = class_records();
    records.resize(1);
    for (std::size_t i = 0; i < records[0].report.cases.size(); ++i) {
      records[0].report.cases[i].outcome = Outcome::timeout;
      records[0].report.cases[i].message = i == 0 ? "did not finish" : "not run: an earlier case of this step timed out (x)";
    }
    const std::size_t n = records[0].report.cases.size();
    CHECK(render_gradebook(spec, records, {}).find(fmt::format(",1 of {} cases failed ({} more not run after them)\r\n", n, n - 1)) !=
          std::string::npos);
  }
  SUBCASE("an empty class is the header alone") {
    CHECK(render_gradebook(spec, {}, {}) == "student,score,max_score,simple,fast,outcome,gradable,note\r\n");
  }
}

TEST_CASE("batch::render_gradebook (late plan)") {
  LatePlan plan;
  plan.deadline_unix = 1767225600;  // sample_record's hand-in time
  plan.policy = parse_late_policy("grace=15m,per-day=10%,max-days=3").value();
  plan.extensions.deadlines = {{"erin", plan.deadline_unix + 3 * 86400}};
  std::vector<StudentRecord> records{sample_record("alice", Outcome::passed, Outcome::passed, 3.0),
                                     sample_record("bob", Outcome::passed, Outcome::passed, 3.0),
                                     sample_record("carol", Outcome::passed, Outcome::passed, 3.0),
                                     sample_record("dave", Outcome::passed, Outcome::passed, 3.0),
                                     sample_record("erin", Outcome::passed, Outcome::passed, 3.0)};
  for (auto& r : records) r.submitted_from = "git";
  records[1].submitted_unix += 901;            // bob: one second after the grace
  records[2].submitted_unix += 5 * 86400;      // carol: past max-days
  records[3].submitted_from = "files";         // dave: a copy's time only
  records[4].submitted_unix += 2 * 86400;      // erin: within her extension
  GradebookOptions options;
  options.deadline_unix = plan.deadline_unix;
  options.late = &plan;
  options.not_graded = {"frank"};
  const std::string book = render_gradebook(twice_spec(), records, options);
  CHECK(book.find("student,score,max_score,simple,fast,outcome,gradable,submitted_at,submitted_from,late,due,days_late,"
                  "raw_score,penalty,late_outcome,note\r\n") == 0);
  CHECK(book.find("\r\nalice,7,7,2,5,passed,yes,2026-01-01T00:00:00Z,git,no,2026-01-01T00:00:00Z,0,7,0,on_time,\r\n") !=
        std::string::npos);
  CHECK(book.find("\r\nbob,6.3,7,2,5,passed,yes,2026-01-01T00:15:01Z,git,yes,2026-01-01T00:00:00Z,1,7,0.7,late,\r\n") !=
        std::string::npos);
  CHECK(book.find("\r\ncarol,0,7,2,5,passed,yes,2026-01-06T00:00:00Z,git,yes,2026-01-01T00:00:00Z,5,7,7,too_late,\r\n") !=
        std::string::npos);
  CHECK(book.find("\r\ndave,7,7,2,5,passed,yes,2026-01-01T00:00:00Z,files,no,2026-01-01T00:00:00Z,,7,0,time_unknown,\r\n") !=
        std::string::npos);
  CHECK(book.find("\r\nerin,7,7,2,5,passed,yes,2026-01-03T00:00:00Z,git,no,2026-01-04T00:00:00Z,0,7,0,on_time,\r\n") !=
        std::string::npos);
  CHECK(book.find("\r\nfrank,,,,,not_run,no,,,,,,,,,not graded yet") != std::string::npos);
}
