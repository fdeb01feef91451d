// scan_source(): a preprocessor's lexer, enough of it to find directives, identifiers and
// string literals without expanding anything.
#include "build/source_scan.hpp"

#include "build/source_refusals.hpp"
#include "build/source_text.hpp"

#include <algorithm>
#include <cctype>

namespace cugrade {

namespace {

bool starts_identifier(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool continues_identifier(char c) {
  return starts_identifier(c) || std::isdigit(static_cast<unsigned char>(c));
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// At most 80 characters of a construct, for a message.
std::string shortened(std::string_view text) {
  std::string out(text.substr(0, 80));
  if (text.size() > 80) out += "...";
  return out;
}

class Scanner {
 public:
  explicit Scanner(std::string_view raw) : source_(splice_lines(raw)), s_(source_.text) {}

  SourceScan run() {
    // A UTF-8 byte-order mark opening the file is no code: a directive on line 1 stays one.
    if (s_.starts_with("\xEF\xBB\xBF")) i_ = 3;
    while (i_ < s_.size()) step();
    end_string_run();
    return std::move(out_);
  }

 private:
  int line_at(std::size_t i) const {
    if (source_.line.empty()) return 1;
    return source_.line[std::min(i, source_.line.size() - 1)];
  }
  char at(std::size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  void refuse(std::size_t where, std::string construct, std::string_view reason) {
    out_.refused.push_back({line_at(where), shortened(construct), std::string(reason)});
  }

  /// Skips spaces, tabs and comments on the current line; stops at a newline.
  void skip_horizontal() {
    while (i_ < s_.size()) {
      if (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\f' || s_[i_] == '\v') {
        ++i_;
      } else if (s_.compare(i_, 2, "/*") == 0) {
        skip_block_comment();
      } else if (s_.compare(i_, 2, "//") == 0) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        return;
      }
    }
  }

  void skip_block_comment() {
    const std::size_t end = s_.find("*/", i_ + 2);
    // A newline inside the comment starts a new line for the directive check: conservative,
    // since a `#` after it is then read as a directive.
    const std::size_t stop = end == std::string_view::npos ? s_.size() : end + 2;
    if (s_.substr(i_, stop - i_).find('\n') != std::string_view::npos) line_start_ = true;
    i_ = stop;
  }

  void step() {
    const char c = s_[i_];
    if (c == '\n') {
      line_start_ = true;
      ++i_;
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i_;
      return;
    }
    if (s_.compare(i_, 2, "//") == 0) {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      return;
    }
    if (s_.compare(i_, 2, "/*") == 0) {
      skip_block_comment();
      return;
    }
    const bool was_line_start = line_start_;
    line_start_ = false;
    if (c == '#' || s_.compare(i_, 2, "%:") == 0) {
      if (was_line_start) {
        end_string_run();
        directive();
        return;
      }
      i_ += c == '#' ? 1 : 2;
      end_string_run();
      return;
    }
    if (c == '"') {
      string_literal(i_, false);
      return;
    }
    if (c == '\'') {
      end_string_run();
      character_literal();
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(at(i_ + 1))))) {
      end_string_run();
      pp_number();
      return;
    }
    if (starts_identifier(c)) {
      identifier();
      return;
    }
    end_string_run();
    ++i_;
  }

  /// A pp-number: digits, letters, `.`, `'` digit separators, and signs after an exponent.
  void pp_number() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if ((c == '+' || c == '-') && i_ > 0 &&
          (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
        ++i_;
      } else if (c == '\'' && continues_identifier(at(i_ + 1))) {
        i_ += 2;
      } else if (continues_identifier(c) || c == '.') {
        ++i_;
      } else {
        return;
      }
    }
  }

  void character_literal() {
    ++i_;
    while (i_ < s_.size() && s_[i_] != '\'' && s_[i_] != '\n') i_ += s_[i_] == '\\' ? 2 : 1;
    if (i_ < s_.size() && s_[i_] == '\'') ++i_;
  }

  /// A string literal starting at the quote `i_` (its prefix already read, from `begin`):
  /// its characters join the current run of adjacent literals.
  void string_literal(std::size_t begin, bool raw) {
    std::string value;
    if (raw) {
      // R"delim( ... )delim"
      const std::size_t open = s_.find('(', i_ + 1);
      if (open == std::string_view::npos || open - i_ - 1 > 16) {
        ++i_;
        return;
      }
      const std::string close = ")" + std::string(s_.substr(i_ + 1, open - i_ - 1)) + "\"";
      const std::size_t end = s_.find(close, open + 1);
      const std::size_t stop = end == std::string_view::npos ? s_.size() : end;
      value = std::string(s_.substr(open + 1, stop - open - 1));
      i_ = end == std::string_view::npos ? s_.size() : end + close.size();
    } else {
      std::size_t j = i_ + 1;
      while (j < s_.size() && s_[j] != '"' && s_[j] != '\n') j += s_[j] == '\\' ? 2 : 1;
      j = std::min(j, s_.size());
      value = decode_escapes(s_.substr(i_ + 1, j - i_ - 1));
      i_ = j < s_.size() && s_[j] == '"' ? j + 1 : j;
    }
    // A user-defined literal suffix ("x"_s) belongs to the literal.
    if (i_ < s_.size() && s_[i_] == '_')
      while (i_ < s_.size() && continues_identifier(s_[i_])) ++i_;
    if (!in_run_) {
      in_run_ = true;
      run_begin_ = begin;
      run_.clear();
    }
    run_ += value;
  }

  void end_string_run() {
    if (!in_run_) return;
    in_run_ = false;
    const std::string text = lower(run_);
    if (text.find("incbin") != std::string::npos || text.find(".include") != std::string::npos)
      refuse(run_begin_, "\"" + run_ + "\"", refusal::assembler);
  }

  void identifier() {
    const std::size_t begin = i_;
    while (i_ < s_.size() && continues_identifier(s_[i_])) ++i_;
    const std::string_view word = s_.substr(begin, i_ - begin);
    // An encoding prefix glued to a quote starts a string literal: u8"..", L"..", R"(..)".
    if (at(i_) == '"') {
      static constexpr std::string_view prefixes[] = {"u8", "u", "U", "L"};
      for (std::string_view p : prefixes) {
        if (word == p) {
          string_literal(begin, false);
          return;
        }
        if (word.size() == p.size() + 1 && word.starts_with(p) && word.back() == 'R') {
          string_literal(begin, true);
          return;
        }
      }
      if (word == "R") {
        string_literal(begin, true);
        return;
      }
    }
    if (at(i_) == '\'' && (word == "u8" || word == "u" || word == "U" || word == "L")) {
      end_string_run();
      character_literal();
      return;
    }
    end_string_run();
    if (word == "__has_include" || word == "__has_include_next") {
      has_include(begin);
    } else if (word == "__has_embed") {
      refuse(begin, std::string(word), refusal::embed);
    } else if (word == "_Pragma") {
      pragma_operator(begin);
    } else if (lower(word).find("incbin") != std::string::npos) {
      refuse(begin, std::string(word), refusal::assembler);
    }
  }

  /// Skips spaces, tabs, newlines and comments (inside an expression that may span lines).
  void skip_space() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_.compare(i_, 2, "/*") == 0) {
        const std::size_t end = s_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? s_.size() : end + 2;
      } else if (s_.compare(i_, 2, "//") == 0) {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        return;
      }
    }
  }

  /// A header name at i_: "name" or <name> on one line; false (and i_ unmoved) otherwise.
  bool header_name(std::string& name, bool& angled) {
    const char open = at(i_);
    if (open != '"' && open != '<') return false;
    const char close = open == '"' ? '"' : '>';
    const std::size_t end = s_.find_first_of(std::string{close, '\n'}, i_ + 1);
    if (end == std::string_view::npos || s_[end] != close) return false;
    name = std::string(s_.substr(i_ + 1, end - i_ - 1));
    angled = open == '<';
    i_ = end + 1;
    return true;
  }

  void has_include(std::size_t begin) {
    const std::size_t after_word = i_;
    skip_space();
    std::string name;
    bool angled = false;
    if (at(i_) == '(') {
      ++i_;
      skip_space();
      if (header_name(name, angled)) {
        if (!is_plain_include_name(name))
          refuse(begin, "__has_include(" + std::string(angled ? "<" : "\"") + name +
                            (angled ? ">" : "\"") + ")",
                 refusal::has_include);
        return;
      }
    }
    i_ = after_word;
    refuse(begin, "__has_include with a macro argument", refusal::has_include);
  }

  void pragma_operator(std::size_t begin) {
    skip_space();
    if (at(i_) != '(') return;
    ++i_;
    skip_space();
    // _Pragma("...") with a literal: its text is a #pragma line. A macro argument (the common
    // `_Pragma(#x)` in a macro) is left to the compiler's checks.
    std::size_t literal = i_;
    while (literal < s_.size() && starts_identifier(s_[literal])) ++literal;
    if (at(literal) != '"') return;
    std::size_t j = literal + 1;
    while (j < s_.size() && s_[j] != '"' && s_[j] != '\n') j += s_[j] == '\\' ? 2 : 1;
    if (j >= s_.size() || s_[j] != '"') return;
    const std::string text = decode_escapes(s_.substr(literal + 1, j - literal - 1));
    if (refusal::is_dependency_pragma(text)) refuse(begin, "_Pragma(\"" + text + "\")", refusal::dependency);
    i_ = j + 1;
  }

  /// The rest of the current line from i_, without moving (leading spaces left out).
  std::string_view rest_of_line() const {
    const std::size_t end = s_.find('\n', i_);
    std::string_view rest = s_.substr(i_, (end == std::string_view::npos ? s_.size() : end) - i_);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    return rest;
  }

  void directive() {
    const std::size_t hash = i_;
    i_ += s_[i_] == '#' ? 1 : 2;
    skip_horizontal();
    if (std::isdigit(static_cast<unsigned char>(at(i_)))) {
      // `# 12 "file"`: a GNU line marker, which the compiler accepts in source too.
      refuse(hash, "#" + std::string(rest_of_line()), refusal::line);
      return;
    }
    const std::size_t begin = i_;
    while (i_ < s_.size() && continues_identifier(s_[i_])) ++i_;
    const std::string name(s_.substr(begin, i_ - begin));
    if (name == "include" || name == "include_next" || name == "import" || name == "embed") {
      skip_horizontal();
      IncludeLine include{line_at(hash), "", false};
      const bool literal = header_name(include.name, include.angled);
      const std::string written = "#" + name + " " +
                                  (literal ? (include.angled ? "<" : "\"") + include.name +
                                                 (include.angled ? ">" : "\"")
                                           : std::string(rest_of_line()));
      if (name == "embed") {
        refuse(hash, written, refusal::embed);
      } else if (literal && !is_plain_include_name(include.name)) {
        refuse(hash, written, refusal::include);
      } else {
        out_.includes.push_back(std::move(include));
      }
    } else if (name == "line") {
      refuse(hash, "#line " + std::string(rest_of_line()), refusal::line);
    } else if (name == "pragma") {
      const std::string_view text = rest_of_line();
      if (refusal::is_dependency_pragma(text)) refuse(hash, "#pragma " + std::string(text), refusal::dependency);
      i_ = static_cast<std::size_t>(text.data() - s_.data()) + text.size();
    }
    // Anything else (#define bodies included) is read on as ordinary tokens.
  }

  SplicedSource source_;
  std::string_view s_;
  std::size_t i_ = 0;
  bool line_start_ = true;  ///< only spaces and comments since the last newline
  bool in_run_ = false;     ///< inside a run of adjacent string literals
  std::size_t run_begin_ = 0;
  std::string run_;
  SourceScan out_;
};

}  // namespace

SourceScan scan_source(std::string_view text) { return Scanner(text).run(); }

bool is_plain_include_name(std::string_view name) {
  if (name.empty() || name.size() > 255 || name.front() == '/') return false;
  std::size_t begin = 0;
  while (begin <= name.size()) {
    const std::size_t end = std::min(name.find('/', begin), name.size());
    const std::string_view part = name.substr(begin, end - begin);
    if (part.empty() || part == "." || part == "..") return false;
    for (char c : part) {
      const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                      c == '.' || c == '+';
      if (!ok) return false;
    }
    begin = end + 1;
  }
  return true;
}

}  // namespace cugrade
