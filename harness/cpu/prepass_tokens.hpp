#pragma once
// The pre-pass's view of a file: its code tokens (comments removed) and the bracket and text
// helpers that the launch parser and the declaration rewriters share.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "prepass_lexer.hpp"

namespace cugrade::cpu {

/// One replacement of a range [begin, end) of the source by `text`.
struct Edit {
  std::size_t begin = 0, end = 0;
  std::string text;
};

/// A file's code tokens (comments left out), indexed from 0.
class TokenView {
 public:
  /// Tokenizes `source`, which must outlive the view.
  explicit TokenView(std::string_view source);

  /// The source text.
  std::string_view source() const { return s_; }
  /// Number of code tokens.
  std::size_t size() const { return code_.size(); }
  /// Code token k.
  const Token& operator[](std::size_t k) const { return code_[k]; }
  /// The text of code token k ("" past the end).
  std::string_view text(std::size_t k) const { return k < code_.size() ? code_[k].text(s_) : std::string_view(); }
  /// Whether code token k exists and reads `text`.
  bool is(std::size_t k, std::string_view text) const { return k < code_.size() && code_[k].text(s_) == text; }
  /// Whether tokens a and b belong to the same directive (or both to ordinary code).
  bool same_directive(std::size_t a, std::size_t b) const { return code_[a].directive == code_[b].directive; }
  /// Three `c` punctuators (`<<<`, `<< <`, `>>>`, `>> >`) starting at k, with only blanks
  /// between them, within one directive.
  bool is_triple(std::size_t k, char c) const;
  /// Index of the bracket that closes the `(`, `[` or `{` at `open` (same directive), or nullopt.
  std::optional<std::size_t> match_forward(std::size_t open) const;
  /// Source text of [from, to) with comments turned into spaces; newlines kept unless
  /// `in_directive` (a directive's text must stay on its logical line).
  std::string clean(std::size_t from, std::size_t to, bool in_directive) const;

 private:
  std::string_view s_;
  std::vector<Token> all_;
  std::vector<Token> code_;
};

}  // namespace cugrade::cpu
