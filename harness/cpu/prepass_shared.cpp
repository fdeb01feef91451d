#include "prepass_shared.hpp"

#include <functional>
#include <optional>

namespace cugrade::cpu {

std::string quote_path(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool is_extern_shared(const TokenView& tokens, std::size_t k) {
  for (std::size_t j = k + 1; j < tokens.size() && tokens.same_directive(j, k); ++j) {
    if (tokens.is(j, "__shared__")) return true;
    if (tokens[j].kind != TokenKind::identifier && !tokens.is(j, ":")) return false;
  }
  return false;
}

// Why a pointer in a function and a macro at file scope: a file-scope variable would be
// initialised once, but each block has its own dynamic shared memory, so every use has to ask
// the executor for the current block's buffer.
Result<std::size_t> rewrite_extern_shared(const TokenView& tokens, std::size_t k, bool file_scope,
                                          const std::string& file, std::vector<Edit>& edits) {
  std::size_t j = k + 1;
  std::string type;
  std::optional<std::size_t> name;
  for (; j < tokens.size() && tokens.same_directive(j, k) && !tokens.is(j, ";"); ++j) {
    if (tokens.is(j, "__align__") || tokens.is(j, "alignas")) {
      auto close = tokens.match_forward(j + 1);
      if (!close) break;
      j = *close;
      continue;
    }
    if (tokens[j].kind == TokenKind::identifier && tokens.is(j + 1, "[")) {
      name = j;
      break;
    }
    if (tokens.is(j, "__shared__")) continue;  // `extern __shared__ T` or `extern T __shared__`
    if (!type.empty()) type += ' ';
    type += tokens.text(j);
  }
  if (!name || type.empty() || !tokens.is(*name + 1, "[") || !tokens.is(*name + 2, "]") ||
      !tokens.is(*name + 3, ";"))
    return fail(file + ":" + std::to_string(tokens[k].line) +
                ": unsupported extern __shared__ declaration; the CPU backend accepts "
                "`extern __shared__ T name[];`.");
  const std::string id(tokens.text(*name));
  const std::size_t end = tokens[*name + 3].end;
  std::string text;
  if (file_scope)
    text = "\n#define " + id + " (::cugrade_cpu::dynamic_shared<" + type + ">())\n#line " +
           std::to_string(tokens[*name + 3].line) + " " + quote_path(file) + "\n";
  else
    text = type + "* " + id + " = ::cugrade_cpu::declared_dynamic_shared<" + type + ">(\"" + id + "\");";
  edits.push_back(Edit{tokens[k].begin, end, std::move(text)});
  return *name + 3;
}

// The declared names: identifiers outside brackets and template arguments that a declarator
// ends with (`a` in `float a[32], *b;`, `x` in `Pair<int, 2> x;`).
std::size_t annotate_static_shared(const TokenView& tokens, std::size_t k, bool file_scope,
                                   const std::string& file, std::vector<Edit>& edits) {
  std::vector<std::string> names;
  int depth = 0, angles = 0;
  std::size_t j = k + 1;
  for (; j < tokens.size() && tokens.same_directive(j, k); ++j) {
    std::string_view t = tokens.text(j);
    if (depth == 0 && (t == ";" || t == "{" || t == "}" || t == ")")) break;
    if (t == "(" || t == "[") ++depth;
    if (t == "]" || (t == ")" && depth > 0)) --depth;
    if (depth == 0 && t == "<") ++angles;
    if (depth == 0 && t == ">" && angles > 0) --angles;
    if (depth == 0 && angles == 0 && tokens[j].kind == TokenKind::identifier &&
        (tokens.is(j + 1, "[") || tokens.is(j + 1, ",") || tokens.is(j + 1, ";")))
      names.emplace_back(t);
  }
  // Anything but a plain declaration ending in `;` (a parameter, a macro argument) is left alone.
  if (!tokens.is(j, ";") || names.empty() || tokens[k].directive != 0) return k;
  // Why the file in the registration's name: several pre-passed files (and inlined headers) may
  // end up in one translation unit, each with a variable of that name on that line.
  const std::string unique = std::to_string(std::hash<std::string>{}(file) % 1000000);
  std::string text;
  for (const std::string& name : names) {
    if (file_scope)
      text += " [[maybe_unused]] static const bool cugrade_shared_" + name + "_" + std::to_string(tokens[k].line) + "_" +
              unique +
              " = ::cugrade_cpu::register_file_scope_shared([]() { return ::cugrade_cpu::shared_extent(" +
              name + "); }, \"" + name + "\");";
    else
      text += " ::cugrade_cpu::shared_declared(" + name + ", \"" + name + "\");";
  }
  edits.push_back(Edit{tokens[j].end, tokens[j].end, std::move(text)});
  return j;
}

}  // namespace cugrade::cpu
