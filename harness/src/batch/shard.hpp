#pragma once
// `cugrade grade --shard I/N`: a class split into N parts that separate processes (array tasks of
// a Slurm job, several machines sharing a folder) grade into one output folder. A student's part
// is fixed by a hash of their id alone, so every process agrees without talking to the others,
// and a student stays in the same part when classmates are added or removed.
#include <cstddef>
#include <string>

#include "core/result.hpp"

namespace cugrade {

/// One part of a class: `index` of `count`, counted from 1 ("3/8").
struct Shard {
  std::size_t index = 1;
  std::size_t count = 1;

  bool operator==(const Shard&) const = default;
};

/// "I/N" as given to --shard (1 ≤ I ≤ N); an error that shows the form otherwise.
Result<Shard> parse_shard(const std::string& text);

/// "3/8".
std::string shard_text(const Shard& shard);

/// The part (1..count) a student belongs to: the first 8 bytes of SHA-256 of the id, modulo
/// `count` (not std::hash, which may differ between builds and machines).
std::size_t shard_of(const std::string& student, std::size_t count);

/// Whether `student` is graded by `shard`.
inline bool in_shard(const std::string& student, const Shard& shard) {
  return shard_of(student, shard.count) == shard.index;
}

}  // namespace cugrade
