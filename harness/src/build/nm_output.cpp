// parse_nm_output(), demangle(), qualified_name().
#include "build/nm_output.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace cugrade {

bool Symbol::defined() const { return type != 'U' && type != 'w' && type != 'v'; }

bool Symbol::global() const {
  return std::isupper(static_cast<unsigned char>(type)) || type == 'u' || type == 'w' ||
         type == 'v';
}

bool Symbol::weak() const { return type == 'W' || type == 'V' || type == 'u'; }

std::vector<Symbol> parse_nm_output(std::string_view output) {
  std::vector<Symbol> symbols;
  while (!output.empty()) {
    const auto end = output.find('\n');
    std::string_view line = output.substr(0, end);
    output = end == std::string_view::npos ? std::string_view{} : output.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // "<hex address> <type> <name>", or "<spaces> <type> <name>" for an undefined symbol.
    std::size_t k = 0;
    while (k < line.size() && line[k] == ' ') ++k;
    if (k == 0) {
      while (k < line.size() && std::isxdigit(static_cast<unsigned char>(line[k]))) ++k;
      if (k == 0 || k >= line.size() || line[k] != ' ') continue;
      ++k;
    }
    if (k + 2 >= line.size() || line[k + 1] != ' ') continue;
    Symbol symbol;
    symbol.type = line[k];
    if (!std::isalpha(static_cast<unsigned char>(symbol.type)) && symbol.type != '?') continue;
    symbol.name = std::string(line.substr(k + 2));
    symbol.demangled = demangle(symbol.name);
    symbols.push_back(std::move(symbol));
  }
  return symbols;
}

std::string demangle(std::string_view name) {
  if (!name.starts_with("_Z")) return std::string(name);
  const std::size_t at = name.find('@');
  const std::string base(name.substr(0, at));
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(base.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !text) return std::string(name);
  std::string out = text.get();
  if (at != std::string_view::npos) out += name.substr(at);
  return out;
}

std::string qualified_name(std::string_view demangled) {
  std::string head;
  int depth = 0;
  for (char c : demangled) {
    if (c == '<')
      ++depth;
    else if (c == '>' && depth > 0)
      --depth;
    else if (depth == 0 && c == '(')
      break;
    else if (depth == 0)
      head += c;
  }
  const auto space = head.rfind(' ');
  return space == std::string::npos ? head : head.substr(space + 1);
}

}  // namespace cugrade
