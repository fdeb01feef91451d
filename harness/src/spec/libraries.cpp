// The table of libraries an assignment may allow.
#include "spec/libraries.hpp"

#include <cctype>

namespace cugrade {

const std::vector<OptionalLibrary>& optional_libraries() {
  static const std::vector<OptionalLibrary> libraries = {
      {"cublas", "cuBLAS", {"cublas", "cublasLt"}, {"cublas"}},
      {"cufft", "cuFFT", {"cufft"}, {"cufft"}},
      {"curand", "cuRAND (host API)", {"curand"}, {"curand"}},
      {"cusparse", "cuSPARSE", {"cusparse"}, {"cusparse"}},
      {"cusolver", "cuSOLVER", {"cusolver"}, {"cusolver"}},
      {"cudnn", "cuDNN", {"cudnn"}, {"cudnn"}},
      {"nvrtc", "NVRTC (run-time compilation)", {"nvrtc"}, {"nvrtc"}},
      {"cuda_driver", "the CUDA driver API", {"cuda"}, {"cu"}},
  };
  return libraries;
}

const OptionalLibrary* find_optional_library(std::string_view name) {
  for (const auto& library : optional_libraries())
    if (library.name == name) return &library;
  return nullptr;
}

bool in_library_api(const OptionalLibrary& library, std::string_view symbol) {
  for (std::string_view prefix : library.prefixes) {
    if (symbol.size() > prefix.size() && symbol.starts_with(prefix) &&
        std::isupper(static_cast<unsigned char>(symbol[prefix.size()])))
      return true;
  }
  return false;
}

}  // namespace cugrade
