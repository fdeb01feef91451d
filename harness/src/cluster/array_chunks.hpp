#pragma once
// A class's shards as Slurm job arrays. MaxArraySize caps an array's largest index (not how
// many tasks it has: at the default 1001, `--array=1001-2000` is refused), so shards past it go
// into further arrays whose indices start again at 0, each task adding its array's base.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cugrade {

/// One job array: its tasks grade shards base + index.
struct ArrayChunk {
  std::size_t base = 1;                ///< the shard of index 0
  std::vector<std::size_t> indices;    ///< ascending, each < MaxArraySize

  /// sbatch's --array value: "0-3,5%4" (ranges of consecutive indices; `throttle` 0: no %).
  std::string array_spec(std::size_t throttle) const;
};

/// The arrays that grade `shards` (1-based, ascending, distinct) with every index below
/// `max_array_size` (≥ 1): shards 1..M in the first, M+1..2M in the next, ...; an array only
/// where some shard of its range is asked for.
std::vector<ArrayChunk> array_chunks(const std::vector<std::size_t>& shards, std::size_t max_array_size);

/// MaxArraySize from `scontrol show config`'s output ("MaxArraySize = 1001"); nullopt when the
/// line is absent or unreadable.
std::optional<std::size_t> max_array_size(const std::string& scontrol_config);

/// Slurm's own default MaxArraySize, for a cluster whose configuration does not say.
inline constexpr std::size_t default_max_array_size = 1001;

}  // namespace cugrade
