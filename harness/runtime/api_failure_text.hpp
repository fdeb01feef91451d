#pragma once
// The words for a runtime call that failed by itself (a cudaMemcpy whose pointers do not match
// its direction, a copy longer than its allocation, a copy after cudaFree, a pointer freed twice),
// the same on both backends: the CPU executor (harness/cpu/executor/memory.cpp) and the GPU
// runner's wraps (api_failures.hpp) say why with these, from what each knows of the pointers.
// Header-only and free of CUDA's headers: the CPU executor includes only the runtime's headers.
#include <cstdint>
#include <string>
#include <string_view>

namespace cugrade::runner {

/// What is known of one pointer a call was given.
struct PointerFacts {
  bool null = false;       ///< a null pointer
  bool device = false;     ///< live device (or managed) memory, as the runtime says
  bool freed = false;      ///< inside an allocation the code already released with cudaFree
  bool known = false;      ///< inside a live allocation whose size is known (`room`)
  std::uint64_t room = 0;  ///< when known: the allocation's bytes from the pointer to its end
};

/// cudaMemcpyKind's values, as cuda_runtime_api.h numbers them.
enum CopyKind : int { host_to_host = 0, host_to_device = 1, device_to_host = 2, device_to_device = 3, copy_default = 4 };

/// "cudaMemcpyHostToDevice" for `kind`; "" for a value that is not a cudaMemcpyKind.
inline std::string_view copy_kind_name(int kind) {
  switch (kind) {
    case host_to_host: return "cudaMemcpyHostToHost";
    case host_to_device: return "cudaMemcpyHostToDevice";
    case device_to_host: return "cudaMemcpyDeviceToHost";
    case device_to_device: return "cudaMemcpyDeviceToDevice";
    case copy_default: return "cudaMemcpyDefault";
  }
  return "";
}

/// Why a device-side pointer `what` ("destination", "the pointer") is not usable for `bytes`
/// bytes; "" when nothing known is wrong with it.
inline std::string device_end_reason(std::string_view what, const PointerFacts& p, std::uint64_t bytes,
                                     std::string_view count_verb) {
  const std::string name(what);
  if (p.freed) return "the " + name + " was already released by cudaFree (a use after cudaFree)";
  if (!p.device) return "";
  if (p.known && p.room < bytes)
    return "the " + name + " has fewer than the " + std::to_string(bytes) + " bytes " + std::string(count_verb) +
           " (" + std::to_string(p.room) + " from there to its end; the count is in bytes: n * sizeof(element))";
  return "";
}

/// Why cudaMemcpy(dst, src, bytes, kind) failed, from what is known of its pointers; "" when
/// nothing known explains it.
inline std::string copy_failure_reason(int kind, const PointerFacts& dst, const PointerFacts& src, std::uint64_t bytes) {
  if (copy_kind_name(kind).empty()) return "the direction is not a cudaMemcpyKind";
  if (dst.null || src.null) return std::string("the ") + (dst.null ? "destination" : "source") + " is a null pointer";
  const bool device_dst = kind == host_to_device || kind == device_to_device;
  const bool device_src = kind == device_to_host || kind == device_to_device;
  for (int end = 0; end < 2; ++end) {
    const PointerFacts& p = end == 0 ? dst : src;
    const std::string what = end == 0 ? "destination" : "source";
    if (kind == copy_default) {
      if (std::string why = device_end_reason(what, p, bytes, "copied"); !why.empty()) return why;
      continue;
    }
    const bool on_device = end == 0 ? device_dst : device_src;
    if (on_device) {
      if (std::string why = device_end_reason(what, p, bytes, "copied"); !why.empty()) return why;
      if (!p.device)
        return "the direction is " + std::string(copy_kind_name(kind)) + ", but the " + what +
               " is not memory from cudaMalloc (are the pointers or the direction swapped?)";
    } else if (p.device || p.freed) {
      if (p.freed) return device_end_reason(what, p, bytes, "copied");
      return "the direction is " + std::string(copy_kind_name(kind)) + ", but the " + what +
             " is device memory (are the pointers or the direction swapped?)";
    }
  }
  return "";
}

/// Why cudaMemset(pointer, value, bytes) failed; "" when nothing known explains it.
inline std::string set_failure_reason(const PointerFacts& p, std::uint64_t bytes) {
  if (p.null) return "the pointer is a null pointer";
  if (std::string why = device_end_reason("memory", p, bytes, "set"); !why.empty()) return why;
  if (!p.device) return "the pointer is not memory from cudaMalloc";
  return "";
}

/// Why cudaFree(pointer) failed; "" when nothing known explains it.
inline std::string free_failure_reason(const PointerFacts& p) {
  if (p.freed) return "the pointer was already released by cudaFree (freed twice)";
  if (!p.device) return "the pointer is not memory from cudaMalloc";
  if (p.known) return "the pointer is inside an allocation, not at its start";
  return "";
}

/// "vecadd.cu:25": `file` by its name only (a build names it by its path); "" when `file` is
/// null or empty.
inline std::string site_text(const char* file, int line) {
  if (!file || !*file) return "";
  std::string_view name = file;
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return std::string(name) + ":" + std::to_string(line);
}

/// "cudaMemcpy (vecadd.cu:25) failed with cudaErrorInvalidValue: <why>": `file` by its name only,
/// without the site when `file` is null or empty, without ": <why>" when `why` is empty (then
/// CUDA's own words, `plain`, follow the error's name).
inline std::string api_failure_sentence(std::string_view call, const char* file, int line, std::string_view error_name,
                                        std::string_view plain, std::string_view why) {
  std::string text(call);
  if (const std::string site = site_text(file, line); !site.empty()) text += " (" + site + ")";
  text += " failed with " + std::string(error_name) + ": ";
  text += why.empty() ? plain : why;
  return text;
}

}  // namespace cugrade::runner
