#include "spec/interface_scan.hpp"

#include <algorithm>

namespace cugrade {
namespace {

bool starts_identifier(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool continues_identifier(char c) { return starts_identifier(c) || (c >= '0' && c <= '9'); }

}  // namespace

std::vector<std::string> called_or_declared_names(std::string_view source) {
  std::vector<std::string> names;
  std::size_t i = 0;
  while (i < source.size()) {
    // A commented-out declaration is not a declaration.
    if (source.substr(i, 2) == "//") {
      i = source.find('\n', i);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (source.substr(i, 2) == "/*") {
      i = source.find("*/", i + 2);
      if (i == std::string_view::npos) break;
      i += 2;
      continue;
    }
    if (continues_identifier(source[i]) && !starts_identifier(source[i])) {
      while (i < source.size() && continues_identifier(source[i])) ++i;  // a number, e.g. 1e5f
      continue;
    }
    if (!starts_identifier(source[i])) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < source.size() && continues_identifier(source[i])) ++i;
    std::size_t after = i;
    while (after < source.size() && (source[after] == ' ' || source[after] == '\t')) ++after;
    if (after < source.size() && source[after] == '(') {
      std::string name(source.substr(begin, i - begin));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

}  // namespace cugrade
