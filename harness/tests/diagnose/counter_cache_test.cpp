// CounterCache (harness/src/diagnose/counter_cache.cpp): the reference's counters kept in memory,
// and in a file from one run to the next; a damaged or foreign file keeps nothing and is no
// error; the file's name per GPU and driver; a file's identity changes when it is rewritten.
#include "diagnose/counter_cache.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <doctest/doctest.h>

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
/// A folder of its own for each test, removed after it.
struct Folder {
  fs::path dir = fs::temp_directory_path() / ("cugrade-counter-cache-test-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(dir); }
  ~Folder() { fs::remove_all(dir); }
};

CallCounters counters(const std::string& kernel, double sectors) {
  CallCounters c;
  c.kernels = 3;
  c.main_kernel = kernel;
  c.duration_ns = 12345.5;
  c.global_load_sectors = sectors;
  c.global_load_requests = 10.0;
  c.warps_active_pct = 71.25;
  c.block_size = 256;
  return c;
}
}  // namespace

TEST_CASE("diagnose::CounterCache") {
  Folder folder;
  const fs::path file = folder.dir / "counters-H100-580.json";

  SUBCASE("in memory only: what was stored is found, nothing else, and no file is written") {
    CounterCache cache;
    CHECK_FALSE(cache.find("ref|a").has_value());
    cache.store("ref|a", counters("mtran", 40.0));
    REQUIRE(cache.find("ref|a").has_value());
    CHECK(cache.find("ref|a")->main_kernel == "mtran");
    CHECK(fs::is_empty(folder.dir));
  }
  SUBCASE("with a file, the next run's cache finds every counter as it was stored") {
    {
      CounterCache first(file);
      first.store("ref|a", counters("mtran", 40.0));
      first.store("ref|b", counters("reduce3", 8.0));
    }
    REQUIRE(fs::exists(file));
    CounterCache next(file);
    const auto a = next.find("ref|a");
    REQUIRE(a.has_value());
    CHECK(a->kernels == 3);
    CHECK(a->main_kernel == "mtran");
    CHECK(a->duration_ns == 12345.5);
    CHECK(a->global_load_sectors == 40.0);
    CHECK(a->load_sectors_per_request() == 4.0);
    CHECK(a->warps_active_pct == 71.25);
    CHECK(a->block_size == 256);
    CHECK(next.find("ref|b")->main_kernel == "reduce3");
    CHECK_FALSE(next.find("ref|c").has_value());
  }
  SUBCASE("two processes' stores both stay: a store keeps what the other wrote meanwhile") {
    CounterCache one(file), other(file);
    one.store("ref|a", counters("mtran", 40.0));
    other.store("ref|b", counters("reduce3", 8.0));
    CounterCache next(file);
    CHECK(next.find("ref|a").has_value());
    CHECK(next.find("ref|b").has_value());
  }
  SUBCASE("a damaged, foreign or unreadable file keeps nothing and is no error") {
    for (const std::string text : {"{not json", "[1, 2]", "{\"format\": 99, \"counters\": {}}",
                                   "{\"format\": 1, \"counters\": {\"ref|a\": \"a string\"}}"}) {
      CAPTURE(text);
      std::ofstream(file) << text;
      CounterCache cache(file);
      CHECK_FALSE(cache.find("ref|a").has_value());
      cache.store("ref|b", counters("mtran", 40.0));  // written again, whole
      CHECK(CounterCache(file).find("ref|b").has_value());
    }
    CounterCache nowhere(folder.dir / "missing-folder" / "sub" / "file.json");
    CHECK_FALSE(nowhere.find("ref|a").has_value());
  }
  SUBCASE("a file that cannot be written: the counters are still kept for this run") {
    fs::create_directories(file);  // a folder where the file should be
    CounterCache cache(file);
    cache.store("ref|a", counters("mtran", 40.0));
    CHECK(cache.find("ref|a").has_value());
  }
}

TEST_CASE("diagnose::counter_cache_file and file_identity") {
  CHECK(counter_cache_file("/c", "NVIDIA H100 80GB HBM3", "580.159.04") ==
        fs::path("/c/counters-NVIDIA_H100_80GB_HBM3-580.159.04.json"));
  CHECK(counter_cache_file("/c", "a/../b", "1").filename() == "counters-a_.._b-1.json");

  Folder folder;
  const fs::path runner = folder.dir / "reference-runner";
  CHECK(file_identity(runner).empty());
  std::ofstream(runner) << "version one";
  const std::string first = file_identity(runner);
  CHECK_FALSE(first.empty());
  CHECK(file_identity(runner) == first);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(runner) << "version two, rebuilt";
  CHECK(file_identity(runner) != first);
}
