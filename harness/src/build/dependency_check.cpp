// ReadableFolders and the make-style dependency lists of gcc, nvcc and GNU as.
#include "build/dependency_check.hpp"

#include <algorithm>

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// Whether `path` is `folder` or lies under it; both lexically normal.
bool is_under(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty() && std::next(f) == folder.end()) break;  // "dir/" ends in an empty part
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

fs::path canonical_or_self(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path : canonical.lexically_normal();
}

}  // namespace

bool ReadableFolders::contains(std::string_view file) const {
  if (file.empty()) return false;
  if (file == "<built-in>" || file == "<command-line>" || file == "<stdin>") return true;
  const fs::path work = work_dir.lexically_normal();
  const fs::path given(file);
  if (given.is_relative()) {
    // A relative name is the compile's own (it runs in the work folder) unless `..` leaves it.
    const fs::path normal = given.lexically_normal();
    return normal.empty() || *normal.begin() != "..";
  }
  const fs::path normal = given.lexically_normal();
  if (!work.empty() && is_under(normal, work)) return true;
  for (const auto& folder : system)
    if (is_under(normal, folder.lexically_normal())) return true;
  // /usr/local/cuda is often a link to /usr/local/cuda-13.0: compare where both really are.
  const fs::path real = canonical_or_self(normal);
  if (!work.empty() && is_under(real, canonical_or_self(work))) return true;
  return std::any_of(system.begin(), system.end(), [&](const fs::path& folder) {
    return is_under(real, canonical_or_self(folder.lexically_normal()));
  });
}

std::vector<std::string> parse_dependency_file(std::string_view text) {
  // Logical lines: a backslash before the newline continues the rule.
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      joined += ' ';
      ++i;
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      continue;
    }
    joined += text[i];
  }
  std::vector<std::string> files;
  std::size_t begin = 0;
  while (begin < joined.size()) {
    std::size_t end = joined.find('\n', begin);
    if (end == std::string::npos) end = joined.size();
    const std::string_view line = std::string_view(joined).substr(begin, end - begin);
    begin = end + 1;
    // "target: prerequisites" (nvcc writes "target : prerequisites").
    std::size_t colon = std::string_view::npos;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line[k] == ':' && (k + 1 == line.size() || line[k + 1] == ' ' || line[k + 1] == '\t')) {
        colon = k;
        break;
      }
    }
    if (colon == std::string_view::npos) continue;
    std::string current;
    for (std::size_t k = colon + 1; k <= line.size(); ++k) {
      const char c = k < line.size() ? line[k] : ' ';
      if (c == '\\' && k + 1 < line.size() && (line[k + 1] == ' ' || line[k + 1] == '#')) {
        current += line[++k];
      } else if (c == '$' && k + 1 < line.size() && line[k + 1] == '$') {
        current += '$';
        ++k;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        if (!current.empty()) files.push_back(std::move(current));
        current.clear();
      } else {
        current += c;
      }
    }
  }
  return files;
}

std::vector<std::string> files_outside(const std::vector<std::string>& dependencies,
                                       const ReadableFolders& folders) {
  std::vector<std::string> outside;
  for (const auto& file : dependencies) {
    if (folders.contains(file)) continue;
    if (std::find(outside.begin(), outside.end(), file) == outside.end()) outside.push_back(file);
  }
  return outside;
}

}  // namespace cugrade
