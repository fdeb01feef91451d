#include "prepass_rmw.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace cugrade::cpu {
namespace {

constexpr std::array<std::string_view, 92> keywords = {
    "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long",
    "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__", "__forceinline__",
    "__noinline__"};

constexpr std::array<std::string_view, 9> type_keywords = {"bool", "char", "short", "int", "long", "float",
                                                           "double", "unsigned", "signed"};

constexpr std::array<std::string_view, 8> compound_operators = {"+=", "-=", "*=", "/=", "%=", "^=", "<<=", ">>="};

// The punctuators the scan needs to tell apart, longest first (C++'s maximal munch).
constexpr std::array<std::string_view, 26> punctuators = {
    "<<=", ">>=", "->*", "...", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "->", "::", "==",
    "!=", "<=", ">=", "&&", "||", "<<", ">>", ".*", "##"};

bool among(std::string_view text, const auto& list) { return std::ranges::find(list, text) != list.end(); }

class Scanner {
 public:
  Scanner(const TokenView& tokens, const std::vector<TokenRange>& bodies) : t_(tokens), op_(tokens.size(), 0) {
    inside_.assign(tokens.size(), false);
    for (const auto& [open, close] : bodies)
      for (std::size_t k = open + 1; k < close && k < tokens.size(); ++k) inside_[k] = true;
    munch();
    collect_arrays();
    collect_bit_fields();
  }

  void run(std::vector<Edit>& edits) {
    for (std::size_t k = 0; k < t_.size(); ++k) {
      if (!inside_[k] || op_[k] == 0) continue;
      const std::string_view op = op_text(k);
      std::optional<std::pair<std::size_t, std::size_t>> lvalue;
      if (among(op, compound_operators)) {
        if (k > 0) lvalue = assigned(k - 1);
      } else if (op == "++" || op == "--") {
        lvalue = ends_operand(k - 1) ? postfix_operand(k - 1) : prefix_operand(k + 2);
      }
      if (!lvalue || !worth_watching(lvalue->first, lvalue->second)) continue;
      edits.push_back(Edit{t_[lvalue->first].begin, t_[lvalue->first].begin, " ::cugrade_cpu::rmw("});
      edits.push_back(Edit{t_[lvalue->second].end, t_[lvalue->second].end, ")"});
    }
  }

 private:
  bool code(std::size_t k) const { return k < t_.size() && t_[k].directive == 0; }
  bool adjacent(std::size_t k) const { return code(k + 1) && t_[k].end == t_[k + 1].begin; }

  // op_[k]: how many tokens the punctuator starting at code token k spans (0: k continues one).
  void munch() {
    for (std::size_t k = 0; k < t_.size();) {
      std::size_t length = 1;
      if (code(k) && t_[k].kind == TokenKind::punct) {
        for (std::string_view p : punctuators) {
          bool match = true;
          for (std::size_t i = 0; i < p.size() && match; ++i)
            match = code(k + i) && t_.text(k + i) == p.substr(i, 1) && (i == 0 || adjacent(k + i - 1));
          if (match) {
            length = p.size();
            break;
          }
        }
      }
      op_[k] = static_cast<unsigned char>(length);
      k += length;
    }
  }

  std::string_view op_text(std::size_t k) const {
    return t_.source().substr(t_[k].begin, t_[k + op_[k] - 1].end - t_[k].begin);
  }
  // Whether the punctuator `text` ends at token k (so `->` is told from `a - >`).
  bool op_ends_at(std::size_t k, std::string_view text) const {
    if (k + 1 < text.size()) return false;
    const std::size_t first = k + 1 - text.size();
    return code(first) && op_[first] == text.size() && op_text(first) == text;
  }

  bool is_name(std::size_t k) const {
    return code(k) && t_[k].kind == TokenKind::identifier && !among(t_.text(k), keywords);
  }

  // `if (...)`, `while (...)`, `for (...)`, `switch (...)`: the `(` at `open` opens a statement's condition.
  bool control_paren(std::size_t open) const {
    if (open == 0) return false;
    const std::string_view before = t_.text(open - 1);
    return before == "if" || before == "while" || before == "for" || before == "switch" || before == "catch" ||
           (before == "constexpr" && open >= 2 && t_.is(open - 2, "if"));
  }

  std::optional<std::size_t> match_backward(std::size_t close) const {
    int depth = 0;
    for (std::size_t k = close + 1; k-- > 0 && code(k);) {
      const std::string_view s = t_.text(k);
      if (s == ")" || s == "]" || s == "}") ++depth;
      if ((s == "(" || s == "[" || s == "{") && --depth == 0) return k;
    }
    return std::nullopt;
  }

  // Whether code token k can end an operand (so a `++` after it is postfix, a `*` after it binary).
  bool ends_operand(std::size_t k) const {
    if (!code(k)) return false;
    if (t_.is(k, ")")) {
      const auto open = match_backward(k);
      return open && !control_paren(*open);
    }
    if (t_.is(k, "]")) return true;
    if (t_[k].kind == TokenKind::number || t_[k].kind == TokenKind::literal) return true;
    return is_name(k) || t_.is(k, "this") || t_.is(k, "true") || t_.is(k, "false");
  }

  // A postfix-expression ending at code token `last` (`a`, `a.b[i]`, `p->x`, `f(i)`, `(*p)`,
  // `ns::a[i]`, `reinterpret_cast<float*>(p)[i]`): its first token.
  std::optional<std::size_t> postfix_start(std::size_t last) const {
    std::size_t j = last;
    for (;;) {
      if (!code(j)) return std::nullopt;
      if (t_.is(j, "]") || t_.is(j, ")")) {
        const auto open = match_backward(j);
        if (!open || *open == 0) return open;
        const std::size_t before = *open - 1;
        if (t_.is(j, ")") && control_paren(*open)) return std::nullopt;
        if (ends_operand(before)) {  // a subscript or a call of what comes before
          j = before;
          continue;
        }
        if (t_.is(j, ")") && t_.is(before, ">") && op_[before] == 1) {  // static_cast<T*>(p)
          const auto name = template_name(before);
          if (!name) return std::nullopt;
          j = *name;
          continue;
        }
        if (t_.is(j, "]")) return std::nullopt;  // a lambda's or an attribute's brackets
        return *open;                             // a parenthesised expression
      }
      if (!is_name(j) && !t_.is(j, "this") && !t_.is(j, "static_cast") && !t_.is(j, "reinterpret_cast") &&
          !t_.is(j, "const_cast"))
        return std::nullopt;
      if (j >= 2 && (op_ends_at(j - 1, "->") || (t_.is(j - 1, ".") && op_[j - 1] == 1))) {
        j -= op_ends_at(j - 1, "->") ? 3 : 2;
        continue;
      }
      if (j >= 2 && op_ends_at(j - 1, "::")) {
        if (is_name(j - 3)) {
          j -= 3;
          continue;
        }
        return (j - 3 < t_.size() && t_.is(j - 3, ">")) ? std::nullopt : std::optional<std::size_t>(j - 2);
      }
      return j;
    }
  }

  // The name before the template arguments whose `>` is code token `close` (`static_cast` in
  // `static_cast<float*>`), when they hold no brackets of other kinds.
  std::optional<std::size_t> template_name(std::size_t close) const {
    int depth = 0;
    for (std::size_t k = close + 1; k-- > 0 && code(k);) {
      const std::string_view s = t_.text(k);
      if (s == ">") ++depth;
      if (s == "<" && --depth == 0) {
        if (k == 0) return std::nullopt;
        const std::string_view name = t_.text(k - 1);
        if (is_name(k - 1) || name == "static_cast" || name == "reinterpret_cast" || name == "const_cast")
          return k - 1;
        return std::nullopt;
      }
      if (s == ";" || s == "{" || s == "}" || s == "(" || s == ")" || s == "[" || s == "]") return std::nullopt;
    }
    return std::nullopt;
  }

  // The lvalue assigned by the compound operator after code token `last`: a unary-expression
  // (`*p`, `**pp`, `a[i]`) that a statement, a parenthesis, a comma, `=`, `?`, `:` or `return`
  // comes before. Anything else before it (`(float*)p`, `x + a[i]`) is not read.
  std::optional<std::pair<std::size_t, std::size_t>> assigned(std::size_t last) const {
    auto start = postfix_start(last);
    if (!start) return std::nullopt;
    while (*start > 0 && t_.is(*start - 1, "*") && op_[*start - 1] == 1) {
      if (*start >= 2 && ends_operand(*start - 2)) return std::nullopt;  // `a * b[i] += ...`
      --*start;
    }
    if (*start == 0 || !code(*start - 1)) return std::pair{*start, last};
    const std::size_t before = *start - 1;
    const std::string_view b = t_.text(before);
    const bool boundary = b == ";" || b == "{" || b == "}" || b == "," || b == "(" || b == "[" || b == "?" ||
                          b == ":" || b == "=" || b == "return" || b == "else" || b == "do" ||
                          (b == ")" && match_backward(before) && control_paren(*match_backward(before)));
    if (!boundary) return std::nullopt;
    if (b == ":" && op_ends_at(before, "::")) return std::nullopt;
    return std::pair{*start, last};
  }

  // The operand of a postfix `++`/`--` after code token `last`.
  std::optional<std::pair<std::size_t, std::size_t>> postfix_operand(std::size_t last) const {
    const auto start = postfix_start(last);
    if (!start) return std::nullopt;
    return std::pair{*start, last};
  }

  // The operand of a prefix `++`/`--` starting at code token `first`: `*`s, then a name or a
  // parenthesised expression, then subscripts, calls and member accesses.
  std::optional<std::pair<std::size_t, std::size_t>> prefix_operand(std::size_t first) const {
    std::size_t j = first;
    while (code(j) && t_.is(j, "*") && op_[j] == 1) ++j;
    if (!code(j)) return std::nullopt;
    if (t_.is(j, "(")) {
      const auto close = t_.match_forward(j);
      if (!close) return std::nullopt;
      j = *close;
    } else if (is_name(j) || t_.is(j, "this")) {
      while (code(j + 3) && op_[j + 1] == 2 && op_text(j + 1) == "::" && is_name(j + 3)) j += 3;
    } else {
      return std::nullopt;
    }
    for (;;) {
      const std::size_t n = j + 1;
      if (!code(n)) break;
      if (t_.is(n, "[") || t_.is(n, "(")) {
        const auto close = t_.match_forward(n);
        if (!close) return std::nullopt;
        j = *close;
      } else if (t_.is(n, ".") && op_[n] == 1 && is_name(n + 1)) {
        j = n + 1;
      } else if (op_[n] == 2 && op_text(n) == "->" && is_name(n + 2)) {
        j = n + 2;
      } else {
        break;
      }
    }
    if (code(j + 1) && (t_.is(j + 1, "<") || (op_[j + 1] == 2 && (op_text(j + 1) == "++" || op_text(j + 1) == "--"))))
      return std::nullopt;  // a template's arguments, or a postfix ++ that binds first
    return std::pair{first, j};
  }

  // Only an lvalue reached through `[]`, `*` or `->` may be global memory; the element of an
  // array declared __shared__ or in a device body is not.
  bool worth_watching(std::size_t first, std::size_t last) const {
    bool indirect = false, through_pointer = false;
    std::optional<std::size_t> root;
    int depth = 0;  // inside brackets: `acc[i * 2]` reaches acc through no pointer
    for (std::size_t k = first; k <= last; ++k) {
      if (t_.is(k, "[")) indirect = true;
      if (t_.is(k, "[") || t_.is(k, "(")) ++depth;
      if (t_.is(k, "]") || t_.is(k, ")")) --depth;
      const bool pointer = (t_.is(k, "*") && op_[k] == 1) || (op_[k] == 2 && op_text(k) == "->");
      if (pointer && (depth == 0 || t_.is(first, "("))) indirect = through_pointer = true;
      if (!root && is_name(k)) root = k;
    }
    if (!indirect) return false;
    // A bit-field (`p->flags` of `unsigned flags : 4;`) has no address for the wrapper to take.
    if (is_name(last) && last >= 2 && (op_ends_at(last - 1, "->") || t_.is(last - 1, ".")) &&
        bit_fields_.contains(std::string(t_.text(last))))
      return false;
    return through_pointer || !root || !arrays_.contains(std::string(t_.text(*root)));
  }

  // Names declared as arrays that never lie in global memory: `__shared__` ones (anywhere in
  // the file) and those a device body declares (`float acc[4];`). A parameter written `float c[]`
  // is a pointer to global memory, and the parameter list is not inside the body.
  void collect_arrays() {
    for (std::size_t k = 0; k < t_.size(); ++k) {
      if (!code(k)) continue;
      if (t_.is(k, "__shared__")) {
        int depth = 0;
        for (std::size_t j = k + 1; code(j); ++j) {
          const std::string_view s = t_.text(j);
          if (depth == 0 && (s == ";" || s == "{" || s == "}" || s == ")")) break;
          if (s == "(" || s == "[") ++depth;
          if (s == ")" || s == "]") --depth;
          if (depth == 0 && is_name(j) && (t_.is(j + 1, "[") || t_.is(j + 1, ";") || t_.is(j + 1, ",") || t_.is(j + 1, "=")))
            arrays_.emplace(t_.text(j));
        }
      }
      if (inside_[k] && is_name(k) && t_.is(k + 1, "[") && k > 0 && code(k - 1) &&
          (is_name(k - 1) || among(t_.text(k - 1), type_keywords)))
        arrays_.emplace(t_.text(k));
    }
  }

  // Names declared as bit-fields anywhere in the file (`unsigned flags : 4;`, `int a : BITS, b : 2;`):
  // a name, a lone colon, a width (a number or a name), then `;` or `,`. A conditional's `b : 4;`
  // reads the same way and only leaves such updates unwatched.
  void collect_bit_fields() {
    for (std::size_t k = 1; k + 2 < t_.size(); ++k)
      if (code(k) && t_.is(k, ":") && op_[k] == 1 && is_name(k - 1) &&
          (t_[k + 1].kind == TokenKind::number || is_name(k + 1)) && (t_.is(k + 2, ";") || t_.is(k + 2, ",")))
        bit_fields_.emplace(t_.text(k - 1));
  }

  const TokenView& t_;
  std::vector<unsigned char> op_;
  std::vector<bool> inside_;
  std::set<std::string> arrays_;
  std::set<std::string> bit_fields_;
};

}  // namespace

void wrap_global_updates(const TokenView& tokens, const std::vector<TokenRange>& bodies, std::vector<Edit>& edits) {
  Scanner(tokens, bodies).run(edits);
}

}  // namespace cugrade::cpu
