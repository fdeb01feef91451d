#include "batch/pseudonym.hpp"

#include <algorithm>

#include "core/sha256.hpp"

namespace cugrade {

namespace {
/// Keeps this hash apart from every other use of the secret (hidden seeds, the settings' tag).
constexpr std::string_view kLabel = "cugrade/leaderboard/";
constexpr std::size_t kDigits = 8;
}  // namespace

std::string pseudonym(const CourseSecret& secret, std::string_view student, std::size_t hex_digits) {
  const std::string hex = to_hex(hmac_sha256(secret.bytes(), std::string(kLabel) + std::string(student)));
  return "anon-" + hex.substr(0, std::clamp<std::size_t>(hex_digits, 1, hex.size()));
}

std::map<std::string, std::string> class_pseudonyms(const CourseSecret& secret, const std::vector<std::string>& students) {
  std::map<std::string, std::string> names;
  for (const std::string& student : students) names[student] = pseudonym(secret, student, kDigits);
  // 32 bits make a shared name unlikely (about 1 in 34,000 for a class of 500), not impossible.
  for (std::size_t digits = kDigits + 4; digits <= 64; digits += 4) {
    std::map<std::string, std::vector<std::string>> holders;
    for (const auto& [student, name] : names) holders[name].push_back(student);
    bool shared = false;
    for (const auto& [name, who] : holders)
      if (who.size() > 1) {
        shared = true;
        for (const std::string& student : who) names[student] = pseudonym(secret, student, digits);
      }
    if (!shared) break;
  }
  return names;
}

}  // namespace cugrade
