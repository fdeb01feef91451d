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

/// Whether the `while` at `k` ends a `do` statement: `do { ... } while` or `do stmt; while`.
bool ends_do(const TokenView& t, std::size_t k) {
  if (k == 0) return false;
  if (t.is(k - 1, "}")) {
    const auto open = opening_brace(t, k - 1);
    return open && *open > 0 && t.is(*open - 1, "do");
  }
  if (!t.is(k - 1, ";")) return false;
  // `do stmt; while`: the statement before starts right after `do`.
  for (std::size_t j = k - 1; j-- > 0;) {
    if (t.is(j, ";") || t.is(j, "{") || t.is(j, "}")) return false;
    if (t.is(j, "do")) return true;
  }
  return false;
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

/// The edits that make the statement from token `first` to its `;` at `last` a block starting
/// with spin_check().
std::vector<Edit> counting_block(const TokenView& t, std::size_t first, std::size_t last) {
  return {Edit{t[first].begin, t[first].begin, std::string("{") + pass_call + " "}, Edit{t[last].end, t[last].end, " }"}};
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
    groups.push_back(counting_block(t, after, *end));
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
      if (ends_do(t, k)) {
        // `do {} while (c);`: the empty body spins as well; a braced body counts its passes, and
        // so does `do stmt; while (c);`, made a block.
        if (t.is(k - 1, ";")) {
          std::size_t j = k - 1;
          while (!t.is(j, "do")) --j;
          if (simple_statement_end(t, j + 1, k) == k - 1) groups.push_back(counting_block(t, j + 1, k - 1));
        } else if (t.is(k - 2, "{")) {
          groups.push_back({Edit{t[k - 1].begin, t[k - 1].begin, yield_call}});
        } else if (const auto open_body = opening_brace(t, k - 1)) {
          groups.push_back({Edit{t[*open_body].end, t[*open_body].end, pass_call}});
        }
        continue;
      }
      const auto paren = t.match_forward(k + 1);
      if (!paren || *paren + 1 >= close) continue;
      count_passes(t, *paren + 1, close, groups);
    }
}

}  // namespace cugrade::cpu
