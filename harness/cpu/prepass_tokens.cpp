#include "prepass_tokens.hpp"

#include <algorithm>

namespace cugrade::cpu {

TokenView::TokenView(std::string_view source) : s_(source), all_(tokenize(source)) {
  for (const Token& t : all_)
    if (t.kind != TokenKind::comment) code_.push_back(t);
}

// Only an unbroken run of three counts, so `a << b` and `k<A<B<int>>>` stay intact where no
// launch is possible.
bool TokenView::is_triple(std::size_t k, char c) const {
  if (k + 2 >= code_.size()) return false;
  std::string_view one(&c, 1);
  return is(k, one) && is(k + 1, one) && is(k + 2, one) && code_[k + 1].begin == code_[k].end &&
         code_[k + 2].begin == code_[k + 1].end && same_directive(k, k + 2);
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
