#include "diagnose/counter_cache.hpp"

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "core/cache_file.hpp"
#include "device/ceilings.hpp"

namespace cugrade {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CallCounters, kernels, main_kernel, duration_ns, global_load_sectors,
                                                global_load_requests, global_store_sectors, global_store_requests,
                                                shared_load_wavefronts, shared_load_instructions,
                                                shared_load_conflicts, shared_store_wavefronts,
                                                shared_store_instructions, shared_store_conflicts, shared_loads_at_work,
                                                instructions,
                                                thread_instructions, active_thread_instructions,
                                                branch_uniformity_pct, warps_active_pct, theoretical_occupancy_pct,
                                                dram_throughput_pct, block_size, grid_size, registers_per_thread)

namespace {

using nlohmann::json;

/// The file's format: a version, and the counters by key. 2: shared_loads_at_work added (counters
/// kept by format 1 lack it, so they are measured again).
constexpr int file_format = 2;
/// Entries a file keeps at most: beyond, it starts again from this run's (rebuilt runners leave
/// keys that nothing asks for any more).
constexpr std::size_t most_entries = 512;

/// The entries of a cache file; none when it is missing, unreadable, or not ours.
std::map<std::string, CallCounters> entries_of(const std::filesystem::path& file) {
  std::map<std::string, CallCounters> out;
  const json kept = read_cache_section(file, file_format, "counters");
  for (const auto& [key, value] : kept.items()) {
    try {
      out[key] = value.get<CallCounters>();
    } catch (const json::exception&) {
      // An entry of another shape: left out.
    }
  }
  return out;
}

}  // namespace

CounterCache::CounterCache(std::filesystem::path file) : file_(std::move(file)) {}

void CounterCache::read_file() const {
  if (read_ || file_.empty()) return;
  read_ = true;
  for (auto& [key, counters] : entries_of(file_)) counters_.try_emplace(key, std::move(counters));
}

std::optional<CallCounters> CounterCache::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = counters_.find(key);
  if (it == counters_.end()) {
    read_file();
    it = counters_.find(key);
  }
  if (it == counters_.end()) return std::nullopt;
  return it->second;
}

void CounterCache::store(const std::string& key, const CallCounters& counters) {
  std::lock_guard lock(mutex_);
  counters_[key] = counters;
  if (file_.empty()) return;
  std::map<std::string, CallCounters> kept = entries_of(file_);  // with what others added
  if (kept.size() >= most_entries) kept.clear();
  for (const auto& [k, c] : counters_) kept[k] = c;
  json entries = json::object();
  for (const auto& [k, c] : kept) entries[k] = c;
  write_cache_section(file_, file_format, "counters", entries);
}

std::filesystem::path counter_cache_file(const std::filesystem::path& cache_dir, const std::string& gpu,
                                         const std::string& driver) {
  return cache_dir / ("counters-" + ceilings_file_name(gpu, driver));
}

std::string file_identity(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return "";
  const long long ns = static_cast<long long>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec;
  return std::to_string(info.st_size) + ":" + std::to_string(ns);
}

}  // namespace cugrade
