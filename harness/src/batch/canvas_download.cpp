#include "batch/canvas_download.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/printable.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Whether `text` is one or more ASCII digits.
bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<CanvasFileName> canvas_file_name(const std::string& file_name) {
  // Where "<user id>_" starts: at the start (no name) or after a '_'. The first such place followed
  // by "<file id>_<name>" (or Canvas's page of a text entry or link) ends the student's name, since
  // Canvas takes every "_<digits>_" out of names.
  const std::string_view text(file_name);
  for (std::size_t start = 0;;) {
    const std::size_t first = text.find('_', start);
    if (first == std::string_view::npos) return std::nullopt;
    if (all_digits(text.substr(start, first - start))) {
      const std::string_view rest = text.substr(first + 1);
      const std::size_t second = rest.find('_');
      const bool attachment = second != std::string_view::npos && all_digits(rest.substr(0, second)) &&
                              second + 1 < rest.size();
      if (attachment || rest == "text.html" || rest == "link.html") {
        CanvasFileName out;
        std::string name(start == 0 ? std::string_view{} : text.substr(0, start - 1));
        if (name == "late" || name == "LATE") {
          name.clear();
          out.late = true;
        } else if (name.ends_with("_late") || name.ends_with("_LATE")) {
          name.resize(name.size() - 5);
          out.late = true;
        }
        const std::string user(text.substr(start, first - start));
        out.student = name.empty() ? user : name + "_" + user;
        out.name = attachment ? rest.substr(second + 1) : rest;
        if (out.name == "." || out.name == "..") return std::nullopt;
        return out;
      }
    }
    start = first + 1;
  }
}

Result<bool> copy_loose_files(const std::vector<LooseFile>& files, const fs::path& into) {
  std::error_code ec;
  fs::create_directories(into, ec);
  if (ec) return fail("cannot create " + into.string() + ": " + ec.message());
  for (const LooseFile& file : files) {
    const std::string downloaded = file.path.filename().string();
    auto bytes = read_regular_file(file.path, printable(downloaded), std::uint64_t{256} << 20);
    if (!bytes) return std::unexpected(bytes.error());
    // A name to copy it under: not hidden, no folder in it.
    const bool plain = !file.name.empty() && file.name[0] != '.' && file.name.find('/') == std::string::npos;
    fs::path target = into / (plain ? file.name : downloaded);
    if (fs::exists(fs::symlink_status(target, ec))) target = into / downloaded;
    auto written = write_file_atomically(target, *bytes);
    if (!written) return std::unexpected(written.error());
  }
  return true;
}

}  // namespace cugrade
