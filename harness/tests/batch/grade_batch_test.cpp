// grade_batch() end to end on the CUDA backend with every command scripted (nvcc, nm, the
// runner): one worker, no GPU lanes, so the commands come in a fixed order. A class of four —
// a good folder, a zip that does not compile, an empty folder, and one whose runner cannot
// start (a harness error) — then the runs a TA makes after it: resumed, changed, --regrade.
#include "batch/grade_batch.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "batch/batch_fixture.hpp"
#include "batch/lane_batch_fixture.hpp"
#include "device/gpu_claim.hpp"
#include "report/golden.hpp"
#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {

/// What each of a batch's callbacks was told.
struct Told {
  std::vector<std::string> log;
  std::vector<std::string> finished;
  std::pair<std::size_t, std::size_t> planned{0, 0};
};

/// A class of "twice" submissions, a scripted machine and a batch over them.
struct BatchFixture {
  TempFolder root;
  Spec spec = twice_spec_for_batch();
  Locations where;
  FakeProcessRunner processes;
  BatchOptions options;
  Told told;

  static Spec twice_spec_for_batch() {
    auto loaded = load_spec(std::string(CUGRADE_TEST_DATA) + "/pipeline/twice/assignment.yaml");
    REQUIRE(loaded.has_value());
    return *loaded;
  }

  BatchFixture() {
    where.root = root.path;
    where.runner_dir = "/opt/cugrade/runners";
    where.cpu_runner_dir = "/opt/cugrade/cpu-runners";
    where.nvcc = "/opt/cuda/bin/nvcc";
    options.submissions = root.path / "class";
    options.out = root.path / "out";
    options.check.backend = Backend::cuda;
    options.check.performance = false;
    options.jobs = 1;
    write_text(class_dir() / "alice" / "twice.cu", twice_source);
    make_archive(class_dir() / "bob.zip", {{"bob/twice.cu", "this does not compile\n"}}, true);
    fs::create_directories(class_dir() / "carol");
    write_text(class_dir() / "dave" / "twice.cu", twice_source);
  }

  fs::path class_dir() const { return root.path / "class"; }
  fs::path out() const { return options.out; }

  /// `nvcc --version` of CUDA 13.0.
  void expect_nvcc_version() {
    processes.expect([](const ProcessRequest& sent) {
      CHECK(sent.argv.back() == "--version");
      return fake_exit(0, "Cuda compilation tools, release 13.0, V13.0.88\n");
    });
  }
  /// A build that passes: compile, nm, link, each writing what it makes.
  void expect_build(const std::string& student) {
    expect_nvcc_version();
    processes.expect([student](const ProcessRequest& sent) {
      CHECK(has_argument(sent.argv, "-c"));
      CHECK(sent.working_dir.string().find("/work/" + student + "/build") != std::string::npos);
      return fake_build_step(sent);
    });
    processes.expect([](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == "nm");
      return fake_exit(0, clean_symbols);
    });
    processes.expect([](const ProcessRequest& sent) {
      CHECK(sent.argv.front() == "objcopy");
      return fake_build_step(sent);
    });
    processes.expect([](const ProcessRequest& sent) { return fake_build_step(sent); });
  }
  /// A compile error at line 1 of the student's file.
  void expect_compile_error() {
    expect_nvcc_version();
    for (int twice = 0; twice < 2; ++twice)  // with the call-site header, then without (build/call_site_header.hpp)
      processes.expect([](const ProcessRequest& sent) {
        std::string file;
        for (const auto& a : sent.argv)
          if (a.ends_with(".cu")) file = a;
        return fake_exit(1, "", file + "(1): error: this declaration has no storage class or type specifier\n");
      });
  }
  /// The runner, answering every case right.
  void expect_runner() { processes.expect(scripted_runner(student_runner(FakeStudent{}))); }
  /// A runner that cannot be started (a fault of ours, not the student's).
  void expect_unstartable_runner() {
    processes.expect([](const ProcessRequest&) {
      ProcessResult result;
      result.launch_error = "runner: Permission denied";
      return result;
    });
  }

  /// Runs the batch; every scripted command must have been used.
  BatchSummary grade() {
    told = {};
    BatchCallbacks callbacks;
    callbacks.log = [this](const std::string& line) { told.log.push_back(line); };
    callbacks.planned = [this](std::size_t all, std::size_t now) { told.planned = {all, now}; };
    callbacks.finished = [this](const StudentRecord& r) { told.finished.push_back(r.student); };
    CheckContext context{processes, where};
    auto probe = parse_probe_output(test_data("device/probe_h100.json"));
    REQUIRE(probe.has_value());
    context.device = *probe;
    auto summary = grade_batch(context, spec, twice_grader, options, callbacks);
    REQUIRE_MESSAGE(summary.has_value(), summary.error().message);
    CHECK_MESSAGE(processes.pending() == 0, "scripted commands left unused");
    return *summary;
  }
  std::string gradebook() const { return read_text(out() / "gradebook.csv"); }

  /// The first run: alice passes, bob does not compile, carol is empty, dave's runner fails.
  BatchSummary grade_first_time() {
    expect_build("alice");
    expect_runner();
    expect_compile_error();
    expect_build("dave");
    expect_unstartable_runner();
    return grade();
  }
};

}  // namespace

TEST_CASE("batch::grade_batch") {
  BatchFixture fixture;
  const BatchSummary first = fixture.grade_first_time();

  SUBCASE("the first run: every student has a result; one bad submission stops nothing") {
    CHECK(fixture.told.planned == std::pair<std::size_t, std::size_t>{4, 4});
    CHECK(fixture.told.finished == std::vector<std::string>{"alice", "bob", "carol", "dave"});
    CHECK(fixture.told.log.empty());
    CHECK(first.students == 4);
    CHECK(first.graded_now == 4);
    CHECK(first.up_to_date == 0);
    CHECK(first.outcomes == std::map<Outcome, std::size_t>{{Outcome::passed, 1}, {Outcome::compile_error, 1},
                                                            {Outcome::not_run, 1}, {Outcome::harness_error, 1}});
    REQUIRE(first.harness_errors.size() == 1);
    CHECK(first.harness_errors[0].starts_with("dave: "));
    check_golden("batch/grade_batch_first.csv", fixture.gradebook());
    for (const std::string student : {"alice", "bob", "carol", "dave"}) {
      CAPTURE(student);
      CHECK(fs::exists(fixture.out() / "results" / (student + ".json")));
      CHECK(fs::exists(fixture.out() / "students" / student / "report.json"));
      CHECK(fs::exists(fixture.out() / "students" / student / "report.md"));
      CHECK_FALSE(fs::exists(fixture.out() / "work" / student));
    }
    CHECK(fs::exists(fixture.out() / "summary.html"));
    auto carol = load_record(fixture.out(), "carol");
    REQUIRE(carol.has_value());
    REQUIRE(carol->has_value());
    CHECK((*carol)->report.build.message == "the submission is empty");
  }

  SUBCASE("run again: only the harness error is retried, and the log says why") {
    fixture.expect_build("dave");
    fixture.expect_runner();
    const BatchSummary again = fixture.grade();
    CHECK(fixture.told.planned == std::pair<std::size_t, std::size_t>{4, 1});
    CHECK(fixture.told.log == std::vector<std::string>{"dave: graded again: the last attempt ended in a harness error"});
    CHECK(again.graded_now == 1);
    CHECK(again.up_to_date == 3);
    CHECK(again.harness_errors.empty());
    check_golden("batch/grade_batch_retried.csv", fixture.gradebook());

    SUBCASE("and again: nothing left to do, the same gradebook") {
      const BatchSummary third = fixture.grade();
      CHECK(third.graded_now == 0);
      CHECK(fixture.told.planned == std::pair<std::size_t, std::size_t>{4, 0});
      check_golden("batch/grade_batch_retried.csv", fixture.gradebook());
    }
    SUBCASE("killed before a result was written: that student alone is graded again, same gradebook") {
      fs::remove(fixture.out() / "results" / "alice.json");
      write_text(fixture.out() / "work" / "alice" / "build" / "half-written.o", "junk");
      fixture.expect_build("alice");
      fixture.expect_runner();
      const BatchSummary resumed = fixture.grade();
      CHECK(resumed.graded_now == 1);
      CHECK(fixture.told.finished == std::vector<std::string>{"alice"});
      check_golden("batch/grade_batch_retried.csv", fixture.gradebook());
      CHECK_FALSE(fs::exists(fixture.out() / "work" / "alice"));
    }
    SUBCASE("a damaged result is graded again, and the log says why") {
      write_text(fixture.out() / "results" / "carol.json", "{");
      const BatchSummary resumed = fixture.grade();
      CHECK(fixture.told.log ==
            std::vector<std::string>{"carol: graded again: its earlier result cannot be used (its result file is not valid JSON)"});
      CHECK(resumed.graded_now == 1);
    }
    SUBCASE("bob hands in a fixed archive: regraded because its files changed") {
      fs::remove(fixture.class_dir() / "bob.zip");
      make_archive(fixture.class_dir() / "bob.zip", {{"bob/twice.cu", twice_source}}, true);
      fixture.expect_build("bob");
      fixture.expect_runner();
      fixture.grade();
      CHECK(fixture.told.log == std::vector<std::string>{"bob: graded again: its files changed since it was graded"});
      CHECK(fixture.told.finished == std::vector<std::string>{"bob"});
    }
    SUBCASE("--regrade carol,alice: those two again, whatever their records say") {
      fixture.options.regrade = "carol,alice";
      fixture.expect_build("alice");
      fixture.expect_runner();
      fixture.grade();
      CHECK(fixture.told.finished == std::vector<std::string>{"alice", "carol"});
      CHECK(fixture.told.log == std::vector<std::string>{"alice: graded again: --regrade alice",
                                                          "carol: graded again: --regrade carol"});
    }
    SUBCASE("the course secret given this time: everyone graded again, and the log says why") {
      fixture.options.check.course_secret = CourseSecret("course-secret-123");
      fixture.expect_build("alice");
      fixture.expect_runner();
      fixture.expect_compile_error();
      fixture.expect_build("dave");
      fixture.expect_runner();
      const BatchSummary keyed = fixture.grade();
      CHECK(keyed.graded_now == 4);
      const std::string why =
          ": graded again: it was graded with other settings: the hidden cases (none, now keyed by a course secret)";
      CHECK(fixture.told.log == std::vector<std::string>{"alice" + why, "bob" + why, "carol" + why, "dave" + why});
      auto alice = load_record(fixture.out(), "alice");
      REQUIRE(alice.has_value());
      REQUIRE(alice->has_value());
      REQUIRE((*alice)->settings.has_value());
      CHECK((*alice)->settings->hidden.starts_with("keyed:"));
      CHECK((*alice)->report.max_score > 4.0);  // its hidden case counts now
      SUBCASE("and again with the same secret: nothing left to do") {
        CHECK(fixture.grade().graded_now == 0);
      }
    }
    SUBCASE("a student who left the class is left out of the gradebook") {
      fs::remove_all(fixture.class_dir() / "carol");
      const BatchSummary fewer = fixture.grade();
      CHECK(fewer.students == 3);
      CHECK(fixture.gradebook().find("carol") == std::string::npos);
    }
  }

  SUBCASE("a deadline adds the late column from the files' times, or an archive's entries") {
    set_mtime(fixture.class_dir() / "alice" / "twice.cu", 1767225600);
    set_mtime(fixture.class_dir() / "bob.zip", 1767225700);
    set_mtime(fixture.class_dir() / "dave" / "twice.cu", 1767225500);
    fs::create_directories(fixture.class_dir() / "gina");  // handed in nothing, after the deadline
    set_mtime(fixture.class_dir() / "gina", 1767225700);
    fixture.options.deadline_unix = 1767225650;
    fixture.options.regrade = "";
    fixture.expect_build("alice");
    fixture.expect_runner();
    fixture.expect_compile_error();
    fixture.expect_build("dave");
    fixture.expect_runner();
    fixture.grade();
    CHECK(fixture.told.log == std::vector<std::string>{"--regrade: every submission is graded again"});
    const std::string book = fixture.gradebook();
    CHECK(book.starts_with(
        "student,score,max_score,simple,fast,outcome,gradable,submitted_at,submitted_from,late,note\r\n"));
    CHECK(book.find("\r\nalice,4,4,2,2,passed,yes,2026-01-01T00:00:00Z,files,no,\r\n") != std::string::npos);
    // This zip's entries hold no time (only the DOS epoch of 1980): the archive file's own counts.
    CHECK(book.find("\r\nbob,0,4,0,0,compile_error,no,2026-01-01T00:01:40Z,archive file,yes,") != std::string::npos);
    CHECK(book.find("\r\ngina,0,4,0,0,not_run,no,,nothing handed in,,") != std::string::npos);
  }

  SUBCASE("a second batch on the same folder is refused while the first runs") {
    const int fd = ::open((fixture.out() / ".lock").c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    CheckContext context{fixture.processes, fixture.where};
    auto summary = grade_batch(context, fixture.spec, twice_grader, fixture.options);
    ::close(fd);
    REQUIRE_FALSE(summary.has_value());
    CHECK(summary.error().message ==
          "another `cugrade grade` is writing to " + fixture.out().string() + "; wait for it to end");
  }

  SUBCASE("a missing submissions folder ends the batch with a message") {
    fixture.options.submissions = fixture.root.path / "nowhere";
    CheckContext context{fixture.processes, fixture.where};
    auto summary = grade_batch(context, fixture.spec, twice_grader, fixture.options);
    REQUIRE_FALSE(summary.has_value());
    CHECK(summary.error().message.ends_with("nowhere does not exist or is not a folder"));
  }
}

TEST_CASE("batch::grade_batch of a student's folder holding only the archive they uploaded") {
  BatchFixture fixture;
  fs::remove_all(fixture.class_dir());
  // Moodle's download of every submission: a folder per student with what each uploaded.
  fs::create_directories(fixture.class_dir() / "erin");
  make_archive(fixture.class_dir() / "erin" / "hw1.zip", {{"hw1/twice.cu", twice_source}}, true);
  set_mtime(fixture.class_dir() / "erin" / "hw1.zip", 1767225600);
  fixture.options.deadline_unix = 1767225650;
  fixture.expect_build("erin");
  fixture.expect_runner();
  const BatchSummary summary = fixture.grade();
  CHECK(summary.outcomes.at(Outcome::passed) == 1);
  // Its entries hold no time: the archive file's own counts, as for an archive handed in alone.
  CHECK(fixture.gradebook().find("\r\nerin,4,4,2,2,passed,yes,2026-01-01T00:00:00Z,archive file,no,") !=
        std::string::npos);
}

TEST_CASE("batch::grade_batch of Canvas's download") {
  BatchFixture fixture;
  fs::remove_all(fixture.class_dir());
  // Canvas's "Download Submissions", unpacked: every file loose, named by its student; the file
  // times are the download's, Canvas's own late mark is in the names.
  write_text(fixture.class_dir() / "doejane_late_12_902_twice.cu", twice_source);
  make_archive(fixture.class_dir() / "smithjohn_11_901_hw1.zip", {{"hw1/twice.cu", twice_source}}, true);
  for (const auto& entry : fs::directory_iterator(fixture.class_dir())) set_mtime(entry.path(), 1767225600);
  fixture.options.deadline_unix = 1767225650;  // the download's times would say: both on time
  fixture.options.out = fixture.class_dir() / "grades";  // there from the second run on: not a student
  fixture.expect_build("doejane_12");
  fixture.expect_runner();
  fixture.expect_build("smithjohn_11");  // its uploaded archive, unpacked
  fixture.expect_runner();
  const BatchSummary summary = fixture.grade();
  CHECK(summary.outcomes.at(Outcome::passed) == 2);
  const std::string gradebook = fixture.gradebook();
  CAPTURE(gradebook);
  CHECK(gradebook.find("\r\ndoejane_12,4,4,2,2,passed,yes,,canvas: late,yes,") != std::string::npos);
  CHECK(gradebook.find("\r\nsmithjohn_11,4,4,2,2,passed,yes,,canvas: on time,no,") != std::string::npos);
  // A second run finds both unchanged.
  const BatchSummary again = fixture.grade();
  CHECK(again.graded_now == 0);
}

TEST_CASE("batch::grade_batch on GPU lanes") {
  const std::vector<std::string> students{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"};
  LaneBatch batch(students, {"3", "5"}, 3);
  const BatchSummary summary = batch.grade();
  CHECK(summary.outcomes == std::map<Outcome, std::size_t>{{Outcome::passed, students.size()}});
  CHECK(summary.times.lanes == 2);
  CHECK(fs::exists(batch.locks() / "cugrade-gpu-device-3.lock"));  // each lane claimed its own GPU
  CHECK(fs::exists(batch.locks() / "cugrade-gpu-device-5.lock"));
  CHECK(summary.times.builders == 3);
  CHECK(summary.times.lane_busy > 0.0);
  const std::vector<std::string> gpus = batch.machine.gpus();
  CHECK(gpus.size() == students.size());
  for (const auto& gpu : gpus) CHECK((gpu == "3" || gpu == "5"));
  CHECK_FALSE(batch.machine.shared_gpu());  // never two runners on one GPU at a time
}

TEST_CASE("batch::grade_batch with submissions sharing a GPU") {
  const std::vector<std::string> students{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"};
  LaneBatch batch(students, {"3"}, 4);
  batch.options.runs_per_gpu = 2;
  batch.machine.wrong_beside_others = true;
  const BatchSummary summary = batch.grade();
  // A neighbour never costs a point: every case that failed beside another runner was run again
  // with the GPU alone, and that run counted.
  CHECK(summary.outcomes == std::map<Outcome, std::size_t>{{Outcome::passed, students.size()}});
  CHECK(summary.times.lanes == 4);  // lanes_per_gpu(2) on one GPU
  CHECK(batch.machine.most_at_once() <= 2);
  CHECK(fs::exists(batch.locks() / "cugrade-gpu-device-3.lock"));  // one claim for its lanes
  std::size_t again = 0;
  for (const auto& student : students) {
    auto record = load_record(batch.options.out, student);
    REQUIRE(record.has_value());
    REQUIRE(record->has_value());
    for (const auto& note : (*record)->report.notes)
      if (note.find("were run again with the GPU alone") != std::string::npos) ++again;
  }
  // Whoever ran beside another (the fake builds are instant: most did) was run again, and said so.
  CHECK(batch.machine.shared_gpu() == (again > 0));
}

TEST_CASE("batch::grade_batch takes turns with another cugrade on its GPU") {
  LaneBatch batch({"s1", "s2", "s3"}, {"3"}, 2);
  batch.context.device->uuids = {"GPU-aaaa"};  // lane "3" is this process's device 0
  // Another cugrade holds the GPU until 200 ms after the lane says it waits: the lane says so
  // once, then grades everyone.
  auto held = std::make_unique<GpuClaim>(*GpuClaim::acquire("GPU-aaaa", {}, batch.locks()));
  std::atomic<bool> waits = false;
  std::thread other([&] {
    while (!waits) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    held.reset();
  });
  std::mutex log_mutex;
  std::vector<std::string> log;
  const BatchSummary summary = batch.grade([&](const std::string& line) {
    std::lock_guard lock(log_mutex);
    log.push_back(line);
    if (line.find("is in use by another cugrade") != std::string::npos) waits = true;
  });
  waits = true;  // a batch that never waited ends the other's hold too
  other.join();
  CHECK(summary.outcomes == std::map<Outcome, std::size_t>{{Outcome::passed, 3}});
  CHECK(summary.times.gpu_waited >= 0.15);
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& line) {
          return line.starts_with("GPU 3 (NVIDIA H100 80GB HBM3) is in use by another cugrade on this machine");
        }) == 1);
}
