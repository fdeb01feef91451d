// Parsing GNU ld errors into sentences a student can act on.
#include "build/link_errors.hpp"

#include <algorithm>
#include <cctype>

namespace cugrade {

namespace {

/// The text between `marker` and the closing quote "'" that follows it, or nullopt.
std::optional<std::string> quoted_after(std::string_view line, std::string_view marker) {
  const auto at = line.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = line.substr(at + marker.size());
  // ld quotes with `name' (or with Unicode quotes under a UTF-8 locale, which we never use).
  const auto close = rest.find('\'');
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(rest.substr(0, close));
}

void add_once(std::vector<std::string>& names, std::string name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
}

/// The function's name without parameters: "matmul_tiled(float const*, ...)" -> "matmul_tiled".
std::string_view bare_name(std::string_view signature) {
  return signature.substr(0, signature.find('('));
}

/// "a", "a and b", "a, b and c".
std::string join_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

/// True when `text` mentions `name` as a whole identifier.
bool mentions(std::string_view text, std::string_view name) {
  const auto is_ident = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    const bool left = at == 0 || !is_ident(text[at - 1]);
    const bool right = at + name.size() >= text.size() || !is_ident(text[at + name.size()]);
    if (left && right) return true;
  }
  return false;
}

}  // namespace

LinkErrors parse_link_errors(std::string_view linker_output) {
  LinkErrors errors;
  while (!linker_output.empty()) {
    const auto end = linker_output.find('\n');
    const std::string_view line = linker_output.substr(0, end);
    linker_output =
        end == std::string_view::npos ? std::string_view{} : linker_output.substr(end + 1);
    if (auto name = quoted_after(line, "undefined reference to `")) {
      add_once(errors.undefined, std::move(*name));
    } else if (auto twice = quoted_after(line, "multiple definition of `")) {
      add_once(errors.multiple, std::move(*twice));
    } else if (auto file = quoted_after(line, "Could not open input file '")) {
      add_once(errors.missing_files, std::move(*file));  // nvlink, before ld runs
    } else if (const auto at = line.find("cannot find "); at != std::string_view::npos) {
      std::string_view file = line.substr(at + 12);
      file = file.substr(0, file.find(": "));
      add_once(errors.missing_files, std::string(file));
    }
    if (errors.first_error.empty() &&
        (line.find("error") != std::string_view::npos ||
         line.find("fatal") != std::string_view::npos ||
         line.find("undefined reference") != std::string_view::npos ||
         line.find("multiple definition") != std::string_view::npos)) {
      errors.first_error = std::string(line);
    }
  }
  return errors;
}

std::string abbreviate_signature(std::string_view signature) {
  const auto open = signature.find('(');
  if (open == std::string_view::npos) return std::string(signature);
  // The first parameter ends at the first comma outside template brackets.
  int depth = 0;
  for (std::size_t i = open + 1; i < signature.size(); ++i) {
    const char c = signature[i];
    if (c == '<' || c == '(')
      ++depth;
    else if ((c == '>' || c == ')') && depth > 0)
      --depth;
    else if (c == ',' && depth == 0)
      return std::string(signature.substr(0, i)) + ", ...)";
  }
  return std::string(signature);
}

std::string describe_link_errors(const LinkErrors& errors, std::string_view declared) {
  std::vector<std::string> entry_points;
  std::vector<std::string> unwritten;
  for (const auto& name : errors.undefined) {
    const bool is_entry_point = declared.empty() || mentions(declared, bare_name(name));
    (is_entry_point ? entry_points : unwritten).push_back(abbreviate_signature(name));
  }
  std::vector<std::string> sentences;
  if (entry_points.size() == 1) {
    sentences.push_back("your file does not define " + entry_points[0] +
                        ", which interface.cuh declares: write this function (or keep the "
                        "template's stub)");
  } else if (entry_points.size() > 1) {
    sentences.push_back("your file does not define " + join_names(entry_points) +
                        ", which interface.cuh declares: write these functions (or keep the "
                        "template's stubs)");
  }
  if (!unwritten.empty()) {
    sentences.push_back("your file calls " + join_names(unwritten) + " but nothing defines " +
                        (unwritten.size() == 1 ? "it" : "them") +
                        ": write the missing definition or remove the call");
  }
  if (!errors.multiple.empty()) {
    std::vector<std::string> twice;
    for (const auto& name : errors.multiple) twice.push_back(abbreviate_signature(name));
    sentences.push_back(join_names(twice) + (twice.size() == 1 ? " is" : " are") +
                        " defined more than once (in your file and in the runner, or in two of "
                        "your files): rename your definition or declare it static");
  }
  std::string text;
  for (const auto& sentence : sentences) text += (text.empty() ? "" : "; ") + sentence;
  return text;
}

}  // namespace cugrade
