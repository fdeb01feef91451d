// Parsing nvcc (EDG) and host compiler (g++/clang) diagnostics.
#include "build/compiler_diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// Severity words both front ends use, longest first so "fatal error" wins over "error"; GNU as
/// (inline assembly) writes "Error" and "Warning".
constexpr std::string_view severities[] = {"catastrophic error", "fatal error", "error", "warning", "Error", "Warning"};

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

/// "error #20-D: message" / "warning: message" -> (severity, message); nullopt otherwise.
std::optional<std::pair<std::string, std::string>> split_severity(std::string_view rest) {
  for (std::string_view word : severities) {
    if (!rest.starts_with(word)) continue;
    std::string_view after = rest.substr(word.size());
    if (after.starts_with(" #")) {  // EDG's diagnostic number: "warning #177-D: ..."
      const auto colon = after.find(':');
      if (colon == std::string_view::npos) return std::nullopt;
      after = after.substr(colon);
    }
    if (!after.starts_with(": ")) return std::nullopt;
    // "catastrophic error" and "fatal error" stop the compilation; to a student both are errors.
    const std::string severity = word == "warning" || word == "Warning" ? "warning" : "error";
    const std::string by = word == "Error" || word == "Warning" ? std::string(assembler_said) : "";
    return std::pair{severity, by + std::string(after.substr(2))};
  }
  return std::nullopt;
}

/// EDG (nvcc's front end): `path(12): error: message`.
std::optional<Diagnostic> parse_edg(std::string_view line) {
  for (auto close = line.find("): "); close != std::string_view::npos;
       close = line.find("): ", close + 1)) {
    const auto open = line.rfind('(', close);
    if (open == std::string_view::npos || open == 0) continue;
    const std::string_view number = line.substr(open + 1, close - open - 1);
    if (!all_digits(number)) continue;
    auto severity = split_severity(line.substr(close + 3));
    if (!severity) continue;
    Diagnostic diagnostic;
    diagnostic.file = std::string(line.substr(0, open));
    diagnostic.line = std::stoi(std::string(number));
    diagnostic.severity = std::move(severity->first);
    diagnostic.message = std::move(severity->second);
    return diagnostic;
  }
  return std::nullopt;
}

/// GCC/Clang (the host compiler): `path:12:5: error: message` (column optional).
std::optional<Diagnostic> parse_gnu(std::string_view line) {
  for (auto colon = line.find(": "); colon != std::string_view::npos;
       colon = line.find(": ", colon + 1)) {
    auto severity = split_severity(line.substr(colon + 2));
    if (!severity) continue;
    // Before the colon: path:line or path:line:column.
    std::string_view location = line.substr(0, colon);
    int numbers[2] = {0, 0};
    int count = 0;
    while (count < 2) {
      const auto sep = location.rfind(':');
      if (sep == std::string_view::npos || !all_digits(location.substr(sep + 1))) break;
      numbers[count++] = std::stoi(std::string(location.substr(sep + 1)));
      location = location.substr(0, sep);
    }
    if (count == 0 || location.empty()) continue;
    Diagnostic diagnostic;
    diagnostic.file = std::string(location);
    diagnostic.line = count == 2 ? numbers[1] : numbers[0];
    diagnostic.column = count == 2 ? numbers[0] : 0;
    diagnostic.severity = std::move(severity->first);
    diagnostic.message = std::move(severity->second);
    return diagnostic;
  }
  return std::nullopt;
}

bool same_file(const fs::path& a, const fs::path& b) {
  if (a.lexically_normal() == b.lexically_normal()) return true;
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

/// The name a student knows: the bare file name for their own files, the path inside the
/// assignment folder for its headers, otherwise unchanged (a system header).
std::string short_name(const std::string& file, const DiagnosticPaths& paths) {
  const fs::path path = file;
  for (const auto& [staged, shown] : paths.renamed) {
    if (path.lexically_normal() == fs::path(staged).lexically_normal()) return shown;
  }
  for (const auto& source : paths.sources) {
    if (same_file(path, source)) return source.filename().string();
  }
  if (!paths.assignment_dir.empty()) {
    const fs::path relative =
        path.lexically_normal().lexically_relative(paths.assignment_dir.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") return relative.string();
  }
  return file;
}

}  // namespace

std::vector<Diagnostic> parse_compiler_diagnostics(std::string_view output,
                                                   const DiagnosticPaths& paths,
                                                   std::size_t limit) {
  std::vector<Diagnostic> diagnostics;
  while (!output.empty() && diagnostics.size() < limit) {
    const auto end = output.find('\n');
    std::string_view line = output.substr(0, end);
    output = end == std::string_view::npos ? std::string_view{} : output.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::optional<Diagnostic> diagnostic = parse_edg(line);
    if (!diagnostic) diagnostic = parse_gnu(line);
    if (!diagnostic) continue;
    diagnostic->file = short_name(diagnostic->file, paths);
    // nvcc runs the host compiler's preprocessor for host and device passes, so the same
    // message (a #warning, a missing header) can appear twice; a student needs it once.
    const bool seen = std::any_of(diagnostics.begin(), diagnostics.end(), [&](const auto& d) {
      return d.file == diagnostic->file && d.line == diagnostic->line &&
             d.column == diagnostic->column && d.severity == diagnostic->severity &&
             d.message == diagnostic->message;
    });
    if (!seen) diagnostics.push_back(std::move(*diagnostic));
  }
  return diagnostics;
}

std::string describe(const Diagnostic& diagnostic) {
  std::string text = diagnostic.file;
  if (diagnostic.line > 0) text += ":" + std::to_string(diagnostic.line);
  if (diagnostic.column > 0) text += ":" + std::to_string(diagnostic.column);
  return text + ": " + diagnostic.message;
}

}  // namespace cugrade
