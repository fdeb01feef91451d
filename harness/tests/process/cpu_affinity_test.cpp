// timing_cpus, builder_cpus and PinnedThread (harness/src/process/cpu_affinity.cpp): each lane's
// timing keeps to two CPUs of its own, builds keep off them, and a pinned thread's children
// inherit the pin.
#include "process/cpu_affinity.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

using namespace cugrade;

namespace {
cpu_set_t set_of(std::initializer_list<int> cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  return set;
}

bool equal(const cpu_set_t& a, const cpu_set_t& b) { return CPU_EQUAL(&a, &b); }

cpu_set_t mine() {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  return set;
}
}  // namespace

TEST_CASE("timing_cpus: two per lane, from the end of the allowed set") {
  const cpu_set_t eight = set_of({0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(equal(timing_cpus(eight, 0, 1), set_of({6, 7})));
  CHECK(equal(timing_cpus(eight, 0, 3), set_of({6, 7})));
  CHECK(equal(timing_cpus(eight, 2, 3), set_of({2, 3})));
  // Too few left for the rest (4 lanes of 8 CPUs), or a lane past the last: no pair of its own.
  CHECK(equal(timing_cpus(eight, 0, 4), eight));
  CHECK(equal(timing_cpus(eight, 1, 1), eight));
  // Of the CPUs a container allows (say 4, 5, 9 and 12), the last two.
  CHECK(equal(timing_cpus(set_of({4, 5, 9, 12}), 0, 1), set_of({9, 12})));
  CHECK(equal(timing_cpus(set_of({0, 1}), 0, 1), set_of({0, 1})));  // a 2-core machine: no pin
}

TEST_CASE("builder_cpus: every lane's timing CPUs kept free of builds, when enough are left") {
  const cpu_set_t eight = set_of({0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(equal(builder_cpus(eight, 1), set_of({0, 1, 2, 3, 4, 5})));
  CHECK(equal(builder_cpus(eight, 3), set_of({0, 1})));
  CHECK(equal(builder_cpus(eight, 4), eight));  // nothing would be left: no reservation
  CHECK(equal(builder_cpus(eight, 0), eight));  // the CPU backend: every core
  CHECK(equal(builder_cpus(set_of({4, 5, 9, 12}), 1), set_of({4, 5})));
  // Builds and timing never share a CPU where a reservation is made.
  for (std::size_t lanes = 1; lanes <= 3; ++lanes)
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      cpu_set_t both;
      const cpu_set_t builders = builder_cpus(eight, lanes), timing = timing_cpus(eight, lane, lanes);
      CPU_AND(&both, &builders, &timing);
      CHECK(CPU_COUNT(&both) == 0);
    }
}

TEST_CASE("allowed_cpus: the process's CPUs as it started, whatever a thread is pinned to since") {
  const cpu_set_t started = allowed_cpus();
  CHECK(CPU_COUNT(&started) >= 1);
  int first = 0;
  while (!CPU_ISSET(first, &started)) ++first;
  const PinnedThread pinned(set_of({first}));
  CHECK(equal(allowed_cpus(), started));
}

TEST_CASE("PinnedThread: the thread and what it starts keep to the CPUs, until it ends") {
  const cpu_set_t before = mine();
  int last = CPU_SETSIZE - 1;
  while (!CPU_ISSET(last, &before)) --last;
  const std::string file =
      (std::filesystem::temp_directory_path() / ("cugrade-affinity-" + std::to_string(getpid()))).string();
  {
    const PinnedThread pinned(set_of({last}));
    CHECK(equal(mine(), set_of({last})));
    // A child started now inherits the pin.
    REQUIRE(std::system(("grep Cpus_allowed_list /proc/self/status > " + file).c_str()) == 0);
  }
  CHECK(equal(mine(), before));
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "Cpus_allowed_list:\t" + std::to_string(last) + "\n");
  std::filesystem::remove(file);
  SUBCASE("a set it cannot apply (no CPU of it exists) leaves the thread as it was") {
    const PinnedThread pinned(set_of({}));
    CHECK(equal(mine(), before));
  }
}
