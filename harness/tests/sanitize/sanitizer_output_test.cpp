#include "sanitize/sanitizer_output.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace {
using namespace cugrade;

std::string data(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/sanitizer/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::vector<std::string> names{"vecadd.cu"};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The one finding `tool`'s output `text` must give.
SanitizerFinding only_finding(const std::string& text, const std::string& tool) {
  const SanitizerOutput out = parse_sanitizer_output(text, tool, names);
  REQUIRE(out.findings.size() == 1);
  return out.findings[0];
}
}  // namespace

TEST_CASE("memcheck: a write one past the end names the array, the line, the thread and the block") {
  const SanitizerOutput out = parse_sanitizer_output(data("memcheck_oob.txt"), "memcheck", names);
  CHECK(out.ran);
  CHECK(out.problem.empty());
  REQUIRE(out.findings.size() == 1);  // the API error that follows is its consequence, not a finding
  const SanitizerFinding& f = out.findings[0];
  CHECK(f.task == "case-0");
  CHECK(f.kind == "out_of_bounds");
  CHECK(f.kernel == "add_one_past");
  CHECK(f.where == "vecadd.cu:4");
  CHECK(contains(f.message, "out-of-bounds global memory write of 4 bytes in kernel add_one_past"));
  CHECK(contains(f.message, "(thread (232,0,0) of block (3,0,0))"));
  // The line as the CPU backend gives it, for the harness to quote (pipeline/source_quotes.hpp).
  CHECK(contains(f.message, "byte offset 4000 of C (4000 bytes), just past its end; the write is at vecadd.cu:4 — "));
  CHECK(contains(f.message, "compute-sanitizer memcheck"));
  CHECK_FALSE(contains(f.message, "submission_0"));
}

TEST_CASE("memcheck: a read far past an input says how far") {
  const SanitizerFinding f = only_finding(data("memcheck_far.txt"), "memcheck");
  CHECK(f.task == "case-3");
  CHECK(contains(f.message, "global memory read of 4 bytes in kernel read_far"));
  CHECK(contains(f.message, "byte offset 16384 of A (4000 bytes), 12384 bytes past its end"));
}

TEST_CASE("racecheck: errors and warnings are findings of the case they happened in") {
  const SanitizerOutput out = parse_sanitizer_output(data("racecheck_reduction.txt"), "racecheck", names);
  REQUIRE(out.findings.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(out.findings[i].task == (i < 3 ? "case-1" : "case-2"));
    CHECK(out.findings[i].kind == "race");
    CHECK(out.findings[i].kernel == "reduce_no_sync");
  }
  // A warning (lanes of one warp, in practice) says what it most likely is.
  CHECK(contains(out.findings[3].message, "lanes of one warp relying on lockstep"));
  CHECK(contains(out.findings[3].message, "__syncwarp()"));
  const std::string& m = out.findings[0].message;
  CHECK(contains(m, "a race on __shared__ memory in kernel reduce_no_sync: a write at vecadd.cu:8, a read at "
                    "vecadd.cu:8 and a read at vecadd.cu:8"));
  CHECK(contains(m, "(4992 hazards)"));
  CHECK(contains(m, "missing __syncthreads()"));
  const auto by_task = findings_by_task(out.findings);
  REQUIRE(by_task.size() == 2);
  CHECK(contains(by_task.at("case-1"), "(3 reports like it)"));
}

TEST_CASE("initcheck: a read of memory nothing wrote, and the reports left unprinted") {
  const SanitizerOutput out = parse_sanitizer_output(data("initcheck_half.txt"), "initcheck", names);
  REQUIRE(out.findings.size() == 2);
  CHECK(out.findings[0].kind == "uninitialised");
  CHECK(contains(out.findings[0].message, "reads uninitialised global memory: a read of 4 bytes in kernel copy"));
  CHECK(contains(out.findings[0].message, "memory the program allocated itself"));
  CHECK(out.unprinted == 998);
}

TEST_CASE("initcheck: an address inside a case's array is named") {
  const std::string text =
      "========= COMPUTE-SANITIZER\n==cugrade-task== case-9\n==cugrade-buffer== out 0x1000 400\n"
      "========= Uninitialized __global__ memory read of size 4 bytes\n"
      "=========     at acc(float *, int)+0x70 in src/submission_0.cu:8\n"
      "=========     by thread (3,0,0) in block (0,0,0)\n=========     Address 0x100c\n=========\n";
  CHECK(contains(only_finding(text, "initcheck").message, "from byte offset 12 of out (400 bytes)"));
}

TEST_CASE("the sanitizer's own failure is a problem, not a finding; no banner means it never ran") {
  const SanitizerOutput refused = parse_sanitizer_output(data("not_supported.txt"), "memcheck", names);
  CHECK(refused.ran);
  CHECK(refused.findings.empty());
  CHECK(refused.problem == "Error: Device not supported");
  const SanitizerOutput silent = parse_sanitizer_output("plain output of a program\n", "memcheck", names);
  CHECK_FALSE(silent.ran);
  CHECK(silent.findings.empty());
}

TEST_CASE("what the program prints cannot hide a report: lines of its own are skipped, forged banners too") {
  std::string text = data("memcheck_oob.txt");
  text.insert(text.find("========= Invalid"), "========= ERROR SUMMARY: 0 errors\nunfinished line without newline");
  const SanitizerOutput out = parse_sanitizer_output(text, "memcheck", names);
  CHECK(out.findings.size() == 1);
}

TEST_CASE("kernel names: templates and return types") {
  const std::string text =
      "==cugrade-task== t\n========= Invalid __shared__ read of size 4 bytes\n"
      "=========     at void reduce<256u>(const int *, int *, unsigned int)+0x10 in /tmp/x/src/submission_0.cu:30\n"
      "=========     by thread (1,0,0) in block (2,0,0)\n=========     Address 0x404 is out of bounds\n=========\n";
  const SanitizerFinding f = only_finding(text, "memcheck");
  CHECK(f.where == "vecadd.cu:30");
  CHECK(contains(f.kernel, "reduce<256u>"));
  CHECK(contains(f.message, "out-of-bounds __shared__ memory read of 4 bytes"));
}

TEST_CASE("the cases after the print limit was reached are the ones to run again") {
  const std::string report =
      "========= Uninitialized __global__ memory read of size 4 bytes\n"
      "=========     at acc(float *, int)+0x70 in src/submission_0.cu:8\n=========\n";
  std::string text = "========= COMPUTE-SANITIZER\n==cugrade-task== case-0\n==cugrade-task== case-1\n" + report +
                     "==cugrade-task== case-2\n==cugrade-task== case-3\n";
  SanitizerOutput all_printed = parse_sanitizer_output(text, "initcheck", names);
  CHECK(all_printed.tasks == std::vector<std::string>{"case-0", "case-1", "case-2", "case-3"});
  CHECK(tasks_past_print_limit(all_printed).empty());
  text += "========= ERROR SUMMARY: 4000 errors were not printed. Use --print-limit option to adjust\n";
  const SanitizerOutput limited = parse_sanitizer_output(text, "initcheck", names);
  CHECK(tasks_past_print_limit(limited) == std::vector<std::string>{"case-2", "case-3"});
}

TEST_CASE("an address below the nearest allocation but past another array's end is read as past that end") {
  const std::string text =
      "==cugrade-task== t\n==cugrade-buffer== B 0x10000 1000\n==cugrade-buffer== C 0x20000 1000\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at mm(const float *, float *)+0x10 in src/submission_0.cu:14\n"
      "=========     by thread (0,0,0) in block (1,4,0)\n=========     Access to 0x1ffa0 is out of bounds\n"
      "=========     and is 96 bytes before the nearest allocation at 0x20000 of size 1,000 bytes\n=========\n";
  CHECK(contains(only_finding(text, "memcheck").message,
                 "at byte offset 65440 of B (1000 bytes), 64440 bytes past its end"));
}
