#include "host_work.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>

namespace cugrade::runner {
namespace {

using Range = std::pair<std::uintptr_t, std::uintptr_t>;  // [begin, end)

/// Device memory that received bytes from host memory during the call, and those bytes. Why the
/// bytes: a copy from the host is no sign by itself (zeros copied in before a kernel adds into
/// them, an output copied to the device out of symmetry); what is, is a result that still holds
/// exactly what the host sent when it leaves the device.
struct HostFilled {
  Range range;
  std::vector<unsigned char> bytes;
};

struct Watched {
  WatchedOutput output;
  std::vector<unsigned char> expected;  ///< host outputs: what the copies from the device left
};

bool read_plain(void* host, const void* device, std::size_t bytes) {
  std::memcpy(host, device, bytes);
  return true;
}

std::mutex mutex;  ///< guards everything below
DeviceReader reader = read_plain;
bool watching = false;
Memory watched_memory = Memory::device;
std::vector<Watched> outputs;
std::vector<WatchedOutput> inputs;  ///< the call's inputs: reading them back is no kernel's work
std::vector<HostFilled> host_filled;
/// Whether the call copied back device memory holding anything but what the host sent (what a
/// kernel wrote). Why: a result the host finishes from what a kernel computed (a reduction's sum
/// read back, widened and sent on) is the GPU's work as much as one a kernel stores.
bool read_back_gpu_work = false;
std::string first_sign;  ///< the first sign a copy gave

Range range_of(const void* p, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  return {begin, begin + bytes};
}

Range overlap(const Range& a, const Range& b) { return {std::max(a.first, b.first), std::min(a.second, b.second)}; }

bool empty(const Range& r) { return r.first >= r.second; }

/// Whether `now` (the bytes at `at`, `now.size()` of them) is exactly what host code sent to the
/// device there; false where no copy from the host covers all of it.
bool all_from_host(std::uintptr_t at, const std::vector<unsigned char>& now) {
  if (now.empty()) return false;
  const Range wanted{at, at + now.size()};
  std::vector<bool> matched(now.size(), false);
  for (const auto& filled : host_filled) {
    const Range both = overlap(filled.range, wanted);
    if (empty(both)) continue;
    const std::size_t length = both.second - both.first;
    if (std::memcmp(now.data() + (both.first - at), filled.bytes.data() + (both.first - filled.range.first), length) != 0)
      return false;  // a kernel (or a later copy) changed it since
    std::fill(matched.begin() + static_cast<std::ptrdiff_t>(both.first - at),
              matched.begin() + static_cast<std::ptrdiff_t>(both.second - at), true);
  }
  return std::all_of(matched.begin(), matched.end(), [](bool b) { return b; });
}

bool overlaps_host_filled(const Range& r) {
  return std::any_of(host_filled.begin(), host_filled.end(),
                     [&](const HostFilled& f) { return !empty(overlap(f.range, r)); });
}

void note_sign(std::string sign) {
  if (first_sign.empty()) first_sign = std::move(sign);
}

}  // namespace

void set_device_reader(DeviceReader read) {
  std::lock_guard lock(mutex);
  reader = read ? read : read_plain;
}

void watch_outputs(Memory memory, const std::vector<WatchedOutput>& watched,
                   const std::vector<WatchedOutput>& call_inputs) {
  std::lock_guard lock(mutex);
  inputs = call_inputs;
  watching = true;
  watched_memory = memory;
  outputs.clear();
  host_filled.clear();
  read_back_gpu_work = false;
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

bool watching_copies() {
  std::lock_guard lock(mutex);
  return watching;
}

void note_copy(void* dst, const void* src, std::size_t bytes, bool dst_on_device, bool src_on_device) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex);
  if (!watching) return;
  const Range to = range_of(dst, bytes), from = range_of(src, bytes);
  if (dst_on_device && !src_on_device) {  // host to device: remember what was sent
    const auto* p = static_cast<const unsigned char*>(src);
    host_filled.push_back({to, std::vector<unsigned char>(p, p + bytes)});
    return;
  }
  if (dst_on_device) {  // device to device: what the host sent goes along, if still unchanged
    if (!overlaps_host_filled(from)) return;
    std::vector<unsigned char> now(bytes);
    if (!reader(now.data(), dst, bytes)) return;
    std::vector<HostFilled> carried;
    for (const auto& filled : host_filled) {
      const Range both = overlap(filled.range, from);
      if (empty(both)) continue;
      const std::size_t length = both.second - both.first, offset = both.first - from.first;
      if (std::memcmp(now.data() + offset, filled.bytes.data() + (both.first - filled.range.first), length) != 0) continue;
      carried.push_back({{to.first + offset, to.first + offset + length},
                         std::vector<unsigned char>(now.begin() + static_cast<std::ptrdiff_t>(offset),
                                                    now.begin() + static_cast<std::ptrdiff_t>(offset + length))});
    }
    host_filled.insert(host_filled.end(), carried.begin(), carried.end());
    return;
  }
  if (src_on_device) {  // device to host (the copy has completed: its bytes are at dst)
    const auto* p = static_cast<const unsigned char*>(dst);
    const bool of_an_input = std::any_of(inputs.begin(), inputs.end(), [&](const WatchedOutput& in) {
      const Range whole = range_of(in.pointer, in.bytes);
      return overlap(whole, from) == from;
    });
    if (!of_an_input && !all_from_host(from.first, std::vector<unsigned char>(p, p + bytes))) read_back_gpu_work = true;
  }
  if (watched_memory != Memory::host || !src_on_device) return;
  for (auto& w : outputs) {  // device to host: what a host output may now hold
    const Range out = range_of(w.output.pointer, w.output.bytes), both = overlap(to, out);
    if (empty(both)) continue;
    const auto* copied = reinterpret_cast<const unsigned char*>(both.first);
    std::memcpy(w.expected.data() + (both.first - out.first), copied, both.second - both.first);
    const std::vector<unsigned char> now(copied, copied + (both.second - both.first));
    if (all_from_host(from.first + (both.first - to.first), now))
      note_sign("your output `" + w.output.name + "` was copied back from device memory holding exactly what host "
                "code had sent there (cudaMemcpy to the device), unchanged by any kernel");
  }
}

std::string host_work_evidence(long launches) {
  std::lock_guard lock(mutex);
  watching = false;
  const std::string prefix = "computed without a kernel: ";
  if (launches == 0) return prefix + "the call launched none, so its result is not the GPU's work";
  if (!first_sign.empty()) return prefix + first_sign;
  for (const auto& w : outputs) {
    if (watched_memory == Memory::device) {
      // A result sent from the host counts as host work only where the call read back no GPU work.
      if (read_back_gpu_work || !w.output.pointer || !overlaps_host_filled(range_of(w.output.pointer, w.output.bytes))) continue;
      std::vector<unsigned char> now(w.output.bytes);
      if (reader(now.data(), w.output.pointer, now.size()) &&
          all_from_host(reinterpret_cast<std::uintptr_t>(w.output.pointer), now))
        return prefix + "your output `" + w.output.name + "` holds exactly what host code copied into the device "
               "during the call (cudaMemcpy), unchanged by any kernel: its values must be computed by a kernel";
      continue;
    }
    if (w.expected.empty()) continue;
    const auto* now = static_cast<const unsigned char*>(w.output.pointer);
    const auto diff = std::mismatch(w.expected.begin(), w.expected.end(), now).first;
    if (diff == w.expected.end()) continue;
    const std::size_t element = static_cast<std::size_t>(diff - w.expected.begin()) / std::max<std::size_t>(1, w.output.element_bytes);
    return prefix + "your output `" + w.output.name + "` was written by host code (element " + std::to_string(element) +
           " first), not copied back from the device with cudaMemcpy: a result must come from memory a kernel wrote";
  }
  return {};
}

}  // namespace cugrade::runner

extern "C" void cugrade_runner_note_copy(void* dst, const void* src, std::size_t bytes, int dst_on_device,
                                         int src_on_device) {
  cugrade::runner::note_copy(dst, src, bytes, dst_on_device != 0, src_on_device != 0);
}
