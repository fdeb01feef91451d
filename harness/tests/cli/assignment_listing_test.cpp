#include "cli/assignment_listing.hpp"

#include <doctest/doctest.h>

#include <set>
#include <sstream>

using namespace cugrade;

namespace {

/// The course's own assignments.
Locations course() {
  Locations where;
  where.root = CUGRADE_SOURCE_ROOT;
  return where;
}

}  // namespace

TEST_CASE("cli::assignment_listing") {
  SUBCASE("every assignment, in id order") {
    auto listing = assignment_listing(course(), {});
    REQUIRE(listing.has_value());
    for (const char* title : {"matmul       Matrix multiplication\n", "nbody        N-body simulation\n",
                              "vecadd       Vector addition\n"})
      CHECK(listing->find(title) != std::string::npos);
    CHECK(listing->find("matmul") < listing->find("vecadd"));
  }
  SUBCASE("only those named, in the order named, with the steps in columns as wide as the longest") {
    auto listing = assignment_listing(course(), {"nbody", "vecadd"});
    REQUIRE(listing.has_value());
    CHECK(listing->starts_with("nbody "));
    CHECK(listing->find("matmul") == std::string::npos);
    CHECK(listing->find("\nvecadd ") != std::string::npos);
    // nbody's step names are up to 15 characters and its entry points up to 21: each column
    // starts at the same place on every line.
    std::istringstream lines(*listing);
    std::string line;
    std::set<std::size_t> entry_columns;
    while (std::getline(lines, line) && !line.starts_with("vecadd"))
      if (line.starts_with("    ") && line.find("nbody_") != std::string::npos) entry_columns.insert(line.find("nbody_"));
    CHECK(entry_columns == std::set<std::size_t>{4 + 15 + 2});
    CHECK(listing->find("    accel_global     nbody_accel_global()     ") != std::string::npos);
  }
  SUBCASE("an id that is not an assignment: the nearest one") {
    auto listing = assignment_listing(course(), {"vecadd", "matmull"});
    REQUIRE_FALSE(listing.has_value());
    CHECK(listing.error().message.find("matmull") != std::string::npos);
    CHECK(listing.error().message.find("did you mean 'matmul'?") != std::string::npos);
  }
}
