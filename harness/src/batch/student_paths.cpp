#include "batch/student_paths.hpp"

#include <fmt/format.h>

#include "core/sha256.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {
constexpr std::size_t kLongest = 64;  ///< the longest name kept as it is (far below NAME_MAX)
constexpr std::size_t kKept = 40;     ///< of a long mapped name, the bytes kept before the hash

bool plain(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.';
}
}  // namespace

std::string student_path_name(std::string_view student) {
  bool as_is = !student.empty() && student.size() <= kLongest && student.front() != '.';
  for (const unsigned char c : student) as_is = as_is && plain(c);
  if (as_is) return std::string(student);
  if (student.empty()) return "%";  // no folder lists an empty name; this keeps it a folder of its own
  std::string name;
  for (std::size_t i = 0; i < student.size(); ++i) {
    const auto c = static_cast<unsigned char>(student[i]);
    // A leading '.' would make a hidden file, or "." and ".." folders that are not new at all.
    if (plain(c) && !(i == 0 && c == '.')) name += static_cast<char>(c);
    else name += fmt::format("%{:02X}", c);
  }
  if (name.size() <= kLongest) return name;
  // Cut where no %XX is split, so the kept part still reads as the id's beginning.
  std::size_t keep = kKept;
  if (name[keep - 1] == '%') keep -= 1;
  else if (name[keep - 2] == '%') keep -= 2;
  return name.substr(0, keep) + "~" + sha256_hex(student).substr(0, 16);
}

fs::path student_reports_dir(const fs::path& out, std::string_view student) {
  return out / "students" / student_path_name(student);
}

fs::path student_record_file(const fs::path& out, std::string_view student) {
  return out / "results" / (student_path_name(student) + ".json");
}

fs::path student_work_dir(const fs::path& out, std::string_view student) {
  return out / "work" / student_path_name(student);
}

}  // namespace cugrade
