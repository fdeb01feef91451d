#include "error_state.hpp"

#include <cstdio>
#include <map>
#include <mutex>
#include <string_view>

#include "cugrade_cpu/runtime_api.hpp"

namespace cugrade_cpu {
namespace {

std::mutex mutex;
cudaError_t last = cudaSuccess;
cudaError_t sticky = cudaSuccess;
std::string kernel_name;
bool from_api = false;
const char* api_call = "";  // when from_api: the call that failed ("cudaMemcpy"), a literal
cudaError_t api_error = cudaSuccess;  // and its error
long long threads_most = 0;  // the most threads one launch since forget_kernel had
long launches = 0;           // launches that ran since forget_kernel
// The first sticky error since forget_kernel. Why apart from `sticky`: cudaDeviceReset clears
// that one, and a submission that resets the device after its kernel wrote out of bounds must
// still fail the case (on a GPU compute-sanitizer reports the write whatever comes after it).
cudaError_t first_fault = cudaSuccess;
std::string first_fault_detail;
// Where the student's latest runtime call was made (runtime_api.hpp's call-site macros).
constinit thread_local const char* site_file = nullptr;
constinit thread_local int site_line = 0;
// Why a map of strings that are never erased: cudaGetErrorString returns a const char* that the
// caller may keep, so a description, once handed out, must stay valid.
std::map<cudaError_t, std::string>& details() {
  static auto* table = new std::map<cudaError_t, std::string>();
  return *table;
}

}  // namespace

cudaError_t record_error(cudaError_t error, const std::string& detail) {
  std::lock_guard lock(mutex);
  if (sticky == cudaSuccess) last = error;
  if (sticky == cudaSuccess) from_api = false;
  if (!detail.empty() && sticky == cudaSuccess) details()[error] = detail;
  return error;
}

cudaError_t record_sticky_error(cudaError_t error, const std::string& detail) {
  std::lock_guard lock(mutex);
  if (sticky != cudaSuccess) return sticky;  // the first fault is the one to report
  sticky = error;
  last = error;
  from_api = false;
  details()[error] = detail;
  if (first_fault == cudaSuccess) {
    first_fault = error;
    first_fault_detail = detail;
  }
  std::fprintf(stderr, "cugrade CPU backend: %s\n", detail.c_str());
  return error;
}

void note_api_site(const char* file, int line) noexcept {
  site_file = file;
  site_line = line;
}

cudaError_t record_api_error(cudaError_t error, const char* call, const std::string& why) {
  std::string where;
  if (site_file) {
    std::string_view file = site_file;
    if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
    where = " (" + std::string(file) + ":" + std::to_string(site_line) + ")";
  }
  const std::string detail = std::string(call) + where + " failed with " + cudaGetErrorName(error) + ": " + why;
  record_error(error, detail);
  std::lock_guard lock(mutex);
  if (sticky == cudaSuccess) {
    from_api = true;
    api_call = call;
    api_error = error;
  }
  return error;
}

bool last_error_from_api() {
  std::lock_guard lock(mutex);
  return from_api;
}

std::string failed_api_call(cudaError_t error) {
  std::lock_guard lock(mutex);
  return from_api && api_error == error ? std::string(api_call) : std::string();
}

cudaError_t sticky_error() {
  std::lock_guard lock(mutex);
  return sticky;
}

void clear_errors() {
  std::lock_guard lock(mutex);
  last = sticky = cudaSuccess;
}

void note_kernel(const char* name) {
  std::lock_guard lock(mutex);
  kernel_name = name;
}

std::string last_kernel() {
  std::lock_guard lock(mutex);
  return kernel_name;
}

void forget_kernel() {
  std::lock_guard lock(mutex);
  kernel_name.clear();
  from_api = false;
  threads_most = 0;
  launches = 0;
  first_fault = cudaSuccess;
  first_fault_detail.clear();
}

void note_threads(long long threads) {
  std::lock_guard lock(mutex);
  if (threads > threads_most) threads_most = threads;
  ++launches;
}

std::pair<cudaError_t, std::string> kernel_fault() {
  std::lock_guard lock(mutex);
  return {first_fault, first_fault_detail};
}

long launches_run() {
  std::lock_guard lock(mutex);
  return launches;
}

long long most_threads() {
  std::lock_guard lock(mutex);
  return threads_most;
}

}  // namespace cugrade_cpu

cudaError_t cudaGetLastError() {
  std::lock_guard lock(cugrade_cpu::mutex);
  cudaError_t error = cugrade_cpu::last;
  cugrade_cpu::last = cugrade_cpu::sticky;
  return error;
}

cudaError_t cudaPeekAtLastError() {
  std::lock_guard lock(cugrade_cpu::mutex);
  return cugrade_cpu::last;
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUGRADE_CPU_NAME(e) case e: return #e;
    CUGRADE_CPU_NAME(cudaSuccess) CUGRADE_CPU_NAME(cudaErrorInvalidValue)
    CUGRADE_CPU_NAME(cudaErrorMemoryAllocation) CUGRADE_CPU_NAME(cudaErrorInitializationError)
    CUGRADE_CPU_NAME(cudaErrorInvalidConfiguration) CUGRADE_CPU_NAME(cudaErrorInvalidSymbol)
    CUGRADE_CPU_NAME(cudaErrorInvalidDevicePointer) CUGRADE_CPU_NAME(cudaErrorInvalidMemcpyDirection)
    CUGRADE_CPU_NAME(cudaErrorInvalidDeviceFunction) CUGRADE_CPU_NAME(cudaErrorNoDevice)
    CUGRADE_CPU_NAME(cudaErrorDevicesUnavailable)
    CUGRADE_CPU_NAME(cudaErrorInvalidDevice) CUGRADE_CPU_NAME(cudaErrorInvalidResourceHandle)
    CUGRADE_CPU_NAME(cudaErrorNotReady) CUGRADE_CPU_NAME(cudaErrorIllegalAddress)
    CUGRADE_CPU_NAME(cudaErrorLaunchOutOfResources) CUGRADE_CPU_NAME(cudaErrorLaunchTimeout)
    CUGRADE_CPU_NAME(cudaErrorAssert) CUGRADE_CPU_NAME(cudaErrorMisalignedAddress)
    CUGRADE_CPU_NAME(cudaErrorLaunchFailure)
    CUGRADE_CPU_NAME(cudaErrorNotSupported) CUGRADE_CPU_NAME(cudaErrorUnknown)
#undef CUGRADE_CPU_NAME
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  {
    std::lock_guard lock(cugrade_cpu::mutex);
    auto it = cugrade_cpu::details().find(error);
    if (it != cugrade_cpu::details().end()) return it->second.c_str();
  }
  return cugrade_cpu::plain_error_string(error);
}

const char* cugrade_cpu::plain_error_string(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorDevicesUnavailable: return "CUDA-capable device(s) is/are busy or unavailable";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}
