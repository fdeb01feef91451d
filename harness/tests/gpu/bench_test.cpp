// `cugrade bench vecadd` on a GPU, end to end: the reference built, each row timed alone with a
// short budget, and the JSON record holding every figure. Without a GPU: exit 77 (Skipped).
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpu_skip.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("gpu::bench_vecadd") {
  cugrade::test::skip_without_gpu();
  std::string pattern = (fs::temp_directory_path() / "cugrade-bench-gpu-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path dir = pattern;
  const std::string command = std::string(CUGRADE_BIN) +
                              " bench vecadd --budget 0.2 --max-samples 20 -q --report json=" +
                              (dir / "bench.json").string() + " --report markdown=" +
                              (dir / "bench.md").string() + " 2>" + (dir / "stderr").string();
  const int status = std::system(command.c_str());
  REQUIRE_MESSAGE(WIFEXITED(status), "cugrade bench did not exit normally");
  CHECK_MESSAGE(WEXITSTATUS(status) == 0, "stderr: " << read_text(dir / "stderr"));

  const auto json = nlohmann::json::parse(read_text(dir / "bench.json"), nullptr, false);
  REQUIRE(json.is_object());
  CHECK_FALSE(json["environment"]["gpu"].get<std::string>().empty());
  CHECK(json["settings"]["budget_s"] == 0.2);
  REQUIRE(json["assignments"].size() == 1);
  const auto& vecadd = json["assignments"][0];
  CHECK(vecadd["id"] == "vecadd");
  CHECK(vecadd["problem"] == "");
  REQUIRE(vecadd["tables"].size() == 2);
  for (const auto& table : vecadd["tables"]) {
    CHECK(table["rate_unit"] == "GB/s");
    CHECK(table["ceiling"].is_null());  // `ceiling: none`: the host link bounds vecAdd
    REQUIRE(table["cpu_gold_ms"].is_number());
    CHECK(table["cpu_gold_ms"].get<double>() > 0.0);
    REQUIRE(table["rows"].size() == 1);
    const auto& row = table["rows"][0];
    CHECK(row["outcome"] == "passed");
    CHECK(row["median_ms"].get<double>() > 0.0);
    CHECK(row["samples"].get<int>() >= 10);
    CHECK(row["samples"].get<int>() <= 20);
    CHECK(row["rate"].get<double>() > 0.0);
    CHECK(row["cpu_ratio"].get<double>() ==
          doctest::Approx(table["cpu_gold_ms"].get<double>() / row["median_ms"].get<double>()));
    CHECK(row["speedup"].is_null());  // the only row of its table
  }
  CHECK(read_text(dir / "bench.md").starts_with("# cugrade bench\n"));
  fs::remove_all(dir);
}
