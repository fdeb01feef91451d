#include "spec/size_rules.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "spec/scratch_spec.hpp"
#include "spec/spec_parser.hpp"

using namespace cugrade;
using cugrade::test::ScratchSpec;
using Lines = std::vector<std::string>;

namespace {

// A matmul-like grader: M, N and K required, "tile" optional; float data; refuses K = 3.
SizeRules matmul_like_rules() {
  return SizeRules{"matmul", {.required = {"M", "N", "K"}, .optional = {"tile"}},
                   [](const std::string& step, const Params& p) {
                     if (p.at("K") == 3) throw std::invalid_argument("K must not be 3");
                     const double m = double(p.at("M")), n = double(p.at("N")), k = double(p.at("K"));
                     return (step == "wide" ? 8.0 : 4.0) * (m * k + k * n + m * n);
                   }};
}

// The spec's problems with the rules, each without the file name.
Lines problems_of(const std::string& yaml, const SizeRules* rules) {
  const ScratchSpec file(yaml);
  Lines lines = parse_spec_file(file.path(), rules).problems;
  for (auto& line : lines) line = line.substr(file.path().size());
  return lines;
}

const std::string head =
    "id: vecadd\ntitle: t\nlimits: {host_memory_mb: 1}\nsteps:\n"
    "  - {name: naive, entry: vec_add}\n  - {name: wide, entry: vec_add}\n";

}  // namespace

TEST_CASE("spec::check_sizes") {
  const SizeRules rules = matmul_like_rules();
  SUBCASE("sizes the grader reads, within memory, pass") {
    const std::string yaml = head + "cases:\n  - sizes: [{M: 100, N: 100, K: 100, tile: 2}]\n";
    CHECK(problems_of(yaml, &rules) == Lines{});
  }
  SUBCASE("a missing parameter at the size, an unknown one at its key with a suggestion") {
    const std::string yaml = head +
                             "cases:\n  - sizes:\n"
                             "      - {M: 2, N: 3}\n"
                             "      - {M: 2, N: 3, K: 4, k: 5}\n"
                             "      - {M: 2, N: 3, K: 4, Lx: 1}\n";
    CHECK(problems_of(yaml, &rules) ==
          Lines{":9:9: size 1 of case group 1 has no 'K' (the matmul grader needs M, N, K)",
                ":10:28: unknown parameter 'k' in size 2 of case group 1; did you mean 'K'? (the "
                "matmul grader reads M, N, K, tile)",
                ":11:28: unknown parameter 'Lx' in size 3 of case group 1 (the matmul grader "
                "reads M, N, K, tile)"});
    // Without the grader's rules only the spec's own checks run.
    CHECK(problems_of(yaml, nullptr) == Lines{});
  }
  SUBCASE("a case past host_memory_mb, counted for its largest step") {
    // 4 bytes × 3 × 300² = 1.03 MiB for 'naive'; 'wide' doubles it.
    const std::string yaml = head + "cases:\n  - sizes: [{M: 300, N: 300, K: 300}]\n";
    CHECK(problems_of(yaml, &rules) ==
          Lines{":8:13: size 1 of case group 1 needs at least 2.1 MiB for the inputs and outputs "
                "of step 'wide', more than 'host_memory_mb' allows (1 MiB)"});
    const std::string one_step = head + "cases:\n  - {steps: [naive], sizes: [{M: 200, N: 200, K: 200}]}\n";
    CHECK(problems_of(one_step, &rules) == Lines{});
  }
  SUBCASE("timed sizes past 32 GiB; a size the grader refuses") {
    const std::string yaml = head +
                             "cases:\n  - sizes: [{M: 1, N: 1, K: 1}]\n"
                             "performance:\n  - {step: naive, params: {M: 100000, N: 100000, K: 100000}, points: 1}\n"
                             "bench:\n  - {table: t, params: {M: 1, N: 1, K: 3}, rows: [{step: naive}]}\n";
    CHECK(problems_of(yaml, &rules) ==
          Lines{":10:27: the size of performance target 1 needs at least 111.8 GiB for the "
                "inputs and outputs of step 'naive', more than 'gpu_memory_mb' allows (4096 MiB)",
                ":12:24: the size of bench table 1 is not one the grader accepts: K must not be 3"});
  }
  SUBCASE("a timed size within 32 GiB but past the runner's GPU memory; the bench's reference has no such limit") {
    // 4 bytes × 3 × 20000² = 4.5 GiB for 'naive'.
    const std::string sized = "performance:\n  - {step: naive, params: {M: 20000, N: 20000, K: 20000}, points: 1}\n"
                              "bench:\n  - {table: t, params: {M: 20000, N: 20000, K: 20000}, rows: [{step: naive}]}\n";
    const std::string yaml = head + "cases:\n  - sizes: [{M: 1, N: 1, K: 1}]\n" + sized;
    CHECK(problems_of(yaml, &rules) ==
          Lines{":10:27: the size of performance target 1 needs at least 4.5 GiB for the inputs and outputs of "
                "step 'naive', more than 'gpu_memory_mb' allows (4096 MiB)"});
    std::string roomy = yaml;
    roomy.replace(roomy.find("{host_memory_mb: 1}"), 19, "{host_memory_mb: 1, gpu_memory_mb: 8192}");
    CHECK(problems_of(roomy, &rules) == Lines{});
  }
  SUBCASE("a case past gpu_memory_mb where it is the smaller limit") {
    std::string yaml = head + "cases:\n  - {steps: [naive], sizes: [{M: 200, N: 200, K: 200}]}\n";
    yaml.replace(yaml.find("{host_memory_mb: 1}"), 19, "{host_memory_mb: 4096, gpu_memory_mb: 1}");
    CHECK(problems_of(yaml, &rules) == Lines{});  // 469 KiB
    std::string larger = head + "cases:\n  - {steps: [naive], sizes: [{M: 300, N: 300, K: 300}]}\n";
    larger.replace(larger.find("{host_memory_mb: 1}"), 19, "{host_memory_mb: 4096, gpu_memory_mb: 1}");
    CHECK(problems_of(larger, &rules) ==
          Lines{":8:30: size 1 of case group 1 needs at least 1.0 MiB for the inputs and outputs of step "
                "'naive', more than 'gpu_memory_mb' allows (1 MiB)"});
  }
  SUBCASE("not checked while the spec itself has problems") {
    const std::string yaml = head + "cases:\n  - sizes: [{M: 2}]\n    points: x\n";
    CHECK(problems_of(yaml, &rules) == Lines{":9:13: 'points' must be a number, not 'x'"});
  }
}
