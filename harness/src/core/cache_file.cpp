#include "core/cache_file.hpp"

#include "core/atomic_file.hpp"

namespace cugrade {

nlohmann::json read_cache_section(const std::filesystem::path& file, int format, const std::string& section) {
  const auto text = read_whole_file(file);
  if (!text) return nlohmann::json::object();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("format", 0) != format || !j.contains(section) || !j[section].is_object())
    return nlohmann::json::object();
  return j[section];
}

void write_cache_section(const std::filesystem::path& file, int format, const std::string& section,
                         const nlohmann::json& entries) {
  const nlohmann::json j{{"format", format}, {section, entries}};
  (void)write_file_atomically(file, j.dump(1));
}

}  // namespace cugrade
