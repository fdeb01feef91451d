#include "prepass_tokens.hpp"

#include <algorithm>

namespace cugrade::cpu {

TokenView::TokenView(std::string_view source) : s_(source), all_(tokenize(source)) {
  for (const Token& t : all_)
    if (t.kind != TokenKind::comment) code_.push_back(t);
}

// Three `c` punctuators with nothing but blanks between them: nvcc reads `k << < g, b >> > (x)`
// as a launch, so the pre-pass does too. `a << b` and `k<A<B<int>>>` stay intact (no third
// bracket), and `operator<< <T>(...)` (explicit template arguments of an operator) is no launch.
bool TokenView::is_triple(std::size_t k, char c) const {
  if (k + 2 >= code_.size()) return false;
  std::string_view one(&c, 1);
  if (!is(k, one) || !is(k + 1, one) || !is(k + 2, one) || !same_directive(k, k + 2)) return false;
  const auto blank_between = [&](std::size_t a) {
    for (std::size_t i = code_[a].end; i < code_[a + 1].begin; ++i)
      if (s_[i] != ' ' && s_[i] != '\t') return false;
    return true;
  };
  if (!blank_between(k) || !blank_between(k + 1)) return false;
  const bool spaced = code_[k + 1].begin != code_[k].end || code_[k + 2].begin != code_[k + 1].end;
  return !(spaced && c == '<' && k > 0 && is(k - 1, "operator"));
}

std::optional<std::size_t> TokenView::match_forward(std::size_t open) const {
  int depth = 0;
  for (std::size_t k = open; k < code_.size() && same_directive(k, open); ++k) {
    std::string_view t = text(k);
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") {
      if (--depth == 0) return k;
    }
  }
  return std::nullopt;
}

std::string TokenView::clean(std::size_t from, std::size_t to, bool in_directive) const {
  std::string out;
  std::size_t pos = from;
  for (const Token& t : all_) {
    if (t.kind != TokenKind::comment || t.end <= from || t.begin >= to) continue;
    out.append(s_.substr(pos, t.begin - pos));
    out += ' ';
    if (!in_directive) out.append(std::count(s_.begin() + t.begin, s_.begin() + t.end, '\n'), '\n');
    pos = t.end;
  }
  out.append(s_.substr(pos, to - pos));
  return out;
}

}  // namespace cugrade::cpu
