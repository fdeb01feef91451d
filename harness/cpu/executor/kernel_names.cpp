// Kernel names for messages. The pre-pass knows a launch only as source text, so a launch
// written in a template (`reduce4<T, blockSize><<<...>>>`) names parameters, not the kernel that
// ran; GCC's __PRETTY_FUNCTION__ of the enclosing function lists what they stand for
// ("void reduce(...) [with T = int; unsigned int blockSize = 256]"), and this file substitutes it.
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cugrade_cpu/launch.hpp"

namespace cugrade_cpu {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The `name = value` pairs of the last "[with ...]" of a __PRETTY_FUNCTION__ (split at "; "
// outside brackets: a value may be `std::pair<int, float>`).
std::map<std::string, std::string> bindings(std::string_view pretty) {
  std::map<std::string, std::string> out;
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
    if (name_begin < eq) out.emplace(piece.substr(name_begin, eq - name_begin), piece.substr(eq + 3));
  }
  return out;
}

}  // namespace

const char* kernel_name(const char* text, const char* enclosing) {
  const std::map<std::string, std::string> values = bindings(enclosing);
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
    auto it = values.find(word);
    name += it != values.end() && !qualified ? it->second : word;
    p = end;
  }
  // Interned: GridShape and the messages keep a const char* for the whole launch.
  static std::mutex mutex;
  static auto* names = new std::set<std::string>();
  std::lock_guard lock(mutex);
  return names->insert(std::move(name)).first->c_str();
}

}  // namespace cugrade_cpu
