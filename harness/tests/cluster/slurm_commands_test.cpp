#include "cluster/slurm_commands.hpp"

#include <cstdlib>

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("cluster::parse_job_id") {
  CHECK(parse_job_id("1234\n") == std::string("1234"));
  CHECK(parse_job_id("1234;cluster2\n") == std::string("1234"));
  for (const char* bad : {"", "\n", "sbatch: error: Batch job submission failed", "12a4", ";cluster"}) {
    CAPTURE(bad);
    auto refused = parse_job_id(bad);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("no job id") != std::string::npos);
  }
}

TEST_CASE("cluster::environment_for_slurm") {
  ::setenv("CUGRADE_COURSE_SECRET", "do-not-pass", 1);
  ::setenv("SLURM_CONF", "/etc/slurm/slurm.conf", 1);
  const auto environment = environment_for_slurm();
  CHECK_FALSE(environment.contains("CUGRADE_COURSE_SECRET"));
  CHECK(environment.at("SLURM_CONF") == "/etc/slurm/slurm.conf");
  ::unsetenv("CUGRADE_COURSE_SECRET");
}
