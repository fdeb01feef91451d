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

TEST_CASE("cluster::squeue_knows_none") {
  CHECK(squeue_knows_none("slurm_load_jobs error: Invalid job id specified\n"));
  CHECK_FALSE(squeue_knows_none("slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n"));
}
