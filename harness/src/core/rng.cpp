#include "core/rng.hpp"

namespace cugrade {
namespace {
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Rng::Rng(std::uint64_t seed) {
  for (auto& word : state_) {
    seed = mix64(seed);
    word = seed;
  }
}

std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double Rng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

std::int64_t Rng::integer(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<std::int64_t>(next_u64());  // the full 64-bit range
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;   // reject the biased tail
  std::uint64_t draw;
  do draw = next_u64(); while (draw >= limit);
  return lo + static_cast<std::int64_t>(draw % span);
}

std::uint64_t derive_seed(std::uint64_t base, std::string_view label) {
  std::uint64_t h = mix64(base);
  for (unsigned char c : label) h = mix64(h ^ c);
  return h;
}

}  // namespace cugrade
