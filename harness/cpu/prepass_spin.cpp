#include "prepass_spin.hpp"

#include <algorithm>

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

/// The edits for a loop body starting at token `after`: an empty one (`;`, `{}`) yields, a block
/// starts with spin_check(), a simple statement becomes a block that starts with it; one edit
/// group (all or none of it is made).
void count_passes(const TokenView& t, std::size_t after, std::size_t limit, std::vector<std::vector<Edit>>& groups) {
  if (t.is(after, ";")) {
    groups.push_back({Edit{t[after].begin, t[after].end, std::string("{") + yield_call + "}"}});
  } else if (t.is(after, "{") && t.is(after + 1, "}")) {
    groups.push_back({Edit{t[after + 1].begin, t[after + 1].begin, yield_call}});
  } else if (t.is(after, "{")) {
    groups.push_back({Edit{t[after].end, t[after].end, pass_call}});
  } else if (const auto end = simple_statement_end(t, after, limit)) {
    groups.push_back({Edit{t[after].begin, t[after].begin, std::string("{") + pass_call + " "},
                      Edit{t[*end].end, t[*end].end, " }"}});
  }
}

/// Whether the `for (` header opening at `paren` (closing at `close`) has no condition: `for (;;)`.
bool endless_for(const TokenView& t, std::size_t paren, std::size_t close) {
  int depth = 0;
  std::optional<std::size_t> first;
  for (std::size_t k = paren + 1; k < close; ++k) {
    if (t.is(k, "(") || t.is(k, "[") || t.is(k, "{")) ++depth;
    else if (t.is(k, ")") || t.is(k, "]") || t.is(k, "}")) --depth;
    else if (depth == 0 && t.is(k, ";")) {
      if (first) return k == *first + 1;
      first = k;
    }
  }
  return false;
}

}  // namespace

void yield_in_spin_waits(const TokenView& t, const std::vector<TokenRange>& bodies,
                         std::vector<std::vector<Edit>>& groups) {
  for (const auto& [open, close] : bodies)
    for (std::size_t k = open + 1; k < close; ++k) {
      if (t.is(k, "for") && t.is(k + 1, "(")) {
        const auto paren = t.match_forward(k + 1);
        if (paren && *paren + 1 < close && endless_for(t, k + 1, *paren)) count_passes(t, *paren + 1, close, groups);
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
