// Two runners' digests of one timed call compared (run/timing_digests.hpp).
#include "run/timing_digests.hpp"

#include <doctest/doctest.h>

#include <algorithm>
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
  // A reply: 64 sums, 64 bounds, the exact part's two halves, then 64 spots of one output.
  const auto reply = [](double first_sum, double bound, double exact_low, double first_spot = 1.0) {
    std::vector<double> values(timing_digest_values + timing_digest_spots, 1.0);
    std::fill(values.begin(), values.begin() + timing_digest_values, 0.0);
    values[0] = first_sum;
    values[timing_digest_buckets] = bound;
    values[2 * timing_digest_buckets + 1] = exact_low;
    values[timing_digest_values] = first_spot;
    return values;
  };
  TimeTask exact, tolerant;
  tolerant.atol = 0.01;
  tolerant.rtol = 0.001;
  std::string why;
  // Buckets within the reference's bound, exact parts apart: a match unless the step is exact.
  CHECK(replies_agree(reply(10.0, 0.0, 7.0), reply(10.0, 1.0, 8.0), tolerant, &why));
  CHECK_FALSE(replies_agree(reply(10.0, 0.0, 7.0), reply(10.0, 1.0, 8.0), exact, &why));
  CHECK(why.find("exact digest") != std::string::npos);
  // A bucket beyond the bound fails either way, and says which part.
  CHECK_FALSE(replies_agree(reply(12.0, 0.0, 8.0), reply(10.0, 1.0, 8.0), tolerant, &why));
  CHECK(why.find("part 0") != std::string::npos);
  CHECK(replies_agree(reply(10.5, 0.0, 8.0), reply(10.0, 1.0, 8.0), exact, &why));
  // A short reply from the student (the parser lets none through; this is the guard) never agrees.
  CHECK_FALSE(replies_agree(std::vector<double>(3, 0.0), reply(0.0, 0.0, 0.0), exact, &why));
  // Every bucket within its bound, one spot beyond the tolerance: the spots catch it.
  CHECK(replies_agree(reply(10.0, 1.0, 8.0, 1.0105), reply(10.0, 1.0, 8.0), tolerant, &why));
  CHECK_FALSE(replies_agree(reply(10.0, 1.0, 8.0, 1.02), reply(10.0, 1.0, 8.0), tolerant, &why));
  CHECK(why.find("an element the digest's key chose") != std::string::npos);
}

TEST_CASE("run::spots_agree") {
  std::string why;
  CHECK(spots_agree({1.0, -2.0}, {1.0, -2.0}, 0.0, 0.0, &why));
  CHECK(spots_agree({1.0, -2.002}, {1.0, -2.0}, 0.0, 0.001, &why));   // within rtol·|r|
  CHECK_FALSE(spots_agree({1.0, -2.003}, {1.0, -2.0}, 0.0, 0.001, &why));
  CHECK_FALSE(spots_agree({NAN, 1.0}, {1.0, 1.0}, 1.0, 0.0, &why));    // NaN never agrees
  CHECK(spots_agree({5.0}, {INFINITY}, 0.0, 0.0, &why));                // the whole comparison judges the reference's
  CHECK_FALSE(spots_agree({1.0}, {1.0, 2.0}, 0.0, 0.0, &why));          // a spot missing
}

TEST_CASE("run::digest_reply_values") {
  TimeTask task;
  CHECK(digest_reply_values(task) == timing_digest_values);
  task.outputs["AX"] = OutputDecl{DType::f32, {384}};
  task.outputs["AY"] = OutputDecl{DType::f32, {384}};
  task.outputs["none"] = OutputDecl{DType::f32, {0}};
  CHECK(digest_reply_values(task) == timing_digest_values + 2 * timing_digest_spots);
}
