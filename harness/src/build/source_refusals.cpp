#include "build/source_refusals.hpp"

#include <cctype>
#include <string>

namespace cugrade::refusal {

bool is_dependency_pragma(std::string_view text) {
  std::string words;
  for (char c : text) words += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  // "GCC dependency", with any spacing.
  std::size_t gcc = words.find("GCC");
  while (gcc != std::string::npos) {
    std::size_t k = gcc + 3;
    while (k < words.size() && words[k] == ' ') ++k;
    if (words.compare(k, 10, "dependency") == 0) return true;
    gcc = words.find("GCC", gcc + 3);
  }
  return false;
}

}  // namespace cugrade::refusal
