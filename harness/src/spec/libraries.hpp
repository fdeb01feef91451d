#pragma once
// The libraries an assignment may let its submissions use (assignment.yaml `allowed_libraries:`,
// docs/assignment-spec.md). Without the key a submission uses none but the C and C++ libraries
// and the CUDA runtime: the build refuses the API of every library below (build/symbol_policy).
#include <string_view>
#include <vector>

namespace cugrade {

/// One library a spec may allow.
struct OptionalLibrary {
  std::string_view name;                   ///< as the spec writes it: "cublas"
  std::string_view what;                   ///< for messages: "cuBLAS"
  std::vector<std::string_view> link;      ///< what the link adds: "cublas", "cublasLt" (-l<name>)
  std::vector<std::string_view> prefixes;  ///< its C API: a name starting with one, then a capital
};

/// Every library a spec may allow, in a fixed order.
const std::vector<OptionalLibrary>& optional_libraries();

/// The library of that name, or nullptr.
const OptionalLibrary* find_optional_library(std::string_view name);

/// Whether `symbol` (a C name) belongs to `library`'s API: one of its prefixes, then a capital
/// letter ("cublasSgemm_v2" for cuBLAS, "cuLaunchKernel" for the driver).
bool in_library_api(const OptionalLibrary& library, std::string_view symbol);

}  // namespace cugrade
