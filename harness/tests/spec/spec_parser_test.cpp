#include "spec/spec_parser.hpp"

#include <doctest/doctest.h>

#include "spec/scratch_spec.hpp"

using namespace cugrade;
using cugrade::test::minimal_vecadd_spec;
using cugrade::test::ScratchSpec;
using Lines = std::vector<std::string>;

namespace {

// `text` with every "\n" replaced by `ending`.
std::string with_line_endings(std::string_view text, std::string_view ending) {
  std::string out;
  for (const char c : text) out += c == '\n' ? std::string(ending) : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE("spec::parse_spec_file line endings") {
  SUBCASE("CRLF reads like LF") {
    const ScratchSpec file(with_line_endings(minimal_vecadd_spec, "\r\n"));
    const ParsedSpec parsed = parse_spec_file(file.path());
    CHECK(parsed.problems == Lines{});
    CHECK(parsed.spec.title == "Vector addition");
    CHECK(parsed.spec.cases.size() == 1);
  }
  SUBCASE("CR only is refused at the first lone CR, not read as one line or an empty file") {
    const ScratchSpec file(with_line_endings(minimal_vecadd_spec, "\r"));
    CHECK(parse_spec_file(file.path()).problems ==
          Lines{file.path() + ":1:11: the file uses CR-only line endings (a carriage return "
                              "without a line feed); save it with LF (or CRLF) line endings"});
  }
  SUBCASE("a lone CR inside a CRLF file") {
    const ScratchSpec file("id: vecadd\r\ntitle: Vector\raddition\r\n");
    CHECK(parse_spec_file(file.path()).problems ==
          Lines{file.path() + ":2:14: the file uses CR-only line endings (a carriage return "
                              "without a line feed); save it with LF (or CRLF) line endings"});
  }
}

TEST_CASE("spec::parse_spec_file documents") {
  const std::string second =
      ": a second YAML document starts here; a spec is one document (remove this '---' and "
      "what follows, or merge it into the spec)";
  SUBCASE("a second document is refused at its '---' line") {
    const ScratchSpec file(std::string(minimal_vecadd_spec) + "---\nid: other\n");
    CHECK(parse_spec_file(file.path()).problems == Lines{file.path() + ":7:1" + second});
  }
  SUBCASE("also when the first document opens with '---' and the second is on its line") {
    const ScratchSpec file("---\n" + std::string(minimal_vecadd_spec) + "--- {x: 1}\n");
    CHECK(parse_spec_file(file.path()).problems == Lines{file.path() + ":8:1" + second});
  }
  SUBCASE("an opening '---', a trailing one, or one followed only by comments holds nothing") {
    const ScratchSpec opening("---\n" + std::string(minimal_vecadd_spec));
    CHECK(parse_spec_file(opening.path()).problems == Lines{});
    const ScratchSpec trailing(std::string(minimal_vecadd_spec) + "---\n# nothing more\n");
    CHECK(parse_spec_file(trailing.path()).problems == Lines{});
  }
}

TEST_CASE("spec::parse_spec_file limits") {
  auto problems_of = [](const std::string& limits) {
    const ScratchSpec file(std::string(minimal_vecadd_spec) + "limits: " + limits + "\n");
    Lines lines = parse_spec_file(file.path()).problems;
    for (auto& line : lines) line = line.substr(file.path().size());
    return lines;
  };
  SUBCASE("timeouts from 0.1 s up to an hour") {
    CHECK(problems_of("{build_timeout_s: 3600, run_timeout_s: 0.5}") == Lines{});
    CHECK(problems_of("{run_timeout_s: 0.1}") == Lines{});
  }
  SUBCASE("a timeout below 0.1 s, which no case meets, or beyond an hour, is refused") {
    CHECK(problems_of("{build_timeout_s: 3601, run_timeout_s: 0}") ==
          Lines{":7:27: 'build_timeout_s' must be at most 3600, not 3601",
                ":7:48: 'run_timeout_s' must be >= 0.1, not 0"});
    CHECK(problems_of("{run_timeout_s: -5, build_timeout_s: 1e9}") ==
          Lines{":7:25: 'run_timeout_s' must be >= 0.1, not -5",
                ":7:46: 'build_timeout_s' must be at most 3600, not 1e9"});
    CHECK(problems_of("{run_timeout_s: 0.001}") == Lines{":7:25: 'run_timeout_s' must be >= 0.1, not 0.001"});
  }
  SUBCASE("the sanitizer's per-case limit: from 0.1 s, up to an hour") {
    CHECK(problems_of("{sanitizer_timeout_s: 120}") == Lines{});
    CHECK(problems_of("{sanitizer_timeout_s: 0}") == Lines{":7:31: 'sanitizer_timeout_s' must be >= 0.1, not 0"});
  }
  SUBCASE("the runners' GPU memory: a whole number of MiB from 1 to a tebibyte, 4 GiB by default") {
    CHECK(problems_of("{gpu_memory_mb: 8192}") == Lines{});
    CHECK(problems_of("{gpu_memory_mb: 0}") == Lines{":7:25: 'gpu_memory_mb' must be >= 1, not 0"});
    CHECK(problems_of("{gpu_memory_mb: 2000000}") ==
          Lines{":7:25: 'gpu_memory_mb' must be <= 1048576, not 2000000"});
    CHECK(problems_of("{gpu_memory_mb: 1.5}") ==
          Lines{":7:25: 'gpu_memory_mb' must be an integer, not '1.5'"});
  }
  SUBCASE("a quoted number is a string") {
    CHECK(problems_of("{run_timeout_s: \"10\", host_memory_mb: '512'}") ==
          Lines{":7:25: 'run_timeout_s' must be a number, not a string (\"10\"): write it without quotes",
                ":7:47: 'host_memory_mb' must be an integer, not a string (\"512\"): write it without quotes"});
  }
}
