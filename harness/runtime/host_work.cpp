#include "host_work.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>

namespace cugrade::runner {
namespace {

using Range = std::pair<std::uintptr_t, std::uintptr_t>;  // [begin, end)

struct Watched {
  WatchedOutput output;
  std::vector<unsigned char> expected;  ///< host outputs: what the copies from the device left
};

std::mutex mutex;  ///< guards everything below
bool watching = false;
Memory watched_memory = Memory::device;
std::vector<Watched> outputs;
std::vector<Range> host_filled;  ///< device memory that received bytes from host memory in this call
std::string first_sign;          ///< the first sign a copy gave

Range range_of(const void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  return {begin, begin + bytes};
}

bool overlaps(const Range& a, const Range& b) { return a.first < b.second && b.first < a.second; }

bool host_filled_overlaps(const Range& r) {
  return std::any_of(host_filled.begin(), host_filled.end(), [&](const Range& f) { return overlaps(f, r); });
}

void note_sign(std::string sign) {
  if (first_sign.empty()) first_sign = std::move(sign);
}

}  // namespace

void watch_outputs(Memory memory, const std::vector<WatchedOutput>& watched) {
  std::lock_guard lock(mutex);
  watching = true;
  watched_memory = memory;
  outputs.clear();
  host_filled.clear();
  first_sign.clear();
  for (const auto& output : watched) {
    Watched w{output, {}};
    // A host output's contents as the call gets them; every copy from the device updates them.
    if (memory == Memory::host && output.pointer)
      w.expected.assign(static_cast<unsigned char*>(output.pointer),
                        static_cast<unsigned char*>(output.pointer) + output.bytes);
    outputs.push_back(std::move(w));
  }
}

void note_copy(void* dst, const void* src, std::size_t bytes, bool dst_on_device, bool src_on_device) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex);
  if (!watching) return;
  const Range to = range_of(dst, bytes), from = range_of(src, bytes);
  const bool from_host = !src_on_device || host_filled_overlaps(from);
  if (dst_on_device && from_host) {
    host_filled.push_back(to);
    if (watched_memory == Memory::device)
      for (const auto& w : outputs)
        if (overlaps(to, range_of(w.output.pointer, w.output.bytes)))
          note_sign("your output `" + w.output.name + "` was copied from " +
                    (src_on_device ? std::string("device memory that host code had filled") : std::string("host memory")) +
                    " during the call (cudaMemcpy): its values must be computed by a kernel");
  }
  if (dst_on_device || watched_memory != Memory::host) return;
  for (auto& w : outputs) {
    const Range out = range_of(w.output.pointer, w.output.bytes);
    if (!overlaps(to, out)) continue;
    if (from_host) {
      note_sign("your output `" + w.output.name + "` was copied back from " +
                (src_on_device ? std::string("device memory that host code had filled (a copy from the host), not "
                                             "from memory a kernel wrote")
                               : std::string("host memory, not from the device")));
      continue;  // its bytes stay unexpected: a copy of host memory is host code's write
    }
    const std::uintptr_t begin = std::max(to.first, out.first), end = std::min(to.second, out.second);
    std::memcpy(w.expected.data() + (begin - out.first), reinterpret_cast<const void*>(begin), end - begin);
  }
}

bool watching_copies() {
  std::lock_guard lock(mutex);
  return watching;
}

std::string host_work_evidence(long launches) {
  std::lock_guard lock(mutex);
  watching = false;
  if (launches == 0)
    return "computed without a kernel: the call launched none, so its result is not the GPU's work";
  if (!first_sign.empty()) return "computed without a kernel: " + first_sign;
  for (const auto& w : outputs) {
    if (w.expected.empty()) continue;
    const auto* now = static_cast<const unsigned char*>(w.output.pointer);
    const auto diff = std::mismatch(w.expected.begin(), w.expected.end(), now).first;
    if (diff == w.expected.end()) continue;
    const std::size_t element = static_cast<std::size_t>(diff - w.expected.begin()) / std::max<std::size_t>(1, w.output.element_bytes);
    return "computed without a kernel: your output `" + w.output.name + "` was written by host code (element " +
           std::to_string(element) + " first), not copied back from the device with cudaMemcpy: a result must "
           "come from memory a kernel wrote";
  }
  return {};
}

}  // namespace cugrade::runner

extern "C" void cugrade_runner_note_copy(void* dst, const void* src, std::size_t bytes, int dst_on_device,
                                         int src_on_device) {
  cugrade::runner::note_copy(dst, src, bytes, dst_on_device != 0, src_on_device != 0);
}
