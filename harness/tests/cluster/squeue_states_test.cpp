#include "cluster/squeue_states.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("cluster::parse_squeue") {
  // `squeue --noheader --array --format=%i|%T|%N` with a throttled array, a finished task still
  // listed and the collect job waiting on its dependency.
  const std::string output =
      "41_[4-5%2]|PENDING|\n"
      "41_2|RUNNING|node7\n"
      "41_3|COMPLETING|node7\n"
      "41_1|COMPLETED|node8\r\n"
      "42|PENDING|\n"
      "garbage line\n";
  const auto tasks = parse_squeue(output);
  REQUIRE(tasks.size() == 5);
  CHECK(tasks[0].job == "41_[4-5%2]");
  CHECK(tasks[0].state == "PENDING");
  CHECK(tasks[0].node.empty());
  CHECK(tasks[1].node == "node7");
  CHECK(tasks[3].node == "node8");
  const auto queued = still_queued(tasks);
  CHECK(queued.size() == 4);  // the completed one may write nothing more
}

TEST_CASE("cluster::job_has_ended") {
  for (const char* state : {"COMPLETED", "FAILED", "CANCELLED", "CANCELLED+", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                            "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE"}) {
    CAPTURE(state);
    CHECK(job_has_ended(state));
  }
  // A requeued task will run again; a suspended one goes on: both may still write results.
  for (const char* state : {"PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED", "REQUEUE_HOLD",
                            "SUSPENDED", "RESIZING", "STOPPED", "SIGNALING", "STAGE_OUT"}) {
    CAPTURE(state);
    CHECK_FALSE(job_has_ended(state));
  }
}

TEST_CASE("cluster::task_listed") {
  const auto tasks = parse_squeue("41_[4-5,7%2]|PENDING|\n41_2|RUNNING|node7\n410_3|RUNNING|node7\n");
  CHECK(task_listed(tasks, "41", 2));
  CHECK(task_listed(tasks, "41", 4));
  CHECK(task_listed(tasks, "41", 5));
  CHECK(task_listed(tasks, "41", 7));
  CHECK_FALSE(task_listed(tasks, "41", 3));  // 410_3 is another job's
  CHECK_FALSE(task_listed(tasks, "41", 6));
  CHECK_FALSE(task_listed(tasks, "42", 2));
}

TEST_CASE("cluster::parse_squeue reads why a task waits") {
  const auto tasks = parse_squeue(
      "41_1|PENDING||launch failed requeued held\n"
      "41_2|RUNNING|node7|None\n"
      "41_[4-5%2]|PENDING||ReqNodeNotAvail, UnavailableNodes:node7\n"
      "42|PENDING|\n");
  REQUIRE(tasks.size() == 4);
  CHECK(tasks[0].reason == "launch failed requeued held");
  CHECK(tasks[1].node == "node7");
  CHECK(tasks[2].reason == "ReqNodeNotAvail, UnavailableNodes:node7");
  CHECK(tasks[3].reason.empty());  // squeue of the three-field format
}

TEST_CASE("cluster::queue_summary") {
  const auto tasks = parse_squeue(
      "41_1|PENDING||BeginTime\n41_5|PENDING||BeginTime\n41_2|RUNNING|node7|None\n"
      "41_3|RUNNING|node8|None\n42|PENDING||Dependency\n43|PENDING|\n");
  CHECK(queue_summary(tasks) == "1 PENDING, 2 PENDING (BeginTime), 1 PENDING (Dependency), 2 RUNNING on node7 node8");
  CHECK(queue_summary({}).empty());
}

TEST_CASE("cluster::held_tasks") {
  const auto tasks = parse_squeue(
      "41_1|PENDING||launch failed requeued held\n41_2|PENDING||JobHeldUser\n41_3|PENDING||JobHeldAdmin\n"
      "41_4|REQUEUE_HOLD||None\n41_5|PENDING||BeginTime\n41_6|RUNNING|node7|None\n42|PENDING||Dependency\n");
  std::vector<std::string> held;
  for (const auto& task : held_tasks(tasks)) held.push_back(task.job);
  CHECK(held == std::vector<std::string>{"41_1", "41_2", "41_3", "41_4"});
}

TEST_CASE("cluster::squeue_knows_none") {
  CHECK(squeue_knows_none("slurm_load_jobs error: Invalid job id specified\n"));
  CHECK_FALSE(squeue_knows_none("slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n"));
}
