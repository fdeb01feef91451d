// parse_ncu_csv and its helpers (harness/src/diagnose/ncu_csv.cpp), on real H100 captures
// (data/PROVENANCE.md): columns found by their headings, other lines passed over.
#include "diagnose/ncu_csv.hpp"

#include <sstream>

#include <doctest/doctest.h>

#include "capture.hpp"

using namespace cugrade;
using cugrade::test::capture_text;

TEST_CASE("diagnose::csv_fields") {
  CHECK(csv_fields(R"("a","b,c","")") == std::vector<std::string>{"a", "b,c", ""});
  CHECK(csv_fields(R"("1098  ""<default domain>:cugrade_entry"" ",x)") ==
        std::vector<std::string>{"1098  \"<default domain>:cugrade_entry\" ", "x"});
  CHECK(csv_fields("\"a\",\"b\"\r") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("diagnose::metric_number") {
  double v = 0.0;
  CHECK(metric_number("4,194,304", "sector", v));
  CHECK(v == 4194304.0);
  CHECK(metric_number("56.26", "%", v));
  CHECK(v == doctest::Approx(56.26));
  SUBCASE("times come back in ns whatever unit ncu chose") {
    CHECK(metric_number("75,232", "ns", v));
    CHECK(v == 75232.0);
    CHECK(metric_number("75.23", "usecond", v));
    CHECK(v == doctest::Approx(75230.0));
    CHECK(metric_number("1.5", "ms", v));
    CHECK(v == doctest::Approx(1.5e6));
  }
  CHECK_FALSE(metric_number("n/a", "", v));
  CHECK_FALSE(metric_number("nan", "ns", v));  // strtod reads these: not a measurement
  CHECK_FALSE(metric_number("inf", "", v));
  CHECK_FALSE(metric_number("", "", v));
  CHECK_FALSE(metric_number("12abc", "", v));
}

TEST_CASE("diagnose::parse_ncu_csv") {
  SUBCASE("with --nvtx: the five kernels inside the ranges, none outside") {
    auto kernels = parse_ncu_csv(capture_text("h100_probe_nvtx.csv"));
    REQUIRE(kernels.has_value());
    REQUIRE(kernels->size() == 5);
    CHECK((*kernels)[0].kernel == "transpose_naive(const float *, float *, int)");
    CHECK((*kernels)[1].kernel == "transpose_smem(const float *, float *, int)");
    CHECK((*kernels)[2].kernel == "transpose_padded(const float *, float *, int)");
    CHECK(short_kernel_name((*kernels)[3].kernel) == "reduce0");
    CHECK(short_kernel_name((*kernels)[4].kernel) == "reduce2");
    const auto& naive = (*kernels)[0].metrics;
    CHECK(naive.at("gpu__time_duration.sum") == 75232.0);
    CHECK(naive.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 4194304.0);
    CHECK(naive.at("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum") == 131072.0);
    CHECK(naive.at("sm__warps_active.avg.pct_of_peak_sustained_active") == doctest::Approx(56.26));
    const auto& smem = (*kernels)[1].metrics;
    CHECK(smem.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 4221497.0);
  }
  SUBCASE("without --nvtx: the same headings, fewer columns") {
    auto kernels = parse_ncu_csv(capture_text("h100_transpose_smem.csv"));
    REQUIRE(kernels.has_value());
    REQUIRE(kernels->size() == 1);
    CHECK((*kernels)[0].metrics.at("launch__block_size") == 1024.0);
    CHECK((*kernels)[0].metrics.at("smsp__inst_executed.sum") == 3932160.0);
  }
  SUBCASE("with a section's rules: a longer heading, metric rows that stop after their value") {
    // As ncu 2025.3 prints the details page with --section SourceCounters beside --metrics.
    const std::string plain = cugrade::test::capture_text("h100_transpose_smem.csv");
    std::string ruled;
    std::istringstream lines(plain);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("\"ID\"", 0) == 0)
        line += ",\"Rule Name\",\"Rule Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"";
      else if (line.rfind("\"0\"", 0) == 0)
        line += ",";
      ruled += line + "\n";
    }
    ruled += "\"0\",\"1198\",\"slow\",\"127.0.0.1\",\"transpose_smem(const float *, float *, int)\",\"1\",\"7\",\"(32, 32, 1)\","
             "\"(64, 64, 1)\",\"0\",\"9.0\",\"Source Counters\",\"\",\"\",\"\",\"UncoalescedSharedAccess\",\"OPT\",\"This kernel has "
             "uncoalesced shared accesses\",\"local\",\"12.5\"\n";
    const auto with_rules = parse_ncu_csv(ruled);
    const auto without = parse_ncu_csv(plain);
    REQUIRE(with_rules.has_value());
    REQUIRE(without.has_value());
    REQUIRE(with_rules->size() == 1);
    CHECK(with_rules->front().metrics == without->front().metrics);
  }
  SUBCASE("a program's own lines, even quoted ones, are not rows") {
    const std::string text =
        "\"printed by the student\",\"1\"\n"
        "==PROF== Connected to process 7\n"
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k(int)\",\"smsp__inst_executed.sum\",\"inst\",\"1,024\"\n"
        "\"a forged row\",\"with\",\"the wrong\"\n"
        "\"1\",\"k(int)\",\"smsp__inst_executed.sum\",\"inst\",\"2,048\"\n";
    auto kernels = parse_ncu_csv(text);
    REQUIRE(kernels.has_value());
    REQUIRE(kernels->size() == 2);
    CHECK((*kernels)[0].metrics.at("smsp__inst_executed.sum") == 1024.0);
    CHECK((*kernels)[1].metrics.at("smsp__inst_executed.sum") == 2048.0);
  }
  SUBCASE("no table at all") {
    auto kernels = parse_ncu_csv("==PROF== Connected to process 7\n==ERROR== ERR_NVGPUCTRPERM\n");
    REQUIRE_FALSE(kernels.has_value());
    CHECK(kernels.error().message == "ncu printed no table of metrics");
    CHECK(parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n")->empty());
  }
}

TEST_CASE("diagnose::short_kernel_name") {
  CHECK(short_kernel_name("mtran(const float *, float *, int, int)") == "mtran");
  CHECK(short_kernel_name("void reduce7<128u>(const int *, int *, unsigned int)") == "reduce7<128u>");
  CHECK(short_kernel_name("void kernel_smem_2<float>(const T1 *, const T1 *, T1 *, int, int, int)") ==
        "kernel_smem_2<float>");
  CHECK(short_kernel_name("void ns::k<(int)1, std::pair<int, int>>(int)") == "ns::k<(int)1, std::pair<int, int>>");
  CHECK(short_kernel_name("plain") == "plain");
}
