// list_library_symbols(): nm over a link's libraries, once per process.
#include "build/library_symbols.hpp"

#include <future>
#include <map>
#include <mutex>

#include "build/nm_output.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

namespace fs = std::filesystem;

std::string_view unversioned(std::string_view name) { return name.substr(0, name.find('@')); }

const LibraryDefinition* LibrarySymbols::find(std::string_view name) const {
  const auto it = defined.find(std::string(unversioned(name)));
  return it == defined.end() ? nullptr : &it->second;
}

void add_library_listing(LibrarySymbols& symbols, const LinkLibrary& library,
                         std::string_view nm_output) {
  for (const Symbol& symbol : parse_nm_output(nm_output)) {
    // 'A': a version node (GLIBC_2.17), not code or data.
    if (!symbol.defined() || !symbol.global() || symbol.type == 'A') continue;
    auto [it, added] = symbols.defined.try_emplace(std::string(unversioned(symbol.name)));
    LibraryDefinition& definition = it->second;
    if (added) definition.library = library.shown;
    definition.weak = definition.weak && symbol.weak();
    (library.harness ? definition.in_harness : definition.in_system) = true;
  }
}

namespace {

/// One library's key in the cache: its path and when it last changed.
std::string cache_key(const LinkLibrary& library) {
  std::error_code ec;
  const auto when = fs::last_write_time(library.file, ec);
  return library.file.string() + "|" + library.shown + "|" + (library.harness ? "h" : "s") + "|" +
         std::to_string(ec ? 0 : when.time_since_epoch().count());
}

bool is_shared_object(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.find(".so") != std::string::npos;
}

}  // namespace

std::shared_ptr<const LibrarySymbols> list_library_symbols(const std::vector<LinkLibrary>& libraries) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const LibrarySymbols>> cache;
  std::string key;
  for (const auto& library : libraries) key += cache_key(library) + "\n";
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;

  auto symbols = std::make_shared<LibrarySymbols>();
  // Each library listed by its own nm, all at once: about 0.2 s instead of the sum (1 s).
  std::vector<std::future<ProcessResult>> listings;
  std::vector<const LinkLibrary*> listed;
  for (const auto& library : libraries) {
    std::error_code ec;
    if (!fs::exists(library.file, ec)) continue;
    listed.push_back(&library);
    listings.push_back(std::async(std::launch::async, [&library] {
      ProcessRequest request;
      request.argv = {"nm", is_shared_object(library.file) ? "-D" : "-g", "--defined-only",
                      library.file.string()};
      request.environment = scrubbed_environment();
      request.timeout_s = 60.0;
      request.output_limit_bytes = 64 << 20;
      return make_process_runner()->run(request);
    }));
  }
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const ProcessResult result = listings[i].get();
    if (!result.started || result.timed_out || result.exit_code != 0) {
      const std::string why = result.started ? result.stderr_text.substr(0, result.stderr_text.find('\n'))
                                             : result.launch_error;
      symbols->unreadable.push_back(listed[i]->file.string() + (why.empty() ? "" : ": " + why));
      continue;
    }
    add_library_listing(*symbols, *listed[i], result.stdout_text);
  }
  cache[key] = symbols;
  return symbols;
}

}  // namespace cugrade
