#include "cluster/array_chunks.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("cluster::array_chunks") {
  SUBCASE("a class within MaxArraySize: one array, indices from 0") {
    const auto chunks = array_chunks({1, 2, 3, 4, 5, 6}, 1001);
    REQUIRE(chunks.size() == 1);
    CHECK(chunks[0].base == 1);
    CHECK(chunks[0].array_spec(4) == "0-5%4");
  }
  SUBCASE("MaxArraySize caps the index, not the count: 6 shards at 4 are two arrays") {
    const auto chunks = array_chunks({1, 2, 3, 4, 5, 6}, 4);
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0].base == 1);
    CHECK(chunks[0].array_spec(0) == "0-3");
    CHECK(chunks[1].base == 5);
    CHECK(chunks[1].array_spec(0) == "0-1");
  }
  SUBCASE("2000 shards at Slurm's default: every index below 1001") {
    std::vector<std::size_t> shards;
    for (std::size_t s = 1; s <= 2000; ++s) shards.push_back(s);
    const auto chunks = array_chunks(shards, default_max_array_size);
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0].array_spec(16) == "0-1000%16");
    CHECK(chunks[1].base == 1002);
    CHECK(chunks[1].array_spec(16) == "0-998%16");
    std::size_t tasks = 0;
    for (const auto& chunk : chunks)
      for (const std::size_t index : chunk.indices) {
        CHECK(index < default_max_array_size);
        ++tasks;
      }
    CHECK(tasks == 2000);
  }
  SUBCASE("a rerun's few shards: only the arrays that have some, as ranges and single indices") {
    const auto chunks = array_chunks({2, 3, 4, 7, 13}, 4);
    REQUIRE(chunks.size() == 3);
    CHECK(chunks[0].base == 1);
    CHECK(chunks[0].array_spec(0) == "1-3");
    CHECK(chunks[1].base == 5);
    CHECK(chunks[1].array_spec(2) == "2%2");
    CHECK(chunks[2].base == 13);
    CHECK(chunks[2].array_spec(0) == "0");
  }
  SUBCASE("MaxArraySize 1: one array per shard") {
    const auto chunks = array_chunks({1, 2, 3}, 1);
    REQUIRE(chunks.size() == 3);
    CHECK(chunks[2].base == 3);
    CHECK(chunks[2].array_spec(0) == "0");
  }
}

TEST_CASE("cluster::max_array_size") {
  // As `scontrol show config` prints it (Slurm 22.05).
  const std::string config =
      "Configuration data as of 2026-12-02T03:10:00\n"
      "AccountingStorageBackupHost = (null)\n"
      "MaxArraySize            = 4\n"
      "MaxBatchRequeue         = 5\n";
  CHECK(max_array_size(config) == 4);
  CHECK(max_array_size("MaxJobCount = 10000\n") == std::nullopt);
  CHECK(max_array_size("MaxArraySize = (null)\n") == std::nullopt);
  CHECK(max_array_size("") == std::nullopt);
}
