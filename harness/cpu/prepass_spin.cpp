#include "prepass_spin.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace cugrade::cpu {
namespace {

constexpr const char* yield_call = " ::cugrade_cpu::yield_thread(); ";
constexpr const char* pass_call = " ::cugrade_cpu::spin_check();";

/// The `{` that opens the block `}` at `close` closes (same directive), or nullopt.
std::optional<std::size_t> opening_brace(const TokenView& t, std::size_t close) {
  int depth = 0;
  for (std::size_t k = close + 1; k-- > 0;) {
    if (t.is(k, "}")) ++depth;
    if (t.is(k, "{") && --depth == 0) return k;
  }
  return std::nullopt;
}

/// The `do` whose statement the `while` at `k` ends (`do { ... } while`, `do stmt; while`), or
/// nullopt when that `while` starts a loop of its own.
std::optional<std::size_t> do_before(const TokenView& t, std::size_t k) {
  if (k == 0) return std::nullopt;
  if (t.is(k - 1, "}")) {
    const auto open = opening_brace(t, k - 1);
    if (open && *open > 0 && t.is(*open - 1, "do")) return *open - 1;
    return std::nullopt;
  }
  if (!t.is(k - 1, ";")) return std::nullopt;
  // `do stmt; while`: the statement before starts right after `do`.
  for (std::size_t j = k - 1; j-- > 0;) {
    if (t.is(j, ";") || t.is(j, "{") || t.is(j, "}")) return std::nullopt;
    if (t.is(j, "do")) return j;
  }
  return std::nullopt;
}

/// The `;` that ends the simple statement starting at `first`, before `limit` (an expression or
/// jump statement: no if, loop, switch, block or lambda), or nullopt.
std::optional<std::size_t> simple_statement_end(const TokenView& t, std::size_t first, std::size_t limit) {
  for (const char* word : {"if", "for", "while", "do", "switch", "else", "try", "case", "default", "{", "}", ";"})
    if (t.is(first, word)) return std::nullopt;
  int depth = 0;
  for (std::size_t k = first; k < limit; ++k) {
    if (t.is(k, "(") || t.is(k, "[")) ++depth;
    else if (t.is(k, ")") || t.is(k, "]")) --depth;
    else if (t.is(k, "{") || t.is(k, "}")) return std::nullopt;
    else if (depth == 0 && t.is(k, ";")) return k;
  }
  return std::nullopt;
}

/// The last token of the statement starting at `first`, before `limit`: a simple statement's
/// `;`, a block's `}`, or the end of an if (with its else), a while, a for, a switch or a do
/// around such statements; nullopt for what this does not follow (a lambda, a label, a try).
std::optional<std::size_t> statement_end(const TokenView& t, std::size_t first, std::size_t limit, int depth = 0) {
  if (first >= limit || depth > 32) return std::nullopt;
  if (t.is(first, "{")) {
    const auto close = t.match_forward(first);
    return close && *close < limit ? close : std::nullopt;
  }
  if (t.is(first, "if") || t.is(first, "while") || t.is(first, "for") || t.is(first, "switch")) {
    std::size_t paren = first + 1;
    if (t.is(first, "if") && t.is(paren, "constexpr")) ++paren;
    if (!t.is(paren, "(")) return std::nullopt;
    const auto close = t.match_forward(paren);
    if (!close || *close + 1 >= limit) return std::nullopt;
    const auto end = statement_end(t, *close + 1, limit, depth + 1);
    if (end && t.is(first, "if") && t.is(*end + 1, "else")) return statement_end(t, *end + 2, limit, depth + 1);
    return end;
  }
  if (t.is(first, "do")) {
    const auto body = statement_end(t, first + 1, limit, depth + 1);
    if (!body || !t.is(*body + 1, "while") || !t.is(*body + 2, "(")) return std::nullopt;
    const auto close = t.match_forward(*body + 2);
    return close && *close + 1 < limit && t.is(*close + 1, ";") ? std::optional<std::size_t>(*close + 1)
                                                                 : std::nullopt;
  }
  return simple_statement_end(t, first, limit);
}

/// The edits for a loop body starting at token `after`: an empty one (`;`, `{}`) yields, a block
/// starts with spin_check(), any other statement (a simple one, an if, a loop, a switch) becomes
/// a block that starts with it; one edit group (all or none of it is made).
void count_passes(const TokenView& t, std::size_t after, std::size_t limit, std::vector<std::vector<Edit>>& groups) {
  if (t.is(after, ";")) {
    groups.push_back({Edit{t[after].begin, t[after].end, std::string("{") + yield_call + "}"}});
  } else if (t.is(after, "{") && t.is(after + 1, "}")) {
    groups.push_back({Edit{t[after + 1].begin, t[after + 1].begin, yield_call}});
  } else if (t.is(after, "{")) {
    groups.push_back({Edit{t[after].end, t[after].end, pass_call}});
  } else if (const auto end = statement_end(t, after, limit)) {
    groups.push_back({Edit{t[after].begin, t[after].begin, std::string("{") + pass_call + " "},
                      Edit{t[*end].end, t[*end].end, " }"}});
  }
}

bool is_identifier(std::string_view token) {
  return !token.empty() && (std::isalpha(static_cast<unsigned char>(token.front())) || token.front() == '_');
}

/// Whether the `for (` header opening at `paren` (closing at `close`) may spin: it has no
/// condition (`for (;;)`), or its condition names nothing its first or third clause names
/// (`for (; ready == 0;)`, `for (int i = 0; !done; ++i)`), unlike a counted loop
/// (`for (int i = 0; i < n; ++i)`, `for (s = n / 2; s > 0; s >>= 1)`), which ends by itself.
bool spinning_for(const TokenView& t, std::size_t paren, std::size_t close) {
  int depth = 0;
  std::vector<std::size_t> semicolons;
  for (std::size_t k = paren + 1; k < close; ++k) {
    if (t.is(k, "(") || t.is(k, "[") || t.is(k, "{")) ++depth;
    else if (t.is(k, ")") || t.is(k, "]") || t.is(k, "}")) --depth;
    else if (depth == 0 && t.is(k, ";")) semicolons.push_back(k);
  }
  if (semicolons.size() != 2) return false;  // a range-for, or not a for header this follows
  const std::size_t first = semicolons[0], second = semicolons[1];
  if (second == first + 1) return true;
  std::vector<std::string_view> counted;  // what the first and third clauses name
  for (std::size_t k = paren + 1; k < close; ++k)
    if ((k < first || k > second) && is_identifier(t.text(k))) counted.push_back(t.text(k));
  for (std::size_t k = first + 1; k < second; ++k)
    if (is_identifier(t.text(k)) && std::ranges::find(counted, t.text(k)) != counted.end()) return false;
  return true;
}

}  // namespace

void yield_in_spin_waits(const TokenView& t, const std::vector<TokenRange>& bodies,
                         std::vector<std::vector<Edit>>& groups) {
  for (const auto& [open, close] : bodies)
    for (std::size_t k = open + 1; k < close; ++k) {
      if (t.is(k, "for") && t.is(k + 1, "(")) {
        const auto paren = t.match_forward(k + 1);
        if (paren && *paren + 1 < close && spinning_for(t, k + 1, *paren)) count_passes(t, *paren + 1, close, groups);
        continue;
      }
      if (!t.is(k, "while") || !t.is(k + 1, "(")) continue;
      // `do body while (c);`: its body as a while's is (`do {} while` spins as well).
      if (const auto at = do_before(t, k)) {
        count_passes(t, *at + 1, k, groups);
        continue;
      }
      const auto paren = t.match_forward(k + 1);
      if (!paren || *paren + 1 >= close) continue;
      count_passes(t, *paren + 1, close, groups);
    }
}

}  // namespace cugrade::cpu
