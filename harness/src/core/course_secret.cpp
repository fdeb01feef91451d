#include "core/course_secret.hpp"

#include <string.h>

#include "core/sha256.hpp"

namespace cugrade {
namespace {
/// Zeroes the bytes of `text` in a way the compiler may not drop, then empties it.
void wipe(std::string& text) {
  if (!text.empty()) ::explicit_bzero(text.data(), text.size());
  text.clear();
}
}  // namespace

CourseSecret::CourseSecret(std::string bytes) : bytes_(std::move(bytes)) {}

CourseSecret::CourseSecret(CourseSecret&& other) noexcept : bytes_(other.bytes_) { wipe(other.bytes_); }

CourseSecret& CourseSecret::operator=(CourseSecret&& other) noexcept {
  if (this != &other) {
    wipe(bytes_);
    bytes_ = other.bytes_;
    wipe(other.bytes_);
  }
  return *this;
}

CourseSecret::~CourseSecret() { wipe(bytes_); }

std::uint64_t hidden_seed(const CourseSecret& secret, std::string_view label) {
  const Digest256 mac = hmac_sha256(secret.bytes(), label);
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = seed << 8 | mac[static_cast<std::size_t>(i)];
  return seed;
}

}  // namespace cugrade
