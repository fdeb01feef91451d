#include "prepass_launch.hpp"

#include <optional>

namespace cugrade::cpu {
namespace {

std::string where(const TokenView& tokens, std::size_t k, const std::string& file) {
  return file + ":" + std::to_string(tokens[k].line) + ": ";
}

// First token of the kernel expression that ends just before `<<<` at k:
// `name`, `ns::name`, `name<T, (N > 1)>`, `(expression)`, `table[i]` (an array of kernel
// pointers, as NVIDIA's finite-difference blog code launches).
std::optional<std::size_t> kernel_start(const TokenView& tokens, std::size_t k) {
  if (k == 0) return std::nullopt;
  std::size_t j = k - 1;
  while (tokens.is(j, "]")) {  // subscripts: back to the matching `[`, then what they index
    int depth = 0;
    for (;; --j) {
      if (tokens.is(j, "]")) ++depth;
      if (tokens.is(j, "[") && --depth == 0) break;
      if (j == 0 || !tokens.same_directive(j - 1, k)) return std::nullopt;
    }
    if (j == 0) return std::nullopt;
    --j;
  }
  if (tokens.is(j, ")") || tokens.is(j, ">")) {
    bool angle = tokens.is(j, ">");
    int parens = 0, angles = 0;  // `>` inside parentheses is a comparison, not a bracket
    for (;; --j) {
      std::string_view t = tokens.text(j);
      if (t == ")" || t == "]") ++parens;
      if (t == "(" || t == "[") --parens;
      if (angle && parens == 0 && t == ">") ++angles;
      if (angle && parens == 0 && t == "<") --angles;
      if (parens == 0 && angles == 0) break;
      if (j == 0 || !tokens.same_directive(j - 1, k)) return std::nullopt;
    }
    if (!angle) return j;
    if (j == 0) return std::nullopt;
    --j;
  }
  if (tokens[j].kind != TokenKind::identifier) return std::nullopt;
  // Qualified names: walk back over `::` and the names before them.
  while (j >= 2 && tokens.is(j - 1, ":") && tokens.is(j - 2, ":") && tokens.same_directive(j - 2, k)) {
    if (j >= 3 && tokens[j - 3].kind == TokenKind::identifier && !tokens.is(j - 3, "return"))
      j -= 3;
    else
      return j - 2;  // a leading `::`
  }
  return j;
}

// The pieces of the tokens strictly between `from` and `to`, split at commas outside brackets.
std::vector<SourceSpan> split_arguments(const TokenView& tokens, std::size_t from, std::size_t to) {
  std::vector<SourceSpan> pieces;
  std::optional<std::size_t> first;
  int depth = 0;
  for (std::size_t j = from + 1; j < to; ++j) {
    std::string_view t = tokens.text(j);
    if (depth == 0 && t == ",") {
      if (first) pieces.push_back(SourceSpan{tokens[*first].begin, tokens[j - 1].end});
      first.reset();
      continue;
    }
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") --depth;
    if (!first) first = j;
  }
  if (first) pieces.push_back(SourceSpan{tokens[*first].begin, tokens[to - 1].end});
  return pieces;
}

}  // namespace

Result<LaunchSite> parse_launch(const TokenView& tokens, std::size_t k, const std::string& file) {
  auto start = kernel_start(tokens, k);
  if (!start)
    return fail(where(tokens, k, file) + "cannot tell which kernel this launch (<<<) calls; write "
                "`kernel<<<grid, block>>>(arguments)`.");
  std::optional<std::size_t> close;
  int depth = 0;
  for (std::size_t j = k + 3; j < tokens.size() && tokens.same_directive(j, k); ++j) {
    std::string_view t = tokens.text(j);
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") --depth;
    if (depth < 0 || (depth == 0 && t == ";")) break;
    if (depth == 0 && tokens.is_triple(j, '>')) {
      close = j;
      break;
    }
  }
  if (!close) return fail(where(tokens, k, file) + "this launch's <<< has no matching >>>.");
  const std::size_t open = *close + 3;
  if (!tokens.is(open, "(") || !tokens.same_directive(open, k))
    return fail(where(tokens, k, file) + "a kernel launch needs its arguments in parentheses after >>>.");
  auto paren = tokens.match_forward(open);
  if (!paren) return fail(where(tokens, k, file) + "the arguments of this kernel launch have no closing ).");

  LaunchSite site;
  site.kernel_first = *start;
  site.open = k;
  site.close = *close;
  site.paren = open;
  site.paren_close = *paren;
  site.kernel = SourceSpan{tokens[*start].begin, tokens[k - 1].end};
  site.config = SourceSpan{tokens[k].begin, tokens[*close + 2].end};
  site.call = SourceSpan{tokens[open].begin, tokens[*paren].end};
  site.config_args = split_arguments(tokens, k + 2, *close);
  site.call_args = split_arguments(tokens, open, *paren);
  site.line = tokens[k].line;
  site.directive = tokens[k].directive;
  return site;
}

Result<std::vector<LaunchSite>> find_launches(std::string_view source, const std::string& file) {
  const TokenView tokens(source);
  std::vector<LaunchSite> sites;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!tokens.is_triple(k, '<')) continue;
    auto site = parse_launch(tokens, k, file);
    if (!site) return std::unexpected(site.error());
    k = site->paren_close;
    sites.push_back(std::move(*site));
  }
  return sites;
}

}  // namespace cugrade::cpu
