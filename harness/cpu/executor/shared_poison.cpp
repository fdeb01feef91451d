#include "shared_poison.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "block_runner.hpp"
#include "cugrade_cpu/shared_memory.hpp"
#include "fills.hpp"
#include "source_site.hpp"

namespace cugrade_cpu {
namespace {

struct FileScopeShared {
  SharedExtent (*extent)();
  const char* name;
  std::source_location where;
};

// Filled during static initialisation (before main), read by every worker afterwards.
std::vector<FileScopeShared>& file_scope() {
  static auto* list = new std::vector<FileScopeShared>();
  return *list;
}

// "reduce2" from GCC's "void ns::reduce2(const T*, int*) [with T = int]": the unqualified name
// of the function a declaration is in, without template arguments.
std::string function_of(std::string_view signature) {
  int angles = 0;
  std::size_t start = 0, end = signature.size();
  for (std::size_t i = 0; i < signature.size(); ++i) {
    const char c = signature[i];
    if (c == '<') ++angles;
    if (c == '>' && angles > 0) --angles;
    if (angles > 0) continue;
    if (c == '(') {
      end = i;
      break;
    }
    if (c == ' ') start = i + 1;
    if (c == ':' && i + 1 < signature.size() && signature[i + 1] == ':') start = i + 2;
  }
  std::string name(signature.substr(start, end > start ? end - start : 0));
  if (auto angle = name.find('<'); angle != std::string::npos && angle > 0) name.resize(angle);
  return name;
}

}  // namespace

std::string describe_declaration(const std::string& declaration, const std::source_location& where) {
  const std::string function = function_of(where.function_name());
  return declaration + (function.empty() ? "" : " in " + function) + ", " + site(where);
}

unsigned char shared_poison_byte() { return cugrade::shared_poison_byte_from_environment(); }

bool register_file_scope_shared(SharedExtent (*extent)(), const char* name, const std::source_location& where) {
  file_scope().push_back(FileScopeShared{extent, name, where});
  return true;
}

void poison_file_scope_shared(unsigned char byte, const char* kernel) {
  for (const FileScopeShared& variable : file_scope()) {
    auto [address, bytes] = variable.extent();
    std::memset(address, byte, bytes);
    if (shared_log_enabled())
      log_shared_use(kernel, "file-scope __shared__ " + std::string(variable.name) + ", " + site(variable.where));
  }
}

bool shared_log_enabled() {
  const char* path = std::getenv("CUGRADE_CPU_SHARED_LOG");
  return path && *path;
}

void log_shared_use(const char* kernel, const std::string& what) {
  const char* path = std::getenv("CUGRADE_CPU_SHARED_LOG");
  if (!path || !*path) return;
  std::string line = std::string(kernel) + "\t" + what + "\n";
  static std::mutex mutex;
  static auto* logged = new std::set<std::string>();
  std::lock_guard lock(mutex);
  if (!logged->insert(line).second) return;
  if (std::FILE* file = std::fopen(path, "a")) {
    std::fputs(line.c_str(), file);
    std::fclose(file);
  }
}

void declare_shared(void* address, std::size_t bytes, const char* name, const std::source_location& where) {
  if (BlockRunner* runner = BlockRunner::current()) runner->declare_shared(address, bytes, name, where);
}

void declare_dynamic_shared(const char* name, const std::source_location& where) {
  if (BlockRunner* runner = BlockRunner::current()) runner->declare_dynamic_shared(name, where);
}

}  // namespace cugrade_cpu
