// Two runners' digests of one timed call compared (run/timing_digests.hpp).
#include "run/timing_digests.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace cugrade;

TEST_CASE("run::digests_agree") {
  std::string why;
  CHECK(digests_agree({1.0, 2.0}, {1.0, 2.5}, {0.0, 0.5}, &why));
  CHECK_FALSE(digests_agree({1.0, 2.0}, {1.0, 2.6}, {0.0, 0.5}, &why));
  CHECK(why.find("part 1") != std::string::npos);
  // Rounding of a sum taken in another order is no mismatch, even with a bound of 0.
  CHECK(digests_agree({1e6 + 1e-5}, {1e6}, {0.0}, &why));
  CHECK_FALSE(digests_agree({NAN}, {1.0}, {1e9}, &why));
  CHECK(why.find("NaN") != std::string::npos);
}

TEST_CASE("run::exact_parts_agree and exact_tolerance") {
  std::string why;
  CHECK(exact_parts_agree({12.0, 34.0}, {12.0, 34.0}, &why));
  CHECK(why.empty());
  CHECK_FALSE(exact_parts_agree({12.0, 35.0}, {12.0, 34.0}, &why));
  CHECK(why.find("exact digest") != std::string::npos);
  TimeTask task;
  CHECK(exact_tolerance(task));
  task.rtol = 1e-6;
  CHECK_FALSE(exact_tolerance(task));
}

TEST_CASE("run::replies_agree") {
  // A reply: 64 sums, 64 bounds, the exact part's two halves.
  const auto reply = [](double first_sum, double bound, double exact_low) {
    std::vector<double> values(timing_digest_values, 0.0);
    values[0] = first_sum;
    values[timing_digest_buckets] = bound;
    values[2 * timing_digest_buckets + 1] = exact_low;
    return values;
  };
  std::string why;
  // Buckets within the reference's bound, exact parts apart: a match unless the step is exact.
  CHECK(replies_agree(reply(10.0, 0.0, 7.0), reply(10.0, 1.0, 8.0), false, &why));
  CHECK_FALSE(replies_agree(reply(10.0, 0.0, 7.0), reply(10.0, 1.0, 8.0), true, &why));
  CHECK(why.find("exact digest") != std::string::npos);
  // A bucket beyond the bound fails either way, and says which part.
  CHECK_FALSE(replies_agree(reply(12.0, 0.0, 8.0), reply(10.0, 1.0, 8.0), false, &why));
  CHECK(why.find("part 0") != std::string::npos);
  CHECK(replies_agree(reply(10.5, 0.0, 8.0), reply(10.0, 1.0, 8.0), true, &why));
  // A short reply from the student (the parser lets none through; this is the guard) never agrees.
  CHECK_FALSE(replies_agree(std::vector<double>(3, 0.0), reply(0.0, 0.0, 0.0), true, &why));
}
