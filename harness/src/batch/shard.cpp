#include "batch/shard.hpp"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/sha256.hpp"

namespace cugrade {

namespace {

/// A whole number written with digits only; nullopt otherwise.
std::optional<std::size_t> whole_number(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<Shard> parse_shard(const std::string& text) {
  const std::string form = "--shard '" + text + "': give I/N, this process's part I of N (1 ≤ I ≤ N), e.g. --shard 3/8";
  const auto slash = text.find('/');
  if (slash == std::string::npos) return fail(form);
  const auto index = whole_number(std::string_view(text).substr(0, slash));
  const auto count = whole_number(std::string_view(text).substr(slash + 1));
  if (!index || !count || *count == 0 || *index == 0 || *index > *count) return fail(form);
  return Shard{*index, *count};
}

std::string shard_text(const Shard& shard) { return std::to_string(shard.index) + "/" + std::to_string(shard.count); }

std::size_t shard_of(const std::string& student, std::size_t count) {
  if (count <= 1) return 1;
  const std::string hex = sha256_hex(student);
  const std::uint64_t value = std::stoull(hex.substr(0, 16), nullptr, 16);
  return static_cast<std::size_t>(value % count) + 1;
}

}  // namespace cugrade
