// The lock-step session's protocol (harness/src/run/lockstep_session.cpp): what a runner is told
// before a timed call returns never gives the digest's key away.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "process/fake_process_runner.hpp"
#include "run/fake_server.hpp"
#include "run/lockstep_fixture.hpp"
#include "run/lockstep_session.hpp"
#include "run/lockstep_timing.hpp"

namespace fs = std::filesystem;
using namespace cugrade;
using namespace cugrade::test;

namespace {

/// The inverse of the session's mixing function (lockstep_mix): what a runner could compute.
std::uint64_t unsplitmix(std::uint64_t x) {
  x ^= (x >> 31) ^ (x >> 62);
  x *= 0x319642B2D24D8EC3ULL;  // the inverse of 0x94D049BB133111EB modulo 2^64
  x ^= (x >> 27) ^ (x >> 54);
  x *= 0x96DE1B173F119089ULL;  // the inverse of 0xBF58476D1CE4E5B9
  x ^= (x >> 30) ^ (x >> 60);
  return x - 0x9E3779B97F4A7C15ULL;
}

}  // namespace

TEST_CASE("run::time_targets tells no runner a digest's key before its call returned") {
  // The prepare line is the runner's (the student's code shares its process): no key may follow
  // from it. Each key is checked against every key its numbers could give, were the key mixed
  // from the variant: the shift's 256 completions and both values the signs' key can unmix to.
  CHECK(unsplitmix(lockstep_mix(0x0123456789ABCDEFULL)) == 0x0123456789ABCDEFULL);
  test::RunFixture fixture;
  FakeProcessRunner processes;
  TimeTask task = reduction_task(fixture.dir, 100);
  task.min_samples = task.max_samples = 6;
  const RunRequest student = scripted_student(fixture.dir);
  BaselineCache baselines;
  keep_baselines_that_never_blame(baselines, student, {task});
  auto calls = std::make_shared<std::vector<std::pair<std::string, std::uint64_t>>>();  // prepare line, key
  for (int side = 0; side < 2; ++side)
    processes.expect_interactive([calls](const ProcessRequest&) {
      auto prepared = std::make_shared<std::string>();
      return std::make_unique<test::FakeServer>([calls, prepared](const std::string& command) -> std::string {
        if (command == "task 0") return "loaded";
        if (command.starts_with("prepare ")) {
          *prepared = command;
          return "ready";
        }
        if (command == "run") return "ran 1.0";
        if (command.starts_with("digest ")) {
          calls->emplace_back(*prepared, std::stoull(command.substr(7)));
          return test::digest_reply();
        }
        if (command.starts_with("write ")) return "written";
        return "what?";
      });
    });
  const auto outcomes =
      time_targets(processes, student, {task}, CUGRADE_LOCKSTEP_REFERENCE, fixture.dir / "reference", {&baselines});
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].status.outcome == Outcome::passed);
  REQUIRE(calls->size() >= 12);
  std::set<std::uint64_t> keys;
  for (const auto& [prepare, key] : *calls) {
    CAPTURE(prepare);
    std::istringstream words(prepare.substr(8));
    std::uint64_t k = 0, shift = 0, negate = 0, signs = 0;
    words >> k >> shift >> negate >> signs;
    REQUIRE(signs != 0);
    for (std::uint64_t low = 0; low < 256; ++low) CHECK(key != lockstep_mix((shift << 8) | low));
    for (std::uint64_t mixed : {signs, signs ^ 1}) CHECK(key != lockstep_mix(unsplitmix(mixed) ^ sign_flips_tweak));
    keys.insert(key);
  }
  CHECK(keys.size() * 2 == calls->size());  // one key per sample, the same for both sides
}
