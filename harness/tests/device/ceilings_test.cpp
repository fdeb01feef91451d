// Calibration: parsing cugrade-calibrate's JSON, the per-GPU cache and its file names.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "device/ceilings.hpp"
#include "process/fake_process_runner.hpp"
#include "temp_dir.hpp"

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
std::string data_file(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/device/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using test::TempDir;

Ceilings h100() {
  return Ceilings{.copy_gbps = 2994.99, .sgemm_tflops = 51.84, .gpu = "NVIDIA H100 80GB HBM3", .driver = "13.0", .measured_at = "2026-03-01T12:00:00Z"};
}
}  // namespace

TEST_CASE("device::ceilings_file_name") {
  SUBCASE("letters, digits, '.', '-' and '_' are kept; everything else becomes '_'") {
    CHECK(ceilings_file_name("NVIDIA H100 80GB HBM3", "13.0") == "NVIDIA_H100_80GB_HBM3-13.0.json");
    CHECK(ceilings_file_name("NVIDIA GeForce RTX 4090 (laptop)", "12.8") ==
          "NVIDIA_GeForce_RTX_4090__laptop_-12.8.json");
  }
  SUBCASE("a GPU name cannot leave the cache folder") {
    const std::string name = ceilings_file_name("../../etc/passwd", "1");
    CHECK(name.find('/') == std::string::npos);
    CHECK(name == ".._.._etc_passwd-1.json");
  }
  SUBCASE("an empty GPU name still gives a file name") {
    CHECK(ceilings_file_name("", "13.0") == "unknown-gpu-13.0.json");
  }
}

TEST_CASE("device::default_cache_dir") {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_xdg ? old_xdg : "";
  SUBCASE("XDG_CACHE_HOME/cugrade when set") {
    setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
    CHECK(default_cache_dir() == fs::path("/somewhere/cache/cugrade"));
  }
  SUBCASE("~/.cache/cugrade when XDG_CACHE_HOME is unset or empty") {
    setenv("XDG_CACHE_HOME", "", 1);
    const char* home = std::getenv("HOME");
    REQUIRE(home);
    CHECK(default_cache_dir() == fs::path(home) / ".cache" / "cugrade");
  }
  if (old_xdg) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}

TEST_CASE("device::save_ceilings") {
  TempDir dir;
  SUBCASE("round trip through the cache, creating the folder") {
    const auto written = save_ceilings(dir.path / "nested", h100());
    REQUIRE(written.has_value());
    CHECK(*written == dir.path / "nested" / "NVIDIA_H100_80GB_HBM3-13.0.json");
    const auto loaded = load_cached_ceilings(dir.path / "nested", "NVIDIA H100 80GB HBM3", "13.0");
    REQUIRE(loaded.has_value());
    CHECK(loaded->copy_gbps == doctest::Approx(2994.99));
    CHECK(loaded->sgemm_tflops == doctest::Approx(51.84));
    CHECK(loaded->gpu == "NVIDIA H100 80GB HBM3");
    CHECK(loaded->driver == "13.0");
    CHECK(loaded->measured_at == "2026-03-01T12:00:00Z");
  }
  SUBCASE("the read and DGEMM ceilings round trip; a cache written before them loads as unmeasured") {
    Ceilings full = h100();
    full.read_gbps = 3100.0;
    full.dgemm_tflops = 52.0;
    REQUIRE(save_ceilings(dir.path, full).has_value());
    auto loaded = load_cached_ceilings(dir.path, full.gpu, full.driver);
    REQUIRE(loaded.has_value());
    CHECK(loaded->read_gbps == 3100.0);
    CHECK(loaded->dgemm_tflops == 52.0);
    std::ofstream(dir.path / "NVIDIA_H100_80GB_HBM3-13.0.json")
        << R"({"copy_gbps": 3000, "sgemm_tflops": 51, "gpu": "NVIDIA H100 80GB HBM3", "driver": "13.0"})";
    loaded = load_cached_ceilings(dir.path, full.gpu, full.driver);
    REQUIRE(loaded.has_value());
    CHECK(loaded->read_gbps == 0.0);
    CHECK(loaded->dgemm_tflops == 0.0);
  }
  SUBCASE("a second save replaces the first") {
    REQUIRE(save_ceilings(dir.path, h100()).has_value());
    Ceilings newer = h100();
    newer.copy_gbps = 3000.0;
    REQUIRE(save_ceilings(dir.path, newer).has_value());
    CHECK(load_cached_ceilings(dir.path, newer.gpu, newer.driver)->copy_gbps == 3000.0);
  }
}

TEST_CASE("device::describe_ceilings") {
  Ceilings c = h100();
  c.copy_gbps = 4232.4;
  c.sgemm_tflops = 51.24;
  CHECK(describe_ceilings(c) == "copy 4232 GB/s, SGEMM FP32 51.2 TFLOP/s");
  c.read_gbps = 3801.0;
  c.dgemm_tflops = 52.04;
  CHECK(describe_ceilings(c) ==
        "copy 4232 GB/s, read 3801 GB/s, SGEMM FP32 51.2 TFLOP/s, DGEMM FP64 52.0 TFLOP/s");
}

TEST_CASE("device::load_cached_ceilings") {
  TempDir dir;
  SUBCASE("nothing cached: says to calibrate") {
    const auto loaded = load_cached_ceilings(dir.path, "NVIDIA H100 80GB HBM3", "13.0");
    REQUIRE_FALSE(loaded.has_value());
    CHECK(loaded.error().message ==
          "no calibration for NVIDIA H100 80GB HBM3 (driver 13.0) yet: run `cugrade calibrate`");
  }
  SUBCASE("another driver is another calibration") {
    REQUIRE(save_ceilings(dir.path, h100()).has_value());
    CHECK_FALSE(load_cached_ceilings(dir.path, "NVIDIA H100 80GB HBM3", "13.1").has_value());
  }
  SUBCASE("a damaged file says which and what to do") {
    fs::create_directories(dir.path);
    std::ofstream(dir.path / "NVIDIA_H100_80GB_HBM3-13.0.json") << R"({"copy_gbps": 1})";
    const auto loaded = load_cached_ceilings(dir.path, "NVIDIA H100 80GB HBM3", "13.0");
    REQUIRE_FALSE(loaded.has_value());
    CHECK(loaded.error().message ==
          "the calibration cache " + (dir.path / "NVIDIA_H100_80GB_HBM3-13.0.json").string() +
              " is damaged (\"sgemm_tflops\" is missing or not a positive number); delete it "
              "and run `cugrade calibrate` again");
  }
  SUBCASE("a file of another GPU whose name sanitizes the same is not used") {
    Ceilings other = h100();
    other.gpu = "NVIDIA H100 80GB/HBM3";
    REQUIRE(save_ceilings(dir.path, other).has_value());
    const auto loaded = load_cached_ceilings(dir.path, "NVIDIA H100 80GB HBM3", "13.0");
    REQUIRE_FALSE(loaded.has_value());
    CHECK(loaded.error().message.ends_with("run `cugrade calibrate` again"));
  }
}

TEST_CASE("device::parse_calibrate_output") {
  SUBCASE("what an H100 printed") {
    const auto c = parse_calibrate_output(data_file("calibrate_h100.json"));
    REQUIRE(c.has_value());
    CHECK(c->copy_gbps == doctest::Approx(2990.991));
    CHECK(c->read_gbps == doctest::Approx(3030.567));
    CHECK(c->sgemm_tflops == doctest::Approx(51.2422));
    CHECK(c->dgemm_tflops == doctest::Approx(62.4486));
    CHECK(c->gpu == "NVIDIA H100 80GB HBM3");
    CHECK(c->driver == "13.0");
    CHECK(c->measured_at.empty());
  }
  SUBCASE("a zero or missing measurement is refused") {
    CHECK_FALSE(parse_calibrate_output(
                    R"({"copy_gbps":0,"sgemm_tflops":1,"gpu":"g","driver":"13.0"})")
                    .has_value());
    const auto c = parse_calibrate_output("not json");
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "the calibration printed something unexpected (it is not a JSON object): \"not json\"");
  }
}

TEST_CASE("device::calibrate") {
  FakeProcessRunner runner;
  SUBCASE("runs the binary and stamps the time of measurement") {
    runner.expect([](const ProcessRequest&) { return fake_exit(0, data_file("calibrate_h100.json")); });
    const auto c = calibrate(runner, "cugrade-calibrate");
    REQUIRE(c.has_value());
    CHECK(c->gpu == "NVIDIA H100 80GB HBM3");
    REQUIRE(c->measured_at.size() == 20);
    CHECK(c->measured_at[10] == 'T');
    CHECK(c->measured_at.back() == 'Z');
  }
  SUBCASE("no GPU: the binary's own error is the message") {
    runner.expect([](const ProcessRequest&) {
      return fake_exit(1, R"({"error":"no CUDA device: no CUDA-capable device is detected"})");
    });
    const auto c = calibrate(runner, "cugrade-calibrate");
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "the calibration failed (exit code 1): no CUDA device: no CUDA-capable device is "
          "detected");
  }
  SUBCASE("a timeout says to look at the GPU") {
    runner.expect([](const ProcessRequest&) {
      ProcessResult result = fake_exit(-1);
      result.timed_out = true;
      return result;
    });
    const auto c = calibrate(runner, "cugrade-calibrate");
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "the calibration did not finish within 300 s; check the GPU with nvidia-smi");
  }
}
