#pragma once
// The course secret (design.md §4): the bytes that make hidden cases hidden. It stays a byte
// string inside the harness process: never printed, never put in a child's argv or environment,
// never folded into a number that would give it back. Hidden cases draw their inputs from a seed
// keyed by it through HMAC-SHA256, so knowing seeds (or inputs) tells nothing about it.
#include <cstdint>
#include <string>
#include <string_view>

namespace cugrade {

/// The course secret's bytes. No conversion to text and no stream output, so it is not printed
/// by accident; moving or destroying it wipes the bytes it held.
class CourseSecret {
 public:
  /// Holds `bytes` (any bytes; empty is allowed here and refused where it is read).
  explicit CourseSecret(std::string bytes);
  CourseSecret(const CourseSecret&) = default;
  CourseSecret& operator=(const CourseSecret&) = default;
  /// Takes `other`'s bytes and wipes them there.
  CourseSecret(CourseSecret&& other) noexcept;
  /// Takes `other`'s bytes and wipes them there.
  CourseSecret& operator=(CourseSecret&& other) noexcept;
  /// Wipes the bytes.
  ~CourseSecret();
  /// The secret itself, for the keyed hash only.
  std::string_view bytes() const { return bytes_; }
  /// Same bytes.
  bool operator==(const CourseSecret& other) const = default;

 private:
  std::string bytes_;
};

/// The seed of a hidden case: the first 8 bytes (big-endian) of HMAC-SHA256(secret, label),
/// where label is "<assignment>/<step>/<params>/<seed in the spec>".
std::uint64_t hidden_seed(const CourseSecret& secret, std::string_view label);

}  // namespace cugrade
