#pragma once
// Nsight Compute's CSV (`ncu --csv --metrics ...`, the details page) read into one record per
// profiled kernel. The columns are found by their headings ("ID", "Kernel Name", "Metric Name",
// "Metric Unit", "Metric Value"), since `--nvtx` adds columns of its own; lines that are not
// rows of the table (ncu's "==PROF==" lines, anything a program printed) are passed over.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// One profiled kernel launch and the metrics ncu read for it.
struct KernelProfile {
  std::string id;                          ///< ncu's "ID" of the launch ("0", "1", ...)
  std::string kernel;                      ///< as ncu names it: "mtran(const float *, float *, int, int)"
  std::map<std::string, double> metrics;   ///< by metric name; times in ns, whatever unit ncu printed
};

/// The fields of one CSV line (quoted fields, "" inside quotes for a quote).
std::vector<std::string> csv_fields(std::string_view line);

/// A metric's value as a number: thousands separators dropped ("4,194,304"), times scaled to ns
/// by `unit` ("us", "usecond", "ms", "msecond", "s", "second"); false for "n/a", "nan", "inf" and
/// other text.
bool metric_number(const std::string& value, const std::string& unit, double& out);

/// Every kernel in ncu's CSV output, in the order ncu listed them. Fails when the text holds
/// no table at all (no header row with the columns above).
Result<std::vector<KernelProfile>> parse_ncu_csv(std::string_view text);

/// "mtran" for "mtran(const float *, float *, int, int)", "reduce7<128u>" for
/// "void reduce7<128u>(const int *, int *, unsigned int)": the kernel's name without its
/// parameters or return type.
std::string short_kernel_name(const std::string& kernel);

}  // namespace cugrade
