#include "build/unset_read_warnings.hpp"

#include <algorithm>
#include <string_view>

namespace cugrade {

namespace {

/// What the compilers' warnings of an unset read say after the variable's name.
constexpr std::string_view unset_phrases[] = {" may be used uninitialized", " is used uninitialized",
                                              " is used before its value is set"};

/// The text between the first pair of quotes of `text` (‘x’, 'x' or "x"); empty without one.
std::string first_quoted(std::string_view text) {
  constexpr std::string_view open_curly = "\u2018", close_curly = "\u2019";
  if (const auto open = text.find(open_curly); open != std::string_view::npos) {
    const auto close = text.find(close_curly, open + open_curly.size());
    if (close != std::string_view::npos)
      return std::string(text.substr(open + open_curly.size(), close - open - open_curly.size()));
  }
  for (const char quote : {'\'', '"'}) {
    const auto open = text.find(quote);
    if (open == std::string_view::npos) continue;
    const auto close = text.find(quote, open + 1);
    if (close != std::string_view::npos) return std::string(text.substr(open + 1, close - open - 1));
  }
  return "";
}

bool is_unset_read(const Diagnostic& d) { return d.severity == "warning" && d.line > 0 && !unset_variable(d).empty(); }

}  // namespace

std::string unset_variable(const Diagnostic& warning) {
  for (const std::string_view phrase : unset_phrases) {
    const auto at = warning.message.find(phrase);
    if (at != std::string::npos) return first_quoted(std::string_view(warning.message).substr(0, at));
  }
  return "";
}

std::vector<Diagnostic> unset_reads_in(const std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> reads;
  std::copy_if(diagnostics.begin(), diagnostics.end(), std::back_inserter(reads), is_unset_read);
  return reads;
}

std::vector<Diagnostic> take_unset_reads(std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> reads = unset_reads_in(diagnostics);
  std::erase_if(diagnostics, is_unset_read);
  return reads;
}

}  // namespace cugrade
