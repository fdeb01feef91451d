// Golden file: bench_to_json's output is compared with harness/tests/data/golden/bench_sample.json.
#include "bench/bench_json.hpp"

#include <doctest/doctest.h>

#include "bench/bench_sample.hpp"
#include "report/golden.hpp"

using namespace cugrade;

TEST_CASE("bench::bench_to_json") {
  const nlohmann::json json = bench_to_json(test::sample_bench_report());
  SUBCASE("every figure of every table, absent values as null") {
    test::check_golden("bench_sample.json", json.dump(2) + "\n");
  }
  SUBCASE("what a script reads: rows by assignment and table, numbers unformatted") {
    const auto& row = json["assignments"][0]["tables"][0]["rows"][2];
    CHECK(row["step"] == "coalesced");
    CHECK(row["median_ms"].get<double>() == 0.1);
    CHECK(row["rate"].get<double>() == doctest::Approx(1280.0));
    CHECK(row["speedup"].get<double>() == doctest::Approx(4.0));
    CHECK(json["assignments"][0]["tables"][0]["rows"][3]["median_ms"].is_null());
    CHECK(json["ceilings"]["dgemm_tflops"].is_null());  // 0 in the cache: not measured
    CHECK(json["assignments"][1]["problem"] ==
          "the reference did not build: nvcc failed with exit code 1");
  }
}
