// parse_source_page and line_for_cause (harness/src/diagnose/source_lines.cpp) on ncu's source
// page of the probe's unpadded transpose, captured on an H100 (data/PROVENANCE.md).
#include "diagnose/source_lines.hpp"

#include <doctest/doctest.h>

#include "capture.hpp"

using namespace cugrade;

TEST_CASE("diagnose::parse_source_page") {
  auto lines = parse_source_page(cugrade::test::capture_text("h100_source_transpose_smem.csv"));
  REQUIRE(lines.has_value());
  REQUIRE(lines->size() == 7);  // lines 12 and 14–19 of the kernel; the SASS rows are not lines
  CHECK(lines->front().file == "slow.cu");
  CHECK(lines->front().line == 12);
  const SourceLine& read = (*lines)[5];
  CHECK(read.line == 18);
  CHECK(read.text == "out[y * n + x] = tile[threadIdx.x][threadIdx.y];");
  CHECK(read.excess_shared_wavefronts == 4063232.0);
  CHECK(read.global_requests == 131072.0);
  CHECK(read.stall_samples == 1184.0);
  CHECK((*lines)[2].line == 15);
  CHECK((*lines)[2].excess_shared_wavefronts == 0.0);
  CHECK_FALSE(parse_source_page("==PROF== nothing\n").has_value());
}

TEST_CASE("diagnose::line_for_cause") {
  auto lines = parse_source_page(cugrade::test::capture_text("h100_source_transpose_smem.csv"));
  REQUIRE(lines.has_value());
  const SourceLine* conflicts = line_for_cause(*lines, "bank_conflicts");
  REQUIRE(conflicts != nullptr);
  CHECK(conflicts->line == 18);  // the column read of the tile
  // No line of this kernel has uncoalesced global accesses: none is named.
  CHECK(line_for_cause(*lines, "uncoalesced_stores") == nullptr);
  // The hottest line for the others: the most stall samples.
  CHECK(line_for_cause(*lines, "instructions")->line == 18);
  CHECK(line_for_cause(*lines, "no_reuse")->line == 15);  // the first of two lines with 131,072 requests
}
