#pragma once
// A block's dynamic shared memory (the third <<<grid, block, bytes>>> parameter) between two
// PROT_NONE pages, its end against the second: an access past its end, or before its start,
// faults at once, as a GPU stops it, instead of landing in the executor's own memory (where a
// launch that forgot the size corrupted the fibers' state: "a bad host pointer", or warp masks
// no kernel passed).
#include <cstddef>
#include <optional>

namespace cugrade_cpu {

/// One worker's dynamic shared memory, mapped again only when a launch asks for another size.
class GuardedShared {
 public:
  GuardedShared() = default;
  GuardedShared(const GuardedShared&) = delete;
  GuardedShared& operator=(const GuardedShared&) = delete;
  ~GuardedShared();

  /// `bytes` usable bytes, 16-byte aligned, every one set to `fill`; the end (rounded up to 16)
  /// touches the trailing guard page. 0 bytes: a pointer at that guard page.
  char* reset(std::size_t bytes, unsigned char fill);

  /// The byte offset of `address` from the start, when it lies in a guard page (an access there
  /// faulted); nullopt elsewhere.
  std::optional<std::ptrdiff_t> guard_offset(const void* address) const;

  /// The usable bytes of the last reset.
  std::size_t bytes() const { return bytes_; }

 private:
  char* map_ = nullptr;        ///< the mapping: guard page, data pages, guard page
  std::size_t map_bytes_ = 0;
  char* data_ = nullptr;       ///< the usable bytes' start
  std::size_t bytes_ = 0;
  std::size_t capacity_ = 0;   ///< bytes_ rounded up to 16
};

}  // namespace cugrade_cpu
