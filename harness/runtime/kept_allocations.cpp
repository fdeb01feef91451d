#include "kept_allocations.hpp"

#include <algorithm>

namespace cugrade::runner {

void* KeptAllocations::take(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  // The newest first: the block the last call freed is the one this call most likely wants.
  for (auto it = kept_.rbegin(); it != kept_.rend(); ++it)
    if (it->second == bytes) {
      void* pointer = it->first;
      kept_.erase(std::next(it).base());
      held_[pointer] = bytes;
      return pointer;
    }
  return nullptr;
}

void KeptAllocations::note_made(void* pointer, std::size_t bytes) {
  if (pointer && bytes > 0) held_[pointer] = bytes;
}

KeptAllocations::Free KeptAllocations::on_free(void* pointer, bool in_call, std::size_t& bytes) {
  if (std::any_of(kept_.begin(), kept_.end(), [&](const auto& block) { return block.first == pointer; }))
    return Free::double_free;
  const auto it = held_.find(pointer);
  if (it == held_.end()) return Free::real;
  bytes = it->second;
  held_.erase(it);
  return in_call ? Free::keep : Free::real;
}

void KeptAllocations::keep(void* pointer, std::size_t bytes) {
  kept_.emplace_back(pointer, bytes);
  while (kept_.size() > most_kept_) {
    evicted_.push_back(kept_.front().first);
    kept_.erase(kept_.begin());
  }
}

std::vector<void*> KeptAllocations::release_all() {
  std::vector<void*> blocks;
  for (const auto& block : kept_) blocks.push_back(block.first);
  kept_.clear();
  return blocks;
}

}  // namespace cugrade::runner
