// When two runs of one case give the same answer: within the step's tolerance, not byte for byte.
#include "pipeline/run_agreement.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "array_file.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {

using test::TempDir;

/// Writes {"y": values} as f32 (or i64) to `path`.
std::string written(const fs::path& path, const std::vector<double>& values, DType type = DType::f32) {
  Array y = make_array(type, {static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (type == DType::f32) y.data<float>()[i] = static_cast<float>(values[i]);
    else y.data<std::int64_t>()[i] = static_cast<std::int64_t>(values[i]);
  }
  REQUIRE(write_array_file(path.string(), ArraySet{{"y", y}}));
  return path.string();
}

const Tolerance fp32_sum{1e-5, 1e-5, "a float sum"};

}  // namespace

TEST_CASE("run_agreement::outputs_agree") {
  TempDir dir;
  const std::string a = written(dir.path / "a", {1.0, 1000.0, -3.5});
  SUBCASE("the same bytes") { CHECK(outputs_agree(a, written(dir.path / "b", {1.0, 1000.0, -3.5}), Tolerance{})); }
  SUBCASE("other last bits, as a float atomicAdd sum in another order gives") {
    const double next = std::nextafter(1000.0f, 2000.0f);
    const std::string b = written(dir.path / "b", {1.0, next, -3.5});
    CHECK(outputs_agree(a, b, fp32_sum));
    CHECK_FALSE(outputs_agree(a, b, Tolerance{}));  // an exact step: any difference counts
  }
  SUBCASE("beyond the tolerance") {
    CHECK_FALSE(outputs_agree(a, written(dir.path / "b", {1.0, 1000.1, -3.5}), fp32_sum));
  }
  SUBCASE("NaN: the same NaN agrees, NaN against a number does not") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::string x = written(dir.path / "x", {nan, 2.0});
    CHECK(outputs_agree(x, written(dir.path / "y", {nan, 2.0}), fp32_sum));
    CHECK_FALSE(outputs_agree(x, written(dir.path / "z", {2.0, 2.0}), fp32_sum));
  }
  SUBCASE("integers must be equal, whatever the tolerance") {
    const std::string x = written(dir.path / "x", {5, 7}, DType::i64);
    CHECK_FALSE(outputs_agree(x, written(dir.path / "y", {5, 8}, DType::i64), Tolerance{10.0, 1.0, ""}));
    CHECK(outputs_agree(x, written(dir.path / "z", {5, 7}, DType::i64), Tolerance{}));
  }
  SUBCASE("another shape or dtype") {
    CHECK_FALSE(outputs_agree(a, written(dir.path / "b", {1.0, 1000.0}), fp32_sum));
    CHECK_FALSE(outputs_agree(a, written(dir.path / "c", {1.0, 1000.0, -3.0}, DType::i64), fp32_sum));
  }
  SUBCASE("an unreadable file is no evidence of anything") {
    CHECK(outputs_agree(a, (dir.path / "missing").string(), Tolerance{}));
  }
}

TEST_CASE("run_agreement::runs_disagree") {
  TempDir dir;
  const std::string a = written(dir.path / "a", {1.0, 2.0});
  const std::string b = written(dir.path / "b", {1.0, 3.0});
  const std::string c = written(dir.path / "c", {1.0, 2.0 + 1e-6});
  const CaseResult passed{.outcome = Outcome::passed};
  const CaseResult wrong{.outcome = Outcome::wrong_answer};
  const CaseResult crashed{.outcome = Outcome::cuda_error};
  SUBCASE("one passes, the other does not") {
    CHECK(runs_disagree(passed, a, wrong, b, fp32_sum));
    CHECK(runs_disagree(wrong, b, passed, a, fp32_sum));
    CHECK(runs_disagree(passed, a, crashed, a, fp32_sum));
  }
  SUBCASE("both pass: they agree, whatever their last bits") { CHECK_FALSE(runs_disagree(passed, a, passed, c, fp32_sum)); }
  SUBCASE("both wrong: they disagree only when their outputs do") {
    CHECK(runs_disagree(wrong, a, wrong, b, fp32_sum));
    CHECK_FALSE(runs_disagree(wrong, a, wrong, c, fp32_sum));
  }
  SUBCASE("the same failure twice") { CHECK_FALSE(runs_disagree(crashed, a, crashed, b, fp32_sum)); }
}
