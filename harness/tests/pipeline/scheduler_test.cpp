#include "pipeline/scheduler.hpp"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace cugrade;

namespace {

/// Records what the scheduler did, from every thread.
struct Trace {
  std::mutex mutex;
  std::vector<int> built, ran;                 ///< how often each item was built / run
  std::vector<bool> built_before_run;
  std::vector<int> lane_busy;                  ///< runs in progress per lane
  int builds_now = 0, most_builds = 0;
  int runs_now = 0, most_runs = 0;
  std::size_t most_waiting = 0;
  std::size_t waiting = 0;                     ///< built, not yet running
  bool lane_overlap = false;

  explicit Trace(std::size_t items, std::size_t lanes)
      : built(items), ran(items), built_before_run(items), lane_busy(std::max<std::size_t>(lanes, 8)) {}

  void build(std::size_t i) {
    {
      std::lock_guard lock(mutex);
      most_builds = std::max(most_builds, ++builds_now);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard lock(mutex);
    --builds_now;
    ++built[i];
    most_waiting = std::max(most_waiting, ++waiting);
  }
  void run(std::size_t i, std::size_t lane) {
    {
      std::lock_guard lock(mutex);
      --waiting;
      built_before_run[i] = built[i] == 1;
      if (++lane_busy[lane] > 1) lane_overlap = true;
      most_runs = std::max(most_runs, ++runs_now);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::lock_guard lock(mutex);
    --lane_busy[lane];
    --runs_now;
    ++ran[i];
  }
};

}  // namespace

TEST_CASE("batch::schedule_batch") {
  SUBCASE("GPU lanes: every item built once and run once; one run per lane at a time") {
    Trace trace(40, 2);
    schedule_batch(40, WorkerPlan{4, 2, 0}, [&](std::size_t i) { trace.build(i); },
                   [&](std::size_t i, std::size_t lane) { trace.run(i, lane); });
    CHECK(std::all_of(trace.built.begin(), trace.built.end(), [](int n) { return n == 1; }));
    CHECK(std::all_of(trace.ran.begin(), trace.ran.end(), [](int n) { return n == 1; }));
    CHECK(std::all_of(trace.built_before_run.begin(), trace.built_before_run.end(), [](bool b) { return b; }));
    CHECK_FALSE(trace.lane_overlap);
    CHECK(trace.most_runs <= 2);
    CHECK(trace.most_builds <= 4);
    CHECK(trace.most_builds >= 2);  // builds do go on in parallel
  }
  SUBCASE("slow lanes: builders wait rather than pile up built items") {
    Trace trace(30, 1);
    schedule_batch(30, WorkerPlan{4, 1, 3}, [&](std::size_t i) { trace.build(i); },
                   [&](std::size_t i, std::size_t lane) { trace.run(i, lane); });
    CHECK(std::all_of(trace.ran.begin(), trace.ran.end(), [](int n) { return n == 1; }));
    // The queue's limit: the builders (4), plus the item the lane has taken and not yet begun
    // (it counts against the limit, and the trace sees it waiting until run() starts).
    CHECK(trace.most_waiting <= 5);
  }
  SUBCASE("no lanes (CPU backend): each builder runs what it built, on its own lane") {
    Trace trace(25, 0);
    std::mutex mutex;
    std::vector<std::thread::id> built_by(25), run_by(25);
    schedule_batch(
        25, WorkerPlan{3, 0, 0},
        [&](std::size_t i) {
          trace.build(i);
          std::lock_guard lock(mutex);
          built_by[i] = std::this_thread::get_id();
        },
        [&](std::size_t i, std::size_t lane) {
          CHECK(lane < 3);
          trace.run(i, lane);
          std::lock_guard lock(mutex);
          run_by[i] = std::this_thread::get_id();
        });
    CHECK(std::all_of(trace.ran.begin(), trace.ran.end(), [](int n) { return n == 1; }));
    CHECK(built_by == run_by);
    CHECK_FALSE(trace.lane_overlap);
  }
  SUBCASE("a stop request: nothing new starts, what started finishes") {
    for (const std::size_t lanes : {std::size_t{0}, std::size_t{1}}) {
      CAPTURE(lanes);
      Trace trace(100, lanes);
      std::atomic<bool> stop{false};
      std::atomic<int> runs{0};
      schedule_batch(
          100, WorkerPlan{2, lanes, 0}, [&](std::size_t i) { trace.build(i); },
          [&](std::size_t i, std::size_t lane) {
            trace.run(i, lane);
            if (++runs == 5) stop = true;
          },
          &stop);
      const int ran = static_cast<int>(std::count(trace.ran.begin(), trace.ran.end(), 1));
      CHECK(ran >= 5);
      CHECK(ran < 20);
      CHECK(std::none_of(trace.ran.begin(), trace.ran.end(), [](int n) { return n > 1; }));
    }
  }
  SUBCASE("a finish stage: every item finished once, after its run, off the lanes' threads") {
    for (const std::size_t lanes : {std::size_t{0}, std::size_t{2}}) {
      CAPTURE(lanes);
      Trace trace(30, lanes);
      std::mutex mutex;
      std::vector<int> finished(30);
      std::vector<bool> ran_first(30);
      std::vector<std::thread::id> run_by(30), finished_by(30);
      schedule_batch(
          30, WorkerPlan{3, lanes, 0}, [&](std::size_t i) { trace.build(i); },
          [&](std::size_t i, std::size_t lane) {
            trace.run(i, lane);
            std::lock_guard lock(mutex);
            run_by[i] = std::this_thread::get_id();
          },
          nullptr,
          [&](std::size_t i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
            std::lock_guard lock(mutex);
            ++finished[i];
            ran_first[i] = trace.ran[i] == 1;
            finished_by[i] = std::this_thread::get_id();
          });
      CHECK(std::all_of(finished.begin(), finished.end(), [](int n) { return n == 1; }));
      CHECK(std::all_of(ran_first.begin(), ran_first.end(), [](bool b) { return b; }));
      for (std::size_t i = 0; i < 30; ++i) CHECK((lanes == 0) == (run_by[i] == finished_by[i]));
    }
  }
  SUBCASE("nothing to do") {
    schedule_batch(0, WorkerPlan{4, 1, 0}, [](std::size_t) { FAIL("no build"); },
                   [](std::size_t, std::size_t) { FAIL("no run"); });
  }
}

TEST_CASE("schedule_batch: with lanes, builds run at a lower CPU priority than runs") {
  std::mutex mutex;
  std::vector<int> build_nice, run_nice;
  const auto nice_now = [] { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); };
  schedule_batch(
      4, WorkerPlan{2, 1, 0},
      [&](std::size_t) {
        std::lock_guard lock(mutex);
        build_nice.push_back(nice_now());
      },
      [&](std::size_t, std::size_t) {
        std::lock_guard lock(mutex);
        run_nice.push_back(nice_now());
      });
  REQUIRE(build_nice.size() == 4);
  REQUIRE(run_nice.size() == 4);
  for (int nice : build_nice) CHECK(nice > run_nice.front());
  // The caller's own priority is untouched.
  CHECK(nice_now() == run_nice.front());
}

TEST_CASE("schedule_batch: with a lane, builders run on builder_cpus") {
  cpu_set_t allowed;
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  const cpu_set_t expected = builder_cpus(allowed, 1);
  std::mutex mutex;
  std::vector<bool> as_expected;
  schedule_batch(
      3, WorkerPlan{2, 1, 0},
      [&](std::size_t) {
        cpu_set_t mine;
        sched_getaffinity(0, sizeof mine, &mine);
        std::lock_guard lock(mutex);
        as_expected.push_back(CPU_EQUAL(&mine, &expected));
      },
      [](std::size_t, std::size_t) {});
  CHECK(as_expected == std::vector<bool>{true, true, true});
  cpu_set_t after;
  sched_getaffinity(0, sizeof after, &after);
  CHECK(CPU_EQUAL(&after, &allowed));  // the caller's own affinity is untouched
}
