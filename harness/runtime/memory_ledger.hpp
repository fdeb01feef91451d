#pragma once
// What a runner holds of the GPU's memory, against the assignment's limits.gpu_memory_mb (the
// bookkeeping only; allocation_wraps.cpp routes every allocating CUDA call through it).
// Why: several runners share one GPU (a batch's lanes, the self-test's entries, a check's own
// timing and sanitizer runners). A submission that takes all of the GPU's memory, by a bug or on
// purpose, made the other runners' allocations, even their CUDA contexts, fail; a GPU grants no
// process a share of its own. With the ledger, its allocation past the limit fails in its own
// process, as on a smaller GPU, and the report says so.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cugrade::runner {

/// The environment variable holding the limit in MiB (the harness sets it for a check's runners);
/// unset, empty or not a positive number: no limit.
inline constexpr const char* gpu_memory_limit_variable = "CUGRADE_GPU_MEMORY_LIMIT_MB";

/// Bytes held by live allocations and reservations, and the first allocation refused; not
/// thread-safe (the wraps lock).
class MemoryLedger {
 public:
  /// `limit_bytes` 0: every allocation admitted.
  explicit MemoryLedger(std::uint64_t limit_bytes = 0) : limit_(limit_bytes) {}

  /// Whether `bytes` more fit under the limit; when not, the refusal of `call` is noted (refusal()).
  bool admit(std::string_view call, std::uint64_t bytes);

  /// Notes a live allocation of `bytes` at `pointer` (a null pointer or 0 bytes: nothing).
  void note_made(const void* pointer, std::uint64_t bytes);

  /// Notes that `pointer` was freed; a pointer the ledger does not hold changes nothing.
  void note_freed(const void* pointer);

  /// Sets what reservation `name` (the device heap, the printf buffer, the threads' stacks) holds,
  /// in place of what it held before, when the difference fits (else the refusal is noted and
  /// false returned).
  bool reserve(std::string_view call, const std::string& name, std::uint64_t bytes);

  /// What reservation `name` holds now (0 when never set).
  std::uint64_t reserved(const std::string& name) const {
    const auto it = reserved_.find(name);
    return it == reserved_.end() ? 0 : it->second;
  }

  /// Bytes held now.
  std::uint64_t held() const { return held_; }

  /// An allocation that holds an address: its start, its size, and whether it is still live.
  struct Holder {
    const void* start = nullptr;
    std::uint64_t bytes = 0;
    bool live = false;
  };

  /// The live allocation holding `pointer`, else the latest of the last freed ones (up to 256)
  /// that held it, else nullopt. For the words of a failed call only: a linear search.
  std::optional<Holder> holder_of(const void* pointer) const;

  /// The first refusal since the last call, in words for the student ("" when none), forgotten.
  std::string take_refusal();

 private:
  std::uint64_t limit_;
  std::uint64_t held_ = 0;
  std::unordered_map<const void*, std::uint64_t> live_;
  std::deque<Holder> freed_;  ///< the last freed allocations, the latest last
  std::map<std::string, std::uint64_t> reserved_;
  std::string refusal_;
};

/// `bytes` for a person: "512 B", "3.0 MiB", "131.4 GiB".
std::string show_memory(std::uint64_t bytes);

/// The limit in bytes that `mebibytes` (the variable's text) gives: 0 for null, empty, or not a
/// positive integer.
std::uint64_t memory_limit_from(const char* mebibytes);

}  // namespace cugrade::runner
