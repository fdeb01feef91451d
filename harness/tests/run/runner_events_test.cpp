// What run_job follows while a runner works: the event file read whole lines at a time and never
// through a link, a task's clock from its first start; the inputs handed over one case at a time.
#include "run/runner_events.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using cugrade::test::TempDir;

namespace {
Event event(std::string kind, std::string task) {
  Event e;
  e.kind = std::move(kind);
  e.task = std::move(task);
  return e;
}
void append(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::app) << text; }
}  // namespace

TEST_CASE("run::task_ids") {
  Job job;
  job.checks = {CheckTask{"case-1"}, CheckTask{"case-2"}};
  job.timings.push_back(TimeTask{});
  job.timings.back().id = "time-1";
  CHECK(task_ids(job) == std::vector<std::string>{"case-1", "case-2", "time-1"});
}

TEST_CASE("run::EventFollower") {
  TempDir dir;
  const fs::path file = dir.path / "events.jsonl";
  EventFollower follower(file.string());

  SUBCASE("no file yet: nothing") {
    follower.poll();
    CHECK(follower.events().empty());
    CHECK_FALSE(follower.current().has_value());
  }
  SUBCASE("a task in progress from its start to its done; a line still being written waits") {
    append(file, event_to_line(event("start", "case-1")) + "\n");
    const std::string done = event_to_line(event("done", "case-1"));
    append(file, done.substr(0, 5));
    follower.poll();
    REQUIRE(follower.current().has_value());
    CHECK(follower.current()->first == "case-1");
    CHECK(follower.events().size() == 1);
    CHECK_FALSE(follower.idle_since().has_value());
    append(file, done.substr(5) + "\n");
    follower.poll();
    CHECK(follower.events().size() == 2);
    CHECK_FALSE(follower.current().has_value());
    CHECK(follower.idle_since().has_value());
  }
  SUBCASE("a start written again does not restart the task's clock; junk is passed over") {
    append(file, event_to_line(event("start", "case-1")) + "\nnot an event\n");
    follower.poll();
    const auto first = follower.current()->second;
    append(file, event_to_line(event("start", "case-1")) + "\n");
    follower.poll();
    CHECK(follower.current()->second == first);
    CHECK(follower.events().size() == 2);
  }
  SUBCASE("never read through a link put in the file's place") {
    const fs::path elsewhere = dir.path / "elsewhere.jsonl";
    append(elsewhere, event_to_line(event("start", "case-1")) + "\n");
    fs::create_symlink(elsewhere, file);
    follower.poll();
    CHECK(follower.events().empty());
  }
}

TEST_CASE("run::InputsRelease") {
  TempDir dir;
  Job job;
  job.checks = {CheckTask{"case-1"}, CheckTask{"case-2"}};
  job.checks[0].inputs_file = (dir.path / "one.in").string();
  job.checks[1].inputs_file = (dir.path / "two.in").string();
  append(dir.path / "one.in", "1");
  append(dir.path / "two.in", "2");

  SUBCASE("no folder given: the job is left as it was") {
    InputsRelease release({}, job);
    CHECK(release.dir().empty());
    CHECK(job.checks[0].inputs_file == (dir.path / "one.in").string());
  }
  SUBCASE("each case's inputs appear once its task starts or the one before it ends") {
    fs::path shown;
    {
      InputsRelease release(dir.path / "released", job);
      shown = release.dir();
      REQUIRE(fs::is_directory(shown));
      CHECK(fs::is_empty(shown));
      std::vector<Event> events{event("start", "case-2")};  // forged: hands over nothing
      release.follow(events);
      CHECK(fs::is_empty(shown));
      events.push_back(event("start", "case-1"));
      release.follow(events);
      CHECK(fs::exists(job.checks[0].inputs_file));
      CHECK_FALSE(fs::exists(job.checks[1].inputs_file));
      events.push_back(event("done", "case-1"));
      release.follow(events);
      CHECK(fs::exists(job.checks[1].inputs_file));
    }
    CHECK_FALSE(fs::exists(shown));  // removed with the release
  }
}
