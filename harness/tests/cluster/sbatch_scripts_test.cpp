#include "cluster/sbatch_scripts.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {

SlurmJob a_job(const fs::path& out, bool gpu) {
  SlurmJob job;
  job.assignment = "matmul";
  job.out = out;
  job.shards = 6;
  job.gpu = gpu;
  job.grade_command = {"/opt/cugrade/bin/cugrade", "grade", "matmul", "--submissions", "/home/ta/hw 2",
                       "--out", out.string(), "--backend", gpu ? "cuda" : "cpu"};
  job.collect_command = {"/opt/cugrade/bin/cugrade", "grade", "matmul", "--submissions", "/home/ta/hw 2",
                         "--out", out.string(), "--collect"};
  return job;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("cluster::shell_quote") {
  CHECK(shell_quote("/abs/path-1.2") == "/abs/path-1.2");
  CHECK(shell_quote("hw 2") == "'hw 2'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$HOME") == "'$HOME'");
  CHECK(shell_quote("") == "''");
}

TEST_CASE("cluster::render_grade_script") {
  SUBCASE("what the array's tasks are: requeued, appended logs, a GPU on the CUDA backend only") {
    const std::string cuda = render_grade_script(a_job("/scratch/out", true));
    CHECK(cuda.starts_with("#!/bin/bash\n"));
    CHECK(cuda.find("#SBATCH --job-name=cugrade-matmul\n") != std::string::npos);
    CHECK(cuda.find("#SBATCH --requeue\n") != std::string::npos);
    CHECK(cuda.find("#SBATCH --gres=gpu:1\n") != std::string::npos);
    CHECK(cuda.find("#SBATCH --output=/scratch/out/slurm/logs/slurm-%A_%a.out\n") != std::string::npos);
    CHECK(cuda.find("#SBATCH --open-mode=append\n") != std::string::npos);
    CHECK(cuda.find("exec >>\"$log\" 2>&1\n") != std::string::npos);
    CHECK(cuda.find("/opt/cugrade/bin/cugrade grade matmul --submissions '/home/ta/hw 2' --out /scratch/out") !=
          std::string::npos);
    CHECK(cuda.find("--shard \"$shard/6\"") != std::string::npos);
    const std::string cpu = render_grade_script(a_job("/scratch/out", false));
    CHECK(cpu.find("--gres") == std::string::npos);
  }
  SUBCASE("run by bash as Slurm runs it: task 2 of the array based at 5 grades shard 7/6's command, log appended") {
    test::TempDir dir("sbatch");
    SlurmJob job = a_job(dir.path, false);
    // A command that shows what it was given, in place of cugrade.
    job.grade_command = {"/bin/echo", "graded", "with"};
    const fs::path script = dir.path / "grade.sbatch";
    std::ofstream(script) << render_grade_script(job);
    fs::create_directories(dir.path / "slurm" / "logs");
    const std::string run = "env -i PATH=/usr/bin:/bin SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_JOB_ID=41 SLURMD_NODENAME=node7 "
                            "SLURM_RESTART_COUNT=1 SLURM_CPUS_PER_TASK=4 CUDA_VISIBLE_DEVICES=1 bash " +
                            script.string() + " 5";
    REQUIRE(std::system(run.c_str()) == 0);
    REQUIRE(std::system(run.c_str()) == 0);  // a requeued task: the log grows
    const std::string log = read(shard_log(dir.path, 7, 6));
    CHECK(log.find("shard 7/6: job 41_2 on node7, restart 1, CUDA_VISIBLE_DEVICES=1") != std::string::npos);
    CHECK(log.find("graded with --shard 7/6 -j 4\n") != std::string::npos);
    CHECK(log.find("graded with") != log.rfind("graded with"));  // twice: appended, not truncated
  }
  SUBCASE("-j given: not taken from Slurm") {
    SlurmJob job = a_job("/scratch/out", false);
    job.jobs_from_slurm = false;
    CHECK(render_grade_script(job).find("SLURM_CPUS_PER_TASK") == std::string::npos);
  }
}

TEST_CASE("cluster::render_collect_script") {
  const std::string text = render_collect_script(a_job("/scratch/out", true));
  CHECK(text.find("#SBATCH --job-name=cugrade-matmul-collect\n") != std::string::npos);
  CHECK(text.find("#SBATCH --output=/scratch/out/slurm/logs/collect.log\n") != std::string::npos);
  CHECK(text.find("--gres") == std::string::npos);
  CHECK(text.find("exec /opt/cugrade/bin/cugrade grade matmul --submissions '/home/ta/hw 2' --out /scratch/out --collect\n") !=
        std::string::npos);
}
