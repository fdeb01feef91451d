// Kernel names for messages. The pre-pass knows a launch only as source text, so a launch
// written in a template (`reduce4<T, blockSize><<<...>>>`) names parameters, not the kernel that
// ran; GCC's __PRETTY_FUNCTION__ of the enclosing function lists what they stand for
// ("void reduce(...) [with T = int; unsigned int blockSize = 256]"), and kernel_name()
// substitutes it. Once a thread runs, the kernel's own __PRETTY_FUNCTION__ (kernel_signature)
// names its instantiation whatever the launch wrote (`k<K11_BM>`, a local constant, included).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cugrade_cpu/launch.hpp"

namespace cugrade_cpu {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The `name = value` pairs of the last "[with ...]" of a __PRETTY_FUNCTION__, in order (split at
// "; " outside brackets: a value may be `std::pair<int, float>`). GCC also lists there what the
// typedefs of the signature stand for ("size_t = long unsigned int"); the usual ones are left out.
std::vector<std::pair<std::string, std::string>> bindings(std::string_view pretty) {
  static const std::set<std::string_view> typedefs = {
      "size_t", "ptrdiff_t", "uint", "ushort", "ulong", "int8_t", "int16_t", "int32_t", "int64_t",
      "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t"};
  std::vector<std::pair<std::string, std::string>> out;
  const std::size_t with = pretty.rfind("[with ");
  if (with == std::string_view::npos || !pretty.ends_with(']')) return out;
  std::string_view list = pretty.substr(with + 6, pretty.size() - with - 7);
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ';';
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c != ';' || depth != 0) continue;
    std::string_view piece = list.substr(start, i - start);
    start = i + 2;
    const std::size_t eq = piece.find(" = ");
    if (eq == std::string_view::npos) continue;
    std::size_t name_begin = eq;
    while (name_begin > 0 && ident_char(piece[name_begin - 1])) --name_begin;
    const std::string_view name = piece.substr(name_begin, eq - name_begin);
    if (!name.empty() && !typedefs.contains(name)) out.emplace_back(name, piece.substr(eq + 3));
  }
  return out;
}

// Interned: GridShape, the block runner and the messages keep a const char* for good.
const char* intern(std::string name) {
  static std::mutex mutex;
  static auto* names = new std::set<std::string>();
  std::lock_guard lock(mutex);
  return names->insert(std::move(name)).first->c_str();
}

}  // namespace

const char* kernel_name(const char* text, const char* enclosing) {
  const auto values = bindings(enclosing);
  std::string name;
  for (const char* p = text; *p;) {
    if (!ident_char(*p) || (p != text && ident_char(p[-1]))) {
      name += *p++;
      continue;
    }
    const char* end = p;
    while (*end && ident_char(*end)) ++end;
    const std::string word(p, end);
    const bool qualified = end[0] == ':' && end[1] == ':';  // `ns::k`: ns is no parameter
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == word; });
    name += it != values.end() && !qualified ? it->second : word;
    p = end;
  }
  return intern(std::move(name));
}

const char* name_from_signature(const char* pretty) {
  const std::string_view text(pretty);
  const auto values = bindings(text);
  const std::size_t paren = text.find('(');
  if (values.empty() || paren == std::string_view::npos) return nullptr;
  std::size_t begin = paren;  // the unqualified name, as the source names it at the launch
  while (begin > 0 && ident_char(text[begin - 1])) --begin;
  std::string name(text.substr(begin, paren - begin));
  for (std::size_t i = 0; i < values.size(); ++i) name += (i == 0 ? "<" : ", ") + values[i].second;
  return intern(name + ">");
}

}  // namespace cugrade_cpu
