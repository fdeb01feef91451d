#include "api_failures.hpp"

#include <cstring>
#include <mutex>

#include "allocation_wraps.hpp"
#include "launch_tracking.hpp"

namespace cugrade::runner {
namespace {

std::mutex mutex;                    ///< guards everything below
std::optional<ApiFailure> first;     ///< the first failed call since forget_api_failures
std::optional<ApiFailure> pending;   ///< a wrap's failure its hook has not taken yet
std::string seen_at;                 ///< where the code first looked at an error not its own

/// The calls that report earlier errors rather than make their own.
bool reports_errors(const char* call) {
  for (const char* name : {"cudaGetLastError", "cudaPeekAtLastError", "cudaDeviceSynchronize", "cudaStreamSynchronize"})
    if (std::strcmp(call, name) == 0) return true;
  return false;
}

}  // namespace

bool own_call_error(cudaError_t error) {
  switch (error) {
    case cudaErrorInvalidValue:
    case cudaErrorMemoryAllocation:
    case cudaErrorInvalidPitchValue:
    case cudaErrorInvalidSymbol:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
      return true;
    default:
      return false;
  }
}

void forget_api_failures() {
  std::lock_guard lock(mutex);
  first.reset();
  pending.reset();
  seen_at.clear();
}

void note_api_reason(const char* call, cudaError_t error, std::string why) {
  if (!own_call_error(error)) return;
  std::lock_guard lock(mutex);
  pending = ApiFailure{call, "", 0, error, std::move(why)};
}

std::optional<ApiFailure> api_failure_with(cudaError_t error) {
  std::lock_guard lock(mutex);
  const std::optional<ApiFailure>& found = first ? first : pending;
  if (found && found->error == error) return found;
  return std::nullopt;
}

std::optional<FailedCall> failed_call_with(int error) {
  const auto failure = api_failure_with(static_cast<cudaError_t>(error));
  if (!failure) return std::nullopt;
  const auto code = static_cast<cudaError_t>(error);
  return FailedCall{failure->call, api_failure_sentence(failure->call, failure->file.c_str(), failure->line,
                                                        cudaGetErrorName(code), cudaGetErrorString(code), failure->why)};
}

std::string error_seen_at() {
  std::lock_guard lock(mutex);
  return seen_at;
}

PointerFacts pointer_facts(const void* pointer) {
  PointerFacts facts;
  facts.null = pointer == nullptr;
  if (facts.null) return facts;
  cudaPointerAttributes attributes{};
  // A query that fails leaves its own error as the last one: the call being explained failed
  // already, so the case fails all the same; only its words may be plainer.
  if (cudaPointerGetAttributes(&attributes, pointer) == cudaSuccess)
    facts.device = attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  if (const auto holder = allocation_holding(pointer)) {
    facts.freed = !holder->live && !facts.device;
    facts.known = holder->live;
    facts.room = holder->bytes - static_cast<std::uint64_t>(static_cast<const char*>(pointer) -
                                                             static_cast<const char*>(holder->start));
  }
  return facts;
}

}  // namespace cugrade::runner

extern "C" cudaError_t cugrade_api_returned(const char* file, int line, const char* call, cudaError_t result) {
  using namespace cugrade::runner;
  if (result == cudaSuccess || !call) return result;
  std::lock_guard lock(mutex);
  // The code's own cudaGetLastError took the error away: a later error is another one.
  if (std::strcmp(call, "cudaGetLastError") == 0 && first && first->error == result) first.reset();
  if (reports_errors(call)) {
    if (const std::string site = site_text(file, line); seen_at.empty() && !site.empty())
      seen_at = std::string(call) + " at " + site;
    return result;
  }
  if (!own_call_error(result)) return result;
  ApiFailure failure{call, file ? file : "", line, result, ""};
  if (pending && pending->error == result && pending->call == call) failure.why = pending->why;
  pending.reset();
  if (!first) first = std::move(failure);
  return result;
}
