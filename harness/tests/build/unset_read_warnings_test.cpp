#include "build/unset_read_warnings.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {

Diagnostic warning(std::string file, int line, std::string message) {
  return Diagnostic{std::move(file), line, 9, "warning", std::move(message)};
}

}  // namespace

TEST_CASE("unset_read_warnings::unset_reads_in") {
  std::vector<Diagnostic> diagnostics = {
      // g++ 12 in a UTF-8 locale, g++ in the C locale, older g++, nvcc's front end
      warning("matmul.cu", 12, "\u2018Pvalue\u2019 may be used uninitialized [-Wmaybe-uninitialized]"),
      warning("matmul.cu", 20, "'acc' is used uninitialized"),
      warning("reduce.cu", 7, "'sum' may be used uninitialized in this function"),
      warning("vecadd.cu", 3, "variable \"n\" is used before its value is set"),
      warning("vecadd.cu", 4, "unused variable 'k'"),                        // another warning
      Diagnostic{"vecadd.cu", 5, 1, "error", "'x' is used uninitialized"},  // not a warning
      warning("vecadd.cu", 0, "'y' is used uninitialized"),                  // no line to show
  };
  const auto reads = unset_reads_in(diagnostics);
  REQUIRE(reads.size() == 4);
  CHECK(unset_variable(reads[0]) == "Pvalue");
  CHECK(unset_variable(reads[1]) == "acc");
  CHECK(unset_variable(reads[2]) == "sum");
  CHECK(unset_variable(reads[3]) == "n");
  CHECK(unset_variable(warning("a.cu", 1, "unused variable 'k'")).empty());

  // Taken out of the build's warnings, the others left in order.
  CHECK(take_unset_reads(diagnostics) == reads);
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].message == "unused variable 'k'");
  CHECK(diagnostics[1].severity == "error");
  CHECK(diagnostics[2].line == 0);
}
