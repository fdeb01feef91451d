// GateFile (harness/src/run/gate_file.cpp): a start gate's file, made by open() or at the latest
// when the GateFile ends, so that no runner is left waiting at it.
#include "run/gate_file.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <utility>

using namespace cugrade;
namespace fs = std::filesystem;

TEST_CASE("run::GateFile") {
  const fs::path dir = fs::temp_directory_path() / ("cugrade-gate-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const fs::path file = dir / "gate" / "open";

  SUBCASE("closed until open(), its folder made; opening twice is harmless") {
    GateFile gate(file);
    CHECK(gate.file() == file);
    CHECK(fs::is_directory(file.parent_path()));
    CHECK_FALSE(fs::exists(file));
    gate.open();
    CHECK(fs::exists(file));
    gate.open();
    CHECK(fs::exists(file));
  }
  SUBCASE("a gate left behind (an error, an exception) opens when it ends") {
    { GateFile gate(file); }
    CHECK(fs::exists(file));
  }
  SUBCASE("a stale file from an earlier run does not open a new gate") {
    fs::create_directories(file.parent_path());
    std::ofstream{file};
    GateFile gate(file);
    CHECK_FALSE(fs::exists(file));
  }
  SUBCASE("moved: the new owner opens it, the old one does nothing") {
    GateFile moved;
    {
      GateFile gate(file);
      moved = std::move(gate);
    }
    CHECK_FALSE(fs::exists(file));
    moved.open();
    CHECK(fs::exists(file));
  }
  SUBCASE("no gate: nothing happens") {
    GateFile none;
    none.open();
    CHECK(none.file().empty());
  }
  fs::remove_all(dir);
}
