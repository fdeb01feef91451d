#pragma once
// The real H100 and H200 captures of data/ (PROVENANCE.md), read once for the diagnose tests.
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "diagnose/counters.hpp"
#include "diagnose/ncu_csv.hpp"

namespace cugrade::test {

/// The text of data/<name>.
inline std::string capture_text(const std::string& name) {
  std::ifstream in(std::string(CUGRADE_TEST_DATA) + "/../diagnose/data/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing capture " << name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The counters of the probe's kernel `name` ("transpose_smem") in `capture` (h100_probe_nvtx.csv:
/// probe_slow.cu's kernels; h200_probe_causes.csv: probe_causes.cu's).
inline CallCounters probe_counters(const std::string& name, const std::string& capture = "h100_probe_nvtx.csv") {
  auto kernels = parse_ncu_csv(capture_text(capture));
  REQUIRE(kernels.has_value());
  for (const KernelProfile& k : *kernels)
    if (short_kernel_name(k.kernel) == name) return summarize_call({k});
  FAIL("no kernel " << name << " in the capture");
  return {};
}

}  // namespace cugrade::test
