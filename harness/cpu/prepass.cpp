#include "prepass.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "prepass_lexer.hpp"

namespace cugrade::cpu {
namespace {

/// One replacement of a range of the source.
struct Edit {
  std::size_t begin = 0, end = 0;
  std::string text;
};

std::string quote_path(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Rewrites one file. Works on the code tokens (comments removed) so that a comment between
// `>>>` and `(` or inside the arguments changes nothing.
class Rewriter {
 public:
  Rewriter(std::string_view source, const std::string& file)
      : s_(source), file_(file), all_(tokenize(source)) {
    for (const Token& t : all_)
      if (t.kind != TokenKind::comment) code_.push_back(t);
  }

  Result<std::string> run() {
    std::vector<bool> scope_stack;  // true: a namespace-like brace ({ of namespace / extern "C")
    for (std::size_t k = 0; k < code_.size(); ++k) {
      const Token& t = code_[k];
      if (t.directive == 0 && is(k, "{")) scope_stack.push_back(opens_namespace(k));
      if (t.directive == 0 && is(k, "}") && !scope_stack.empty()) scope_stack.pop_back();
      if (is(k, "__noinline__")) {  // no shim macro can serve: see cugrade_cpu/qualifiers.hpp
        edits_.push_back(Edit{t.begin, t.end, "__attribute__((noinline))"});
        continue;
      }
      if (is_triple(k, '<')) {
        auto next = launch(k);
        if (!next) return std::unexpected(next.error());
        k = *next;
        continue;
      }
      if (is(k, "extern") && k + 1 < code_.size() && is(k + 1, "__shared__") &&
          code_[k + 1].directive == t.directive) {
        bool file_scope = std::all_of(scope_stack.begin(), scope_stack.end(), [](bool b) { return b; });
        auto next = extern_shared(k, file_scope && t.directive == 0);
        if (!next) return std::unexpected(next.error());
        k = *next;
      }
    }
    return assemble();
  }

 private:
  bool is(std::size_t k, std::string_view text) const {
    return k < code_.size() && code_[k].text(s_) == text;
  }
  bool same_directive(std::size_t a, std::size_t b) const {
    return code_[a].directive == code_[b].directive;
  }
  // Three adjacent `<` (or `>`) punctuators: `a << b` and `k<A<B<int>>>` stay intact because
  // only an unbroken run of three counts, and only where a launch is possible.
  bool is_triple(std::size_t k, char c) const {
    if (k + 2 >= code_.size()) return false;
    std::string_view one(&c, 1);
    return is(k, one) && is(k + 1, one) && is(k + 2, one) && code_[k + 1].begin == code_[k].end &&
           code_[k + 2].begin == code_[k + 1].end && same_directive(k, k + 2);
  }
  std::string where(std::size_t k) const {
    return file_ + ":" + std::to_string(code_[k].line) + ": ";
  }

  bool opens_namespace(std::size_t k) const {
    if (k == 0) return false;
    std::size_t j = k - 1;
    if (code_[j].kind == TokenKind::literal && j > 0 && is(j - 1, "extern")) return true;
    while (j > 0 && (code_[j].kind == TokenKind::identifier || is(j, ":"))) {
      if (is(j, "namespace")) return true;
      --j;
    }
    return is(j, "namespace");
  }

  // Index of the bracket that closes the one at `open` (same directive), or nullopt.
  std::optional<std::size_t> match_forward(std::size_t open) const {
    int depth = 0;
    for (std::size_t k = open; k < code_.size() && same_directive(k, open); ++k) {
      std::string_view t = code_[k].text(s_);
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") {
        if (--depth == 0) return k;
      }
    }
    return std::nullopt;
  }

  // First token of the kernel expression that ends just before `<<<` at k:
  // `name`, `ns::name`, `name<T, (N > 1)>`, `(expression)`.
  std::optional<std::size_t> kernel_start(std::size_t k) const {
    if (k == 0) return std::nullopt;
    std::size_t j = k - 1;
    if (is(j, ")") || is(j, ">")) {
      bool angle = is(j, ">");
      int parens = 0, angles = 0;  // `>` inside parentheses is a comparison, not a bracket
      for (;; --j) {
        std::string_view t = code_[j].text(s_);
        if (t == ")" || t == "]") ++parens;
        if (t == "(" || t == "[") --parens;
        if (angle && parens == 0 && t == ">") ++angles;
        if (angle && parens == 0 && t == "<") --angles;
        if (parens == 0 && angles == 0) break;
        if (j == 0 || !same_directive(j - 1, k)) return std::nullopt;
      }
      if (!angle) return j;
      if (j == 0) return std::nullopt;
      --j;
    }
    if (code_[j].kind != TokenKind::identifier) return std::nullopt;
    // Qualified names: walk back over `::` and the names before them.
    while (j >= 2 && is(j - 1, ":") && is(j - 2, ":") && same_directive(j - 2, k)) {
      if (j >= 3 && (code_[j - 3].kind == TokenKind::identifier) && !is(j - 3, "return"))
        j -= 3;
      else
        return j - 2;  // a leading `::`
    }
    return j;
  }

  // Source text of [from, to) with comments turned into spaces (newlines kept outside directives).
  std::string clean(std::size_t from, std::size_t to, bool in_directive) const {
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

  // Rewrites the launch whose `<<<` is at k; returns the index of its closing `)`.
  Result<std::size_t> launch(std::size_t k) {
    auto start = kernel_start(k);
    if (!start)
      return fail(where(k) + "cannot tell which kernel this launch (<<<) calls; write "
                  "`kernel<<<grid, block>>>(arguments)`.");
    std::optional<std::size_t> close;
    int depth = 0;
    for (std::size_t j = k + 3; j < code_.size() && same_directive(j, k); ++j) {
      std::string_view t = code_[j].text(s_);
      if (t == "(" || t == "[" || t == "{") ++depth;
      if (t == ")" || t == "]" || t == "}") --depth;
      if (depth < 0 || (depth == 0 && t == ";")) break;
      if (depth == 0 && is_triple(j, '>')) {
        close = j;
        break;
      }
    }
    if (!close) return fail(where(k) + "this launch's <<< has no matching >>>.");
    std::size_t open = *close + 3;
    if (!is(open, "(") || !same_directive(open, k))
      return fail(where(k) + "a kernel launch needs its arguments in parentheses after >>>.");
    auto paren = match_forward(open);
    if (!paren) return fail(where(k) + "the arguments of this kernel launch have no closing ).");

    bool in_dir = code_[k].directive != 0;
    std::string kernel = clean(code_[*start].begin, code_[k - 1].end, in_dir);
    std::string config = clean(code_[k + 2].end, code_[*close].begin, in_dir);
    std::string args = clean(code_[open].end, code_[*paren].begin, in_dir);
    std::string text = "::cugrade_cpu::launch(::cugrade_cpu::launch_config(" + config + "), " +
                       kernel_name(kernel) + ", [&](auto&&... cugrade_a) { " + kernel +
                       "(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }";
    if (args.find_first_not_of(" \t\r\n\\") != std::string::npos) text += ", " + args;
    text += ")";
    std::size_t begin = code_[*start].begin, end = code_[*paren].end;
    auto newlines = [](std::string_view v) { return std::count(v.begin(), v.end(), '\n'); };
    for (auto missing = newlines(s_.substr(begin, end - begin)) - newlines(text); missing > 0; --missing)
      text += in_dir ? "\\\n" : "\n";
    edits_.push_back(Edit{begin, end, std::move(text)});
    return *paren;
  }

  // The kernel expression as a C string literal, whitespace collapsed (for messages).
  static std::string kernel_name(const std::string& kernel) {
    std::string out = "\"";
    bool space = false;
    for (char c : kernel) {
      if (c == '\\' && out.size() == 1) continue;
      if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
        space = out.size() > 1;
        continue;
      }
      if (space) out += ' ';
      space = false;
      if (c == '"') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  // Rewrites `extern __shared__ [__align__(n)] T name[];` at k; returns the index of its `;`.
  // Why a pointer in a function and a macro at file scope: a file-scope variable would be
  // initialised once, but each block has its own dynamic shared memory, so every use has to
  // ask the executor for the current block's buffer.
  Result<std::size_t> extern_shared(std::size_t k, bool file_scope) {
    std::size_t j = k + 2;
    std::string type;
    std::optional<std::size_t> name;
    for (; j < code_.size() && same_directive(j, k) && !is(j, ";"); ++j) {
      if (is(j, "__align__") || is(j, "alignas")) {
        auto close = match_forward(j + 1);
        if (!close) break;
        j = *close;
        continue;
      }
      if (code_[j].kind == TokenKind::identifier && is(j + 1, "[")) {
        name = j;
        break;
      }
      if (!type.empty()) type += ' ';
      type += code_[j].text(s_);
    }
    if (!name || type.empty() || !is(*name + 1, "[") || !is(*name + 2, "]") || !is(*name + 3, ";"))
      return fail(where(k) + "unsupported extern __shared__ declaration; the CPU backend accepts "
                  "`extern __shared__ T name[];`.");
    std::string id(code_[*name].text(s_));
    std::string access = "::cugrade_cpu::dynamic_shared<" + type + ">()";
    std::size_t end = code_[*name + 3].end;
    std::string text;
    if (file_scope)
      text = "\n#define " + id + " (" + access + ")\n#line " + std::to_string(code_[*name + 3].line) +
             " " + quote_path(file_) + "\n";
    else
      text = type + "* " + id + " = " + access + ";";
    edits_.push_back(Edit{code_[k].begin, end, std::move(text)});
    return *name + 3;
  }

  std::string assemble() const {
    std::string out = "#line 1 " + quote_path(file_) + "\n";
    std::size_t pos = 0;
    for (const Edit& e : edits_) {
      out.append(s_.substr(pos, e.begin - pos));
      out += e.text;
      pos = e.end;
    }
    out.append(s_.substr(pos));
    return out;
  }

  std::string_view s_;
  std::string file_;
  std::vector<Token> all_;
  std::vector<Token> code_;
  std::vector<Edit> edits_;
};

}  // namespace

Result<std::string> cuda_to_cpp(std::string_view source, const std::string& file_name) {
  return Rewriter(source, file_name).run();
}

}  // namespace cugrade::cpu
