#pragma once
// The pre-pass tokenizer: just enough of C++'s lexical grammar to find launches and
// `extern __shared__` declarations outside comments, literals and #include lines.
#include <cstddef>
#include <string_view>
#include <vector>

namespace cugrade::cpu {

/// What a token is; the pre-pass only needs to tell code apart from text that merely looks
/// like code (comments, literals, header names).
enum class TokenKind { identifier, number, punct, literal, comment, opaque_directive };

/// One token: a range of the source. `directive` is 0 for ordinary code and n > 0 for tokens of
/// the n-th preprocessor directive, so a launch is never matched across a directive's end.
struct Token {
  TokenKind kind = TokenKind::punct;
  std::size_t begin = 0;  ///< offset of the first character
  std::size_t end = 0;    ///< offset one past the last character
  int line = 1;           ///< 1-based line of the first character
  int directive = 0;

  /// The token's text within `source`.
  std::string_view text(std::string_view source) const {
    return source.substr(begin, end - begin);
  }
};

/// The UTF-8 byte-order mark that may open a file (the lexer skips it).
inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

/// Splits `source` into tokens (whitespace dropped). Never fails: an unterminated literal or
/// comment simply runs to the end of the file, and the compiler reports it later.
std::vector<Token> tokenize(std::string_view source);

}  // namespace cugrade::cpu
