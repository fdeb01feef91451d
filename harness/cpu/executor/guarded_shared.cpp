#include "guarded_shared.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <new>

namespace cugrade_cpu {
namespace {

std::size_t page_size() {
  static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

GuardedShared::~GuardedShared() {
  if (map_) ::munmap(map_, map_bytes_);
}

char* GuardedShared::reset(std::size_t bytes, unsigned char fill) {
  const std::size_t capacity = (bytes + 15) / 16 * 16;
  const std::size_t page = page_size();
  const std::size_t data_pages = (capacity + page - 1) / page;
  if (!map_ || data_pages * page + 2 * page != map_bytes_) {
    if (map_) ::munmap(map_, map_bytes_);
    map_bytes_ = data_pages * page + 2 * page;
    void* map = ::mmap(nullptr, map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
      map_ = nullptr;
      map_bytes_ = 0;
      throw std::bad_alloc();
    }
    map_ = static_cast<char*>(map);
    if (data_pages > 0 && ::mprotect(map_ + page, data_pages * page, PROT_READ | PROT_WRITE) != 0)
      throw std::bad_alloc();
  }
  bytes_ = bytes;
  capacity_ = capacity;
  data_ = map_ + page + data_pages * page - capacity;
  std::memset(data_, fill, capacity);
  return data_;
}

std::optional<std::ptrdiff_t> GuardedShared::guard_offset(const void* address) const {
  const char* at = static_cast<const char*>(address);
  if (!map_ || at < map_ || at >= map_ + map_bytes_) return std::nullopt;
  const char* data_end = data_ + capacity_;
  if (at >= data_ && at < data_end) return std::nullopt;  // inside: no fault of ours
  return at - data_;
}

}  // namespace cugrade_cpu
