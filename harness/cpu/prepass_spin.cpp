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

}  // namespace

void yield_in_spin_waits(const TokenView& t, const std::vector<TokenRange>& bodies, std::vector<Edit>& edits) {
  for (const auto& [open, close] : bodies)
    for (std::size_t k = open + 1; k < close; ++k) {
      if (!t.is(k, "while") || !t.is(k + 1, "(")) continue;
      if (ends_do(t, k)) {
        // `do {} while (c);`: the empty body spins as well; a braced body counts its passes.
        if (!t.is(k - 1, "}")) continue;
        if (t.is(k - 2, "{")) {
          edits.push_back(Edit{t[k - 1].begin, t[k - 1].begin, yield_call});
        } else if (const auto open_body = opening_brace(t, k - 1)) {
          edits.push_back(Edit{t[*open_body].end, t[*open_body].end, pass_call});
        }
        continue;
      }
      const auto paren = t.match_forward(k + 1);
      if (!paren || *paren + 1 >= close) continue;
      const std::size_t after = *paren + 1;
      if (t.is(after, ";"))
        edits.push_back(Edit{t[after].begin, t[after].end, std::string("{") + yield_call + "}"});
      else if (t.is(after, "{") && t.is(after + 1, "}"))
        edits.push_back(Edit{t[after + 1].begin, t[after + 1].begin, yield_call});
      else if (t.is(after, "{"))
        edits.push_back(Edit{t[after].end, t[after].end, pass_call});
    }
}

}  // namespace cugrade::cpu
