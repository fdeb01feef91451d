// filter_compiler_output(): messages about files outside the submission, dropped with their quotes.
#include "build/output_filter.hpp"

#include <algorithm>
#include <cctype>

namespace cugrade {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// Where GCC's `:<line>` starts (`file:12:5:`, `file:12:`, `file:3,`), or npos.
std::size_t gcc_line_number(std::string_view line) {
  for (std::size_t k = line.find(':'); k != std::string_view::npos; k = line.find(':', k + 1)) {
    std::size_t d = k + 1;
    while (d < line.size() && is_digit(line[d])) ++d;
    if (d > k + 1 && (d == line.size() || line[d] == ':' || line[d] == ',')) return k;
  }
  return std::string_view::npos;
}

/// Where EDG's `(<line>): ` starts (`file(12): error`), or npos.
std::size_t edg_line_number(std::string_view line) {
  for (std::size_t k = line.find('('); k != std::string_view::npos; k = line.find('(', k + 1)) {
    std::size_t d = k + 1;
    while (d < line.size() && is_digit(line[d])) ++d;
    if (d > k + 1 && line.substr(d, 2) == "):") return k;
  }
  return std::string_view::npos;
}

/// The file before a line number: the earlier of GCC's and EDG's forms; empty when neither.
std::string file_before_line_number(std::string_view text) {
  const std::size_t gcc = gcc_line_number(text);
  const std::size_t edg = edg_line_number(text);
  const std::size_t at = std::min(gcc, edg);
  if (at == std::string_view::npos || at == 0) return {};
  return std::string(text.substr(0, at));
}

}  // namespace

std::string message_file(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return {};
  if (std::isspace(static_cast<unsigned char>(line.front()))) {
    // GCC's include chain continues with "                 from file:4,".
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line.substr(first, 5) != "from ") return {};
    return file_before_line_number(line.substr(first + 5));
  }
  constexpr std::string_view included = "In file included from ";
  if (line.starts_with(included)) return file_before_line_number(line.substr(included.size()));
  if (std::string file = file_before_line_number(line); !file.empty()) return file;
  // "file: In function 'f':", "file: Assembler messages:", "cc1plus: fatal error: ...": the
  // part before the first ": " when it has no space (a tool's name, or a path).
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0) return {};
  const std::string_view head = line.substr(0, colon);
  if (head.find_first_of(" \t") != std::string_view::npos) return {};
  return std::string(head);
}

FilteredOutput filter_compiler_output(std::string_view output, const ReadableFolders& folders) {
  FilteredOutput result;
  bool keep = true;
  bool marked = false;
  while (!output.empty()) {
    const std::size_t end = output.find('\n');
    const std::string_view line = output.substr(0, end);
    output = end == std::string_view::npos ? std::string_view{} : output.substr(end + 1);
    const std::string file = message_file(line);
    if (!file.empty()) {
      keep = folders.contains(file);
      if (!keep && std::find(result.outside.begin(), result.outside.end(), file) == result.outside.end())
        result.outside.push_back(file);
    } else if (!line.empty() && !std::isspace(static_cast<unsigned char>(line.front()))) {
      keep = true;  // a message that names no file: "compilation terminated."
    }
    if (keep) {
      result.text.append(line);
      if (end != std::string_view::npos) result.text += '\n';
      marked = false;
    } else if (!marked) {
      result.text += "[... a message about a file outside your submission was removed]\n";
      marked = true;
    }
  }
  return result;
}

}  // namespace cugrade
