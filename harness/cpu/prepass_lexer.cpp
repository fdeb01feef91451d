#include "prepass_lexer.hpp"

#include <cctype>
#include <string>

namespace cugrade::cpu {
namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Walks the source once. Why a hand-written scanner and not a regex: a launch can only be found
// reliably when comments, string literals (raw ones included) and header names are known not to
// be code, and when brackets can be matched afterwards on the token stream.
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    // A UTF-8 byte-order mark (editors on Windows write one) is no token: the rewriter drops it.
    if (s_.starts_with(utf8_bom)) i_ = utf8_bom.size();
    while (i_ < s_.size()) step();
    return std::move(tokens_);
  }

 private:
  char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  void push(TokenKind kind, std::size_t begin, int line) {
    tokens_.push_back(Token{kind, begin, i_, line, directive_});
  }

  // Advances over s_[i_], counting lines.
  void advance() {
    if (s_[i_] == '\n') ++line_;
    ++i_;
  }

  void step() {
    char c = s_[i_];
    if (c == '\\' && at(i_ + 1) == '\n') {  // line splice: continues a directive
      i_ += 2;
      ++line_;
      return;
    }
    if (c == '\n') {
      advance();
      line_start_ = true;
      directive_ = 0;
      return;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i_;
      return;
    }
    bool at_start = line_start_;
    line_start_ = false;
    std::size_t begin = i_;
    int line = line_;
    if (c == '#' && at_start && directive_ == 0) return directive();
    if (c == '/' && at(i_ + 1) == '/') return line_comment(begin, line);
    if (c == '/' && at(i_ + 1) == '*') return block_comment(begin, line);
    if (is_ident_start(c)) return identifier(begin, line);
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(at(i_ + 1)))))
      return number(begin, line);
    if (c == '"' || c == '\'') {
      quoted(c);
      return push(TokenKind::literal, begin, line);
    }
    ++i_;
    push(TokenKind::punct, begin, line);
  }

  // `#include <...>` is one opaque token (a header name is not code); any other directive is
  // tokenized with its own directive number so launches inside a #define body are found too.
  void directive() {
    std::size_t begin = i_;
    int line = line_;
    std::size_t k = i_ + 1;
    while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) ++k;
    std::size_t name_begin = k;
    while (k < s_.size() && is_ident_char(s_[k])) ++k;
    std::string_view name = s_.substr(name_begin, k - name_begin);
    if (name == "include" || name == "include_next" || name == "line" || name == "error" ||
        name == "warning") {
      while (i_ < s_.size() && !(s_[i_] == '\n' && s_[i_ - 1] != '\\')) advance();
      directive_ = ++directive_count_;
      push(TokenKind::opaque_directive, begin, line);
      directive_ = 0;
      return;
    }
    directive_ = ++directive_count_;
    ++i_;
    push(TokenKind::punct, begin, line);
  }

  void line_comment(std::size_t begin, int line) {
    while (i_ < s_.size() && !(s_[i_] == '\n' && s_[i_ - 1] != '\\')) advance();
    push(TokenKind::comment, begin, line);
  }

  void block_comment(std::size_t begin, int line) {
    i_ += 2;
    while (i_ < s_.size() && !(s_[i_] == '*' && at(i_ + 1) == '/')) advance();
    i_ = std::min(s_.size(), i_ + 2);
    push(TokenKind::comment, begin, line);
  }

  void identifier(std::size_t begin, int line) {
    while (i_ < s_.size() && is_ident_char(s_[i_])) ++i_;
    std::string_view id = s_.substr(begin, i_ - begin);
    char next = at(i_);
    if (next == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR")) {
      raw_string();
      return push(TokenKind::literal, begin, line);
    }
    if ((next == '"' || next == '\'') && (id == "u8" || id == "u" || id == "U" || id == "L")) {
      quoted(next);
      return push(TokenKind::literal, begin, line);
    }
    push(TokenKind::identifier, begin, line);
  }

  // A pp-number: digits, letters, dots, digit separators and exponent signs.
  void number(std::size_t begin, int line) {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (is_ident_char(c) || c == '.') {
        ++i_;
      } else if (c == '\'' && is_ident_char(at(i_ + 1))) {
        ++i_;
      } else if ((c == '+' || c == '-') &&
                 (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
        ++i_;
      } else {
        break;
      }
    }
    push(TokenKind::number, begin, line);
  }

  // "..." or '...' starting at s_[i_] == quote; stops at an unescaped newline if unterminated.
  void quoted(char quote) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) advance();
      advance();
    }
    if (i_ < s_.size() && s_[i_] == quote) ++i_;
  }

  // R"delim( ... )delim" starting at the opening quote.
  void raw_string() {
    ++i_;
    std::size_t open = s_.find('(', i_);
    if (open == std::string_view::npos) {
      i_ = s_.size();
      return;
    }
    std::string close = ")" + std::string(s_.substr(i_, open - i_)) + "\"";
    std::size_t end = s_.find(close, open);
    std::size_t stop = end == std::string_view::npos ? s_.size() : end + close.size();
    while (i_ < stop) advance();
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int line_ = 1;
  bool line_start_ = true;
  int directive_ = 0;
  int directive_count_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace cugrade::cpu
