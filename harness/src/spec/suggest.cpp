#include "spec/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace cugrade {
namespace {

// Longer names are not looked up (nearest_name).
constexpr std::size_t longest_suggested = 64;

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein plus adjacent swaps ("tilte" is one edit from "title").
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> nearest_name(std::string_view given,
                                        const std::vector<std::string>& candidates) {
  if (given.size() > longest_suggested) return std::nullopt;
  for (const auto& candidate : candidates)
    if (equal_ignoring_case(given, candidate)) return candidate;
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // only names within 2 edits are suggested
  for (const auto& candidate : candidates) {
    // Names whose lengths differ by more than 2 are more than 2 edits apart: skip the table.
    const std::size_t longer = std::max(given.size(), candidate.size());
    if (longer - std::min(given.size(), candidate.size()) >= best_distance) continue;
    const std::size_t distance = edit_distance(given, candidate);
    // A distance as large as the longer name means nothing was kept: not a misspelling.
    if (distance < best_distance && distance < longer) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates) {
  const auto near = nearest_name(given, candidates);
  return near ? "; did you mean '" + *near + "'?" : std::string();
}

std::string join_names(const std::vector<std::string>& names, std::size_t most) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < most; ++i)
    out += (i == 0 ? "" : ", ") + excerpt(names[i]);
  if (names.size() > most) out += ", … (" + std::to_string(names.size() - most) + " more)";
  return out;
}

std::string excerpt(std::string_view text, std::size_t most) {
  if (text.size() <= most) return std::string(text);
  std::size_t end = most;
  // Back up over UTF-8 continuation bytes (10xxxxxx) so that no character is cut in two.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "…";
}

std::string quoted_excerpt(std::string_view text) { return "'" + excerpt(text) + "'"; }

}  // namespace cugrade
