#include "memory_ledger.hpp"

#include <cstdio>
#include <cstdlib>

namespace cugrade::runner {

bool MemoryLedger::admit(std::string_view call, std::uint64_t bytes) {
  if (limit_ == 0 || (bytes <= limit_ && held_ <= limit_ - bytes)) return true;
  if (refusal_.empty())
    refusal_ = std::string(call) + " asked for " + show_memory(bytes) + " of GPU memory while your code held " +
               show_memory(held_) + "; a runner may hold at most " + show_memory(limit_) +
               " (the assignment's limits.gpu_memory_mb), so it failed with cudaErrorMemoryAllocation";
  return false;
}

void MemoryLedger::note_made(const void* pointer, std::uint64_t bytes) {
  if (!pointer || bytes == 0) return;
  auto [it, fresh] = live_.try_emplace(pointer, bytes);
  if (!fresh) {  // the runtime gave an address the ledger thought live: the old entry is stale
    held_ -= it->second;
    it->second = bytes;
  }
  held_ += bytes;
}

void MemoryLedger::note_freed(const void* pointer) {
  const auto it = live_.find(pointer);
  if (it == live_.end()) return;
  held_ -= it->second;
  freed_.push_back({pointer, it->second, false});
  if (freed_.size() > 256) freed_.pop_front();
  live_.erase(it);
}

std::optional<MemoryLedger::Holder> MemoryLedger::holder_of(const void* pointer) const {
  const auto inside = [pointer](const void* start, std::uint64_t bytes) {
    const auto p = reinterpret_cast<std::uintptr_t>(pointer), s = reinterpret_cast<std::uintptr_t>(start);
    return p >= s && p - s < bytes;
  };
  for (const auto& [start, bytes] : live_)
    if (inside(start, bytes)) return Holder{start, bytes, true};
  for (auto it = freed_.rbegin(); it != freed_.rend(); ++it)
    if (inside(it->start, it->bytes)) return *it;
  return std::nullopt;
}

bool MemoryLedger::reserve(std::string_view call, const std::string& name, std::uint64_t bytes) {
  std::uint64_t& now = reserved_[name];
  if (bytes > now && !admit(call, bytes - now)) return false;
  held_ = held_ - now + bytes;
  now = bytes;
  return true;
}

std::string MemoryLedger::take_refusal() {
  std::string taken;
  taken.swap(refusal_);
  return taken;
}

std::string show_memory(std::uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::uint64_t memory_limit_from(const char* mebibytes) {
  if (!mebibytes || !*mebibytes) return 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(mebibytes, &end, 10);
  if (*end != '\0' || *mebibytes == '-' || value == 0 || value > (std::uint64_t{1} << 40)) return 0;
  return static_cast<std::uint64_t>(value) << 20;
}

}  // namespace cugrade::runner
