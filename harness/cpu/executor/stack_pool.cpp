#include "stack_pool.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <utility>

namespace cugrade_cpu {
namespace {

std::mutex guards_mutex;
// Guard pages of every stack ever mapped: [begin, end) pairs, read when a fault is classified.
std::vector<std::pair<const char*, const char*>>& guards() {
  static auto* list = new std::vector<std::pair<const char*, const char*>>();
  return *list;
}

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

StackPool::~StackPool() {
  // Stacks still held by abandoned fibers (an aborted block) are simply not unmapped.
  for (void* base : mapped_) munmap(base, bytes_ + page_size());
}

boost::context::stack_context StackPool::take() {
  if (!free_.empty()) {
    auto stack = free_.back();
    free_.pop_back();
    return stack;
  }
  std::size_t page = page_size();
  void* base = mmap(nullptr, bytes_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  mprotect(base, page, PROT_NONE);
  mapped_.push_back(base);
  {
    std::lock_guard lock(guards_mutex);
    guards().emplace_back(static_cast<const char*>(base), static_cast<const char*>(base) + page);
  }
  boost::context::stack_context stack;
  stack.size = bytes_;
  stack.sp = static_cast<char*>(base) + page + bytes_;
  return stack;
}

bool is_stack_guard(const void* address) {
  auto* a = static_cast<const char*>(address);
  std::lock_guard lock(guards_mutex);
  return std::any_of(guards().begin(), guards().end(),
                     [&](const auto& g) { return a >= g.first && a < g.second; });
}

}  // namespace cugrade_cpu
